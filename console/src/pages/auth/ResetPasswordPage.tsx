import { useState, type FormEvent } from 'react';
import { Link, useSearch } from 'wouter';
import { useResetPassword } from '../../api/auth';
import { fieldErrors } from '../../api/problems';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { newPasswordProblem } from './recovery';
import { NewPasswordFields } from './NewPasswordFields';
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
  const reset = useResetPassword();

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
    if (!problem) reset.mutate({ token, newPassword: password });
  };
  const fields = fieldErrors(reset.error);

  return (
    <Page title={t.resetTitle}>
      <form onSubmit={onSubmit} className="form" noValidate>
        {reset.error ? <ProblemAlert error={reset.error} /> : null}
        {fields.token ? (
          <p>
            <Link href="/forgot-password">{t.requestNewLink}</Link>
          </p>
        ) : null}
        <NewPasswordFields
          label={t.newPassword}
          confirmLabel={t.confirmPassword}
          hint={t.passwordHint}
          password={password}
          onPassword={setPassword}
          confirmation={confirmation}
          onConfirmation={setConfirmation}
          tried={tried}
          serverError={fields.newPassword}
          autoFocus
        />
        <button type="submit" className="button primary" disabled={reset.isPending}>
          {t.resetSubmit}
        </button>
      </form>
    </Page>
  );
}
