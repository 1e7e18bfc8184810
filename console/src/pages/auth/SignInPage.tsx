import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useLogin, useReloadMe, useVerifySecondFactor } from '../../api/auth';
import { fieldErrors } from '../../api/problems';
import { nextPath } from '../../app/session';
import { CheckboxField, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { authMessages } from './messages';

/**
 * Sign in: e-mail, password and "remember me" (a persistent refresh cookie); a user with a
 * second factor then gives the authenticator's code or a recovery code (POST /auth/mfa/verify,
 * which reads the challenge cookie the login set). Afterwards, the page the user came from.
 */
export default function SignInPage() {
  const t = useMessages(authMessages);
  const reloadMe = useReloadMe();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [step, setStep] = useState<'password' | 'code' | 'recovery'>('password');
  const [code, setCode] = useState('');

  const signedIn = async () => {
    await reloadMe();
    navigate(nextPath(`?${search}`), { replace: true });
  };

  const login = useLogin(async (answer) => {
    if (answer.mfaRequired) {
      setStep('code');
      return;
    }
    await signedIn();
  });
  const verify = useVerifySecondFactor(signedIn);

  const onPassword = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ email, password, rememberMe });
  };
  const onCode = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate(step === 'recovery' ? { recoveryCode: code.trim() } : { code: code.replace(/\s/g, '') });
  };
  const fields = fieldErrors(login.error);

  if (step !== 'password') {
    return (
      <Page title={t.secondFactorTitle}>
        <form onSubmit={onCode} className="form" noValidate>
          <p>{step === 'code' ? t.secondFactorHint : t.recoveryHint}</p>
          {verify.error ? <ProblemAlert error={verify.error} /> : null}
          <TextField
            label={step === 'code' ? t.code : t.recoveryCode}
            value={code}
            onValueChange={setCode}
            autoComplete="one-time-code"
            inputMode={step === 'code' ? 'numeric' : 'text'}
            required
            autoFocus
          />
          <button type="submit" className="button primary" disabled={verify.isPending}>
            {t.verify}
          </button>
          <button
            type="button"
            className="button link"
            onClick={() => {
              setCode('');
              setStep(step === 'code' ? 'recovery' : 'code');
            }}
          >
            {step === 'code' ? t.useRecoveryCode : t.useAuthenticatorCode}
          </button>
          <button
            type="button"
            className="button link"
            onClick={() => {
              setCode('');
              setPassword('');
              setStep('password');
            }}
          >
            {t.startOver}
          </button>
        </form>
      </Page>
    );
  }

  return (
    <Page title={t.signInTitle}>
      <form onSubmit={onPassword} className="form" noValidate>
        {login.error ? <ProblemAlert error={login.error} /> : null}
        <TextField label={t.email} type="email" value={email} onValueChange={setEmail} autoComplete="username" required error={fields.email} />
        <TextField
          label={t.password}
          type="password"
          value={password}
          onValueChange={setPassword}
          autoComplete="current-password"
          required
          error={fields.password}
        />
        <CheckboxField label={t.rememberMe} checked={rememberMe} onCheckedChange={setRememberMe} />
        <button type="submit" className="button primary" disabled={login.isPending}>
          {t.signIn}
        </button>
        <p>
          <Link href="/forgot-password">{t.forgotPassword}</Link>
        </p>
        <p>
          {t.noAccount} <Link href="/sign-up">{t.signUpLink}</Link>
        </p>
      </form>
    </Page>
  );
}
