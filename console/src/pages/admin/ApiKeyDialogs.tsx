import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { fieldErrors } from '../../api/problems';
import { ConfirmDialog, FormDialog } from '../../components/Dialogs';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { DEFAULT_ROLL_HOURS, rollHoursOf } from './api-keys';
import type { ApiKey, ApiKeyWithSecret } from './ApiKeysSection';
import { adminMessages } from './messages';

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
  const roll = useMutation({
    mutationFn: (expiresInHours: number) => unwrap(api.POST('/api-keys/{id}/roll', { params: { path: { id: apiKey.id } }, body: { expiresInHours } })),
    gcTime: 0,
    onSuccess: (rolled) => onRolled(rolled),
  });
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
  const revoke = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api-keys/{id}', { params: { path: { id: apiKey.id } } })),
    onSuccess: () => onRevoked(),
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.revokeTitle(apiKey.name)}
      description={t.revokeText}
      confirmLabel={t.revoke}
      onConfirm={() => revoke.mutate()}
      busy={revoke.isPending}
    >
      {revoke.error ? <ProblemAlert error={revoke.error} /> : null}
    </ConfirmDialog>
  );
}

/** A key's text and the dialog's title; held by the section only while the dialog is open. */
export interface ShownSecret {
  title: string;
  key: string;
}

/**
 * The key's text, once: a read-only field (focused and selected when the dialog opens), a copy
 * button (the Clipboard API; where it is refused, the text is selected for Ctrl+C) and the
 * warning that it will not be shown again. An alert dialog: a click outside does not close it,
 * only the button or Escape, so the text is not lost by a stray click.
 */
export function SecretDialog({ secret, onClose }: { secret: ShownSecret; onClose: () => void }) {
  const t = useMessages(adminMessages);
  const fieldId = useId();
  const [copied, setCopied] = useState<'' | 'copied' | 'selected'>('');
  const selectKey = () => {
    const input = document.getElementById(fieldId);
    if (!(input instanceof HTMLInputElement)) return;
    input.focus();
    input.select();
  };
  const copy = async () => {
    try {
      // Absent outside a secure context (the type says it is always there).
      const clipboard = navigator.clipboard as Clipboard | undefined;
      if (!clipboard) throw new Error('no clipboard');
      await clipboard.writeText(secret.key);
      setCopied('copied');
    } catch {
      selectKey();
      setCopied('selected');
    }
  };
  return (
    <AlertDialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay" />
        <AlertDialog.Content
          className="dialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            selectKey();
          }}
        >
          <AlertDialog.Title className="dialog-title">{secret.title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="alert alert-warn">
              <p>{t.secretWarning}</p>
            </div>
          </AlertDialog.Description>
          <TextField
            id={fieldId}
            className="api-key-secret"
            label={t.secretField}
            value={secret.key}
            onValueChange={() => undefined}
            readOnly
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
          />
          <p role="status" className="muted">
            {copied === 'copied' ? t.keyCopied : copied === 'selected' ? t.copyFallback : ''}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => void copy()}>
              {t.copyKey}
            </button>
            <AlertDialog.Action className="button primary">{t.secretDone}</AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
