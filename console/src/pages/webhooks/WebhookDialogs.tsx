import { deleteWebhookEndpoint, rotateWebhookSecret, useCreateWebhookEndpoint, useUpdateWebhookEndpoint } from '../../api/webhooks';
import { FormDialog } from '../../components/Dialogs';
import { formatDateTime } from '../../format/date';
import { useMessages } from '../../i18n';
import { ConfirmCall } from '../../components/ConfirmCall';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';
import { webhookMessages } from './webhook-messages';
import { WebhookForm } from './WebhookForm';
import { createEndpointBody, EMPTY_ENDPOINT_FORM, formOf, updateEndpointBody, type EndpointForm } from './webhooks';
import type { EndpointWithSecret, WebhookEndpoint } from './WebhooksSection';

/**
 * POST /webhook-endpoints in a dialog; each opening mounts a fresh form. The route takes no
 * Idempotency-Key (a retry registers a second endpoint): the button is disabled while the call
 * runs. The answer is handed on at once and kept in no cache (gcTime 0), so the secret lives
 * only in the dialog that shows it.
 */
export function CreateEndpointDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (endpoint: EndpointWithSecret) => void }) {
  const t = useMessages(webhookMessages);
  const create = useCreateWebhookEndpoint({ onSuccess: (created) => onCreated(created) });
  return (
    <FormDialog open onOpenChange={(open) => (open ? undefined : onClose())} title={t.createTitle}>
      <WebhookForm
        initial={EMPTY_ENDPOINT_FORM}
        label={t.createTitle}
        submitLabel={t.create}
        withEnabled={false}
        busy={create.isPending}
        error={create.error}
        onSubmit={(form) => create.mutate(createEndpointBody(form))}
        onCancel={onClose}
      />
    </FormDialog>
  );
}

/** PATCH /webhook-endpoints/{id} with what changed; nothing changed closes the dialog without a call. */
export function EditEndpointDialog({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint: WebhookEndpoint;
  onClose: () => void;
  onSaved: (endpoint: WebhookEndpoint) => void;
}) {
  const t = useMessages(webhookMessages);
  const save = useUpdateWebhookEndpoint(endpoint.id, { onSuccess: (saved) => onSaved(saved) });
  const submit = (form: EndpointForm) => {
    const body = updateEndpointBody(endpoint, form);
    if (Object.keys(body).length === 0) onClose();
    else save.mutate(body);
  };
  return (
    <FormDialog open onOpenChange={(open) => (open ? undefined : onClose())} title={t.editTitle(endpoint.url)}>
      <WebhookForm
        initial={formOf(endpoint)}
        label={t.editTitle(endpoint.url)}
        submitLabel={t.saveEndpoint}
        withEnabled
        busy={save.isPending}
        error={save.error}
        onSubmit={submit}
        onCancel={onClose}
      />
    </FormDialog>
  );
}

/** POST /webhook-endpoints/{id}/rotate-secret, confirmed: the new secret is handed on to be shown once. */
export function RotateSecretDialog({
  endpoint,
  onClose,
  onRotated,
}: {
  endpoint: WebhookEndpoint;
  onClose: () => void;
  onRotated: (endpoint: EndpointWithSecret) => void;
}) {
  const t = useMessages(webhookMessages);
  return (
    <ConfirmCall
      title={t.rotateTitle(endpoint.url)}
      description={t.rotateText}
      confirmLabel={t.rotate}
      call={() => rotateWebhookSecret(endpoint.id)}
      onDone={onRotated}
      onClose={onClose}
    />
  );
}

/** DELETE /webhook-endpoints/{id}, confirmed. */
export function DeleteEndpointDialog({ endpoint, onClose, onDeleted }: { endpoint: WebhookEndpoint; onClose: () => void; onDeleted: () => void }) {
  const t = useMessages(webhookMessages);
  return (
    <ConfirmCall
      title={t.deleteTitle(endpoint.url)}
      description={t.deleteText}
      confirmLabel={t.deleteLabel}
      call={() => deleteWebhookEndpoint(endpoint.id)}
      onDone={() => onDeleted()}
      onClose={onClose}
    />
  );
}

/** An endpoint's signing secret as a register or a rotation answered it, shown once; after a rotation, until when the previous one signs too. */
export interface ShownWebhookSecret {
  rotated: boolean;
  secret: string;
  previousSecretExpiresAt: string | null;
}

export function WebhookSecretDialog({ shown, onClose }: { shown: ShownWebhookSecret; onClose: () => void }) {
  const t = useMessages(webhookMessages);
  const texts = {
    warning: t.secretWarning,
    field: t.secretField,
    copy: t.copySecret,
    copied: t.secretCopied,
    copyFallback: t.copyFallback,
    done: t.secretDone,
  };
  const note = shown.rotated && shown.previousSecretExpiresAt ? <p>{t.previousSigns(formatDateTime(shown.previousSecretExpiresAt))}</p> : null;
  return <ShownOnceDialog title={shown.rotated ? t.rotatedTitle : t.createdTitle} value={shown.secret} texts={texts} note={note} onClose={onClose} />;
}
