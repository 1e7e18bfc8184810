import { useState, type FormEvent } from 'react';
import { useChangePassword } from '../../api/account';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { newPasswordProblem } from '../auth/recovery';
import { NewPasswordFields } from '../auth/NewPasswordFields';
import { accountMessages } from './messages';

/**
 * POST /auth/change-password: the current password and the new one twice. Every other session
 * ends and this one goes on with fresh cookies; a wrong current password is the API's 400
 * naming `currentPassword`, shown under that field.
 */
export function ChangePasswordSection() {
  const t = useMessages(accountMessages);
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [tried, setTried] = useState(false);
  const change = useChangePassword({
    onSuccess: () => {
      setCurrentPassword('');
      setNewPassword('');
      setConfirmation('');
      setTried(false);
    },
  });
  const problem = newPasswordProblem(newPassword, confirmation);
  const fields = fieldErrors(change.error);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    change.reset();
    if (!problem && currentPassword) change.mutate({ currentPassword, newPassword });
  };
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title">{t.passwordTitle}</h2>
      <form className="form" onSubmit={onSubmit} noValidate>
        {change.isSuccess ? (
          <div className="alert alert-ok" role="status">
            <p>{t.passwordChanged}</p>
          </div>
        ) : null}
        {change.error ? <ProblemAlert error={change.error} /> : null}
        <TextField
          label={t.currentPassword}
          type="password"
          value={currentPassword}
          onValueChange={setCurrentPassword}
          autoComplete="current-password"
          required
          error={fields.currentPassword}
        />
        <NewPasswordFields
          label={t.newPassword}
          confirmLabel={t.confirmPassword}
          hint={t.passwordHint}
          password={newPassword}
          onPassword={setNewPassword}
          confirmation={confirmation}
          onConfirmation={setConfirmation}
          tried={tried}
          serverError={fields.newPassword}
        />
        <button type="submit" className="button primary" disabled={change.isPending}>
          {t.changePassword}
        </button>
      </form>
    </section>
  );
}
