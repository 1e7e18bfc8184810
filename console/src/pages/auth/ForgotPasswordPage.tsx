import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useForgotPassword } from '../../api/auth';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { recoveryMessages } from './recovery-messages';

/**
 * Forgot password: the e-mail, then always the same answer, whether or not the address has an
 * account (the API's own answer is the same too, so the page cannot be used to find accounts).
 */
export default function ForgotPasswordPage() {
  const t = useMessages(recoveryMessages);
  const [email, setEmail] = useState('');
  const send = useForgotPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(email.trim());
  };

  if (send.isSuccess) {
    return (
      <Page title={t.forgotTitle}>
        <div className="alert alert-ok" role="status">
          <p>{t.forgotSent}</p>
        </div>
        <p>
          <Link href="/sign-in">{t.backToSignIn}</Link>
        </p>
      </Page>
    );
  }

  return (
    <Page title={t.forgotTitle}>
      <form onSubmit={onSubmit} className="form" noValidate>
        <p>{t.forgotIntro}</p>
        {send.error ? <ProblemAlert error={send.error} /> : null}
        <TextField
          label={t.email}
          type="email"
          value={email}
          onValueChange={setEmail}
          autoComplete="username"
          required
          autoFocus
          error={fieldErrors(send.error).email}
        />
        <button type="submit" className="button primary" disabled={send.isPending}>
          {t.sendLink}
        </button>
        <p>
          <Link href="/sign-in">{t.backToSignIn}</Link>
        </p>
      </form>
    </Page>
  );
}
