import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { useRegister, useReloadMe } from '../../api/auth';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { invitationOf, newPasswordProblem } from './recovery';
import { NewPasswordFields } from './NewPasswordFields';
import { recoveryMessages } from './recovery-messages';

/**
 * The e-mailed invitation (`/register?tenantId=…&email=…&token=…`), also the link a sign-up
 * sends its administrator: a name and a password (the e-mail is the invitation's, read-only),
 * POST /auth/register, which signs the new user in, then the dashboard.
 */
export default function AcceptInvitationPage() {
  const t = useMessages(recoveryMessages);
  const c = useMessages(common);
  const invitation = invitationOf(useSearch());
  const reloadMe = useReloadMe();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [tried, setTried] = useState(false);
  const [signInNeeded, setSignInNeeded] = useState(false);

  const register = useRegister(async () => {
    const me = await reloadMe();
    if (me) navigate('/', { replace: true });
    else setSignInNeeded(true);
  });

  if (!invitation) {
    return (
      <Page title={t.invitationTitle}>
        <div className="alert alert-error" role="alert">
          <p>{t.invitationIncomplete}</p>
        </div>
      </Page>
    );
  }

  if (signInNeeded) {
    return (
      <Page title={t.invitationTitle}>
        <div className="alert alert-ok" role="status">
          <p>{t.invitationRegisteredSignIn}</p>
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
    if (!problem && name.trim())
      register.mutate({ name: name.trim(), email: invitation.email, password, tenantId: invitation.tenantId, invitationToken: invitation.token });
  };
  const fields = fieldErrors(register.error);

  return (
    <Page title={t.invitationTitle}>
      <form onSubmit={onSubmit} className="form" noValidate>
        <p>{t.invitationIntro}</p>
        {register.error ? <ProblemAlert error={register.error} /> : null}
        <TextField
          label={t.email}
          type="email"
          value={invitation.email}
          onValueChange={() => undefined}
          readOnly
          hint={t.invitationEmailHint}
          error={fields.email}
        />
        <TextField
          label={t.name}
          value={name}
          onValueChange={setName}
          autoComplete="name"
          required
          autoFocus
          error={tried && !name.trim() ? c.required : fields.name}
        />
        <NewPasswordFields
          label={t.password}
          confirmLabel={t.confirmPassword}
          hint={t.passwordHint}
          password={password}
          onPassword={setPassword}
          confirmation={confirmation}
          onConfirmation={setConfirmation}
          tried={tried}
          serverError={fields.password}
        />
        <button type="submit" className="button primary" disabled={register.isPending}>
          {t.createAccount}
        </button>
      </form>
    </Page>
  );
}
