import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { newPasswordProblem, PASSWORD_PROBLEM_TEXT } from './recovery';
import { recoveryMessages } from './recovery-messages';

/**
 * The e-mailed reset link (`/reset-password?token=…`): the new password twice, then on to sign
 * in. An unknown, expired or used token is the API's 400 naming `token`, shown with a way to
 * ask for a new link.
 */
export default function ResetPasswordPage() {
  const t = useMessages(recoveryMessages);
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [tried, setTried] = useState(false);
  const reset = useMutation({ mutationFn: () => unwrap(api.POST('/auth/reset-password', { body: { token, newPassword: password } })) });

  if (!token) {
    return (
      <Page title={t.resetTitle}>
        <div className="alert alert-error" role="alert">
          <p>{t.resetNoToken}</p>
        </div>
        <p>
          <Link href="/forgot-password">{t.requestNewLink}</Link>
        </p>
      </Page>
    );
  }

  if (reset.isSuccess) {
    return (
      <Page title={t.resetTitle}>
        <div className="alert alert-ok" role="status">
          <p>{t.resetDone}</p>
        </div>
        <p>
          <Link href="/sign-in" className="button primary">
            {t.goToSignIn}
          </Link>
        </p>
      </Page>
    );
  }

  const problem = newPasswordProblem(password, confirmation);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!problem) reset.mutate();
  };
  const fields = fieldErrors(reset.error);
  const local = tried && problem ? t[PASSWORD_PROBLEM_TEXT[problem]] : undefined;

  return (
    <Page title={t.resetTitle}>
      <form onSubmit={onSubmit} className="form" noValidate>
        {reset.error ? <ProblemAlert error={reset.error} /> : null}
        {fields.token ? (
          <p>
            <Link href="/forgot-password">{t.requestNewLink}</Link>
          </p>
        ) : null}
        <TextField
          label={t.newPassword}
          type="password"
          value={password}
          onValueChange={setPassword}
          autoComplete="new-password"
          required
          autoFocus
          hint={t.passwordHint}
          error={(problem !== 'mismatch' ? local : undefined) ?? fields.newPassword}
        />
        <TextField
          label={t.confirmPassword}
          type="password"
          value={confirmation}
          onValueChange={setConfirmation}
          autoComplete="new-password"
          required
          error={problem === 'mismatch' ? local : undefined}
        />
        <button type="submit" className="button primary" disabled={reset.isPending}>
          {t.resetSubmit}
        </button>
      </form>
    </Page>
  );
}
