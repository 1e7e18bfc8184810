import { TextField } from '../../components/Field';
import { useMessages } from '../../i18n';
import { newPasswordProblem, PASSWORD_PROBLEM_TEXT } from './recovery';
import { recoveryMessages } from './recovery-messages';

/**
 * A new password typed twice (reset, invitation, change of password): the password rule's
 * message under the first field and a mismatch under the second once the form was sent
 * (`tried`), else the server's own message for the password (`serverError`).
 */
export function NewPasswordFields({
  label,
  confirmLabel,
  hint,
  password,
  onPassword,
  confirmation,
  onConfirmation,
  tried,
  serverError,
  autoFocus = false,
}: {
  label: string;
  confirmLabel: string;
  hint: string;
  password: string;
  onPassword: (value: string) => void;
  confirmation: string;
  onConfirmation: (value: string) => void;
  tried: boolean;
  serverError: string | undefined;
  autoFocus?: boolean;
}) {
  const rules = useMessages(recoveryMessages);
  const problem = newPasswordProblem(password, confirmation);
  const local = tried && problem ? rules[PASSWORD_PROBLEM_TEXT[problem]] : undefined;
  return (
    <>
      <TextField
        label={label}
        type="password"
        value={password}
        onValueChange={onPassword}
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        hint={hint}
        error={(problem !== 'mismatch' ? local : undefined) ?? serverError}
      />
      <TextField
        label={confirmLabel}
        type="password"
        value={confirmation}
        onValueChange={onConfirmation}
        autoComplete="new-password"
        required
        error={problem === 'mismatch' ? local : undefined}
      />
    </>
  );
}
