import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../api/problems';
import { CheckboxField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import { Fieldset } from '../../components/Fieldset';
import { webhookMessages } from './webhook-messages';
import { endpointFormProblems, MAX_DESCRIPTION, WEBHOOK_EVENT_TYPES, withAllEvents, withEvent, type EndpointForm } from './webhooks';
import './webhooks.css';

/**
 * The register and edit form of an endpoint: the URL, the description, a checkbox per event
 * type and (when editing) whether it is enabled. Its own checks (a URL, one event at least) show
 * once it was submitted; the server's message per field (`url`, `events`, `description`,
 * `enabled`) from the failed call's problem document.
 */
export function WebhookForm({
  initial,
  label,
  submitLabel,
  withEnabled,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial: EndpointForm;
  label: string;
  submitLabel: string;
  withEnabled: boolean;
  busy: boolean;
  error: unknown;
  onSubmit: (form: EndpointForm) => void;
  onCancel: () => void;
}) {
  const t = useMessages(webhookMessages);
  const c = useMessages(common);
  const [form, setForm] = useState<EndpointForm>(initial);
  const [checked, setChecked] = useState(false);
  const server = fieldErrors(error);
  const problems = checked ? endpointFormProblems(form) : {};
  const urlProblem = problems.url === 'required' ? c.required : problems.url === 'invalid' ? t.urlInvalid : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(endpointFormProblems(form)).length > 0) return;
    onSubmit(form);
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={label}>
      {error ? <ProblemAlert error={error} /> : null}
      <TextField
        label={t.url}
        type="url"
        value={form.url}
        onValueChange={(url) => setForm((current) => ({ ...current, url }))}
        hint={t.urlHint}
        error={server.url ?? urlProblem}
        required
        maxLength={2048}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        label={t.description}
        value={form.description}
        onValueChange={(description) => setForm((current) => ({ ...current, description }))}
        hint={t.descriptionHint}
        error={server.description}
        maxLength={MAX_DESCRIPTION}
        autoComplete="off"
      />
      <EventChoices form={form} onChange={setForm} error={server.events ?? (problems.events ? t.pickOne : undefined)} />
      {withEnabled ? (
        <Fieldset legend={t.state} hint={t.enabledHint} error={server.enabled}>
          <CheckboxField label={t.enabled} checked={form.enabled} onCheckedChange={(enabled) => setForm((current) => ({ ...current, enabled }))} />
        </Fieldset>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {c.cancel}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** A checkbox per event type (its words and its code), with check all and uncheck all. */
function EventChoices({
  form,
  onChange,
  error,
}: {
  form: EndpointForm;
  onChange: (change: (form: EndpointForm) => EndpointForm) => void;
  error: string | undefined;
}) {
  const t = useMessages(webhookMessages);
  return (
    <Fieldset legend={t.events} hint={t.eventsHint} error={error}>
      <div className="toolbar webhook-event-toggles">
        <button type="button" className="button link" onClick={() => onChange((current) => withAllEvents(current, true))}>
          {t.allEvents}
        </button>
        <button type="button" className="button link" onClick={() => onChange((current) => withAllEvents(current, false))}>
          {t.noEvents}
        </button>
      </div>
      <div className="webhook-events">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <CheckboxField
            key={type}
            label={`${t.eventName(type)} (${type})`}
            checked={form.events.includes(type)}
            onCheckedChange={(on) => onChange((current) => withEvent(current, type, on))}
          />
        ))}
      </div>
    </Fieldset>
  );
}
