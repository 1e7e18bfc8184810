import { useState, type FormEvent } from 'react';
import { revokeApiKey, useRollApiKey } from '../../api/api-keys';
import { fieldErrors } from '../../api/problems';
import { FormDialog } from '../../components/Dialogs';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { DEFAULT_ROLL_HOURS, rollHoursOf } from './api-keys';
import { ConfirmCall } from '../../components/ConfirmCall';
import type { ApiKey, ApiKeyWithSecret } from './ApiKeysSection';
import { adminMessages } from '../settings/messages';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';

/** POST /api-keys/{id}/roll: the hours the current secret keeps working, then the new text, shown once. */
export function RollKeyDialog({ apiKey, onClose, onRolled }: { apiKey: ApiKey; onClose: () => void; onRolled: (key: ApiKeyWithSecret) => void }) {
  const t = useMessages(adminMessages);
  return (
    <FormDialog open onOpenChange={(open) => (open ? undefined : onClose())} title={t.rollTitle(apiKey.name)} description={t.rollText}>
      <RollKeyForm apiKey={apiKey} onCancel={onClose} onRolled={onRolled} />
    </FormDialog>
  );
}

/** Not idempotent either (the answer holds the new secret): the button is disabled while the call runs, and the answer kept in no cache. */
function RollKeyForm({ apiKey, onCancel, onRolled }: { apiKey: ApiKey; onCancel: () => void; onRolled: (key: ApiKeyWithSecret) => void }) {
  const t = useMessages(adminMessages);
  const c = useMessages(common);
  const [hours, setHours] = useState(DEFAULT_ROLL_HOURS);
  const [checked, setChecked] = useState(false);
  const roll = useRollApiKey(apiKey.id, { onSuccess: (rolled) => onRolled(rolled) });
  const parsed = rollHoursOf(hours);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (parsed === undefined) return;
    roll.mutate(parsed);
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={t.rollTitle(apiKey.name)}>
      {roll.error ? <ProblemAlert error={roll.error} /> : null}
      <TextField
        label={t.rollHours}
        value={hours}
        onValueChange={setHours}
        inputMode="numeric"
        autoComplete="off"
        required
        hint={t.rollHoursHint}
        error={fieldErrors(roll.error).expiresInHours ?? (checked && parsed === undefined ? t.rollHoursInvalid : undefined)}
      />
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {c.cancel}
        </button>
        <button type="submit" className="button primary" disabled={roll.isPending}>
          {t.roll}
        </button>
      </div>
    </form>
  );
}

/** DELETE /api-keys/{id}, confirmed: the next request with the key (or a secret a roll replaced) gets 401. */
export function RevokeKeyDialog({ apiKey, onClose, onRevoked }: { apiKey: ApiKey; onClose: () => void; onRevoked: () => void }) {
  const t = useMessages(adminMessages);
  return (
    <ConfirmCall
      title={t.revokeTitle(apiKey.name)}
      description={t.revokeText}
      confirmLabel={t.revoke}
      call={() => revokeApiKey(apiKey.id)}
      onDone={() => onRevoked()}
      onClose={onClose}
    />
  );
}

/** A key's text and the dialog's title; held by the section only while the dialog is open. */
export interface ShownSecret {
  title: string;
  key: string;
}

/** The key's text, once (ShownOnceDialog), in the API keys' words. */
export function SecretDialog({ secret, onClose }: { secret: ShownSecret; onClose: () => void }) {
  const t = useMessages(adminMessages);
  const texts = { warning: t.secretWarning, field: t.secretField, copy: t.copyKey, copied: t.keyCopied, copyFallback: t.copyFallback, done: t.secretDone };
  return <ShownOnceDialog title={secret.title} value={secret.key} texts={texts} onClose={onClose} />;
}
