import { useState, type FormEvent } from 'react';
import { useCreateApiKey } from '../../api/api-keys';
import { fieldErrors } from '../../api/problems';
import { FormDialog } from '../../components/Dialogs';
import { SelectField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { endOfDayIso } from '../../format/date';
import { useMessages } from '../../i18n';
import { common } from '../../i18n/common';
import {
  companyLimitAllowed,
  createKeyBody,
  dayOf,
  EMPTY_KEY_FORM,
  KEY_RESOURCES,
  keyFormProblems,
  LEVELS_OF,
  withLevel,
  type KeyForm,
  type KeyLevel,
} from './api-keys';
import type { ApiKeyWithSecret } from './ApiKeysSection';
import { Fieldset } from '../../components/Fieldset';
import { adminMessages } from '../settings/messages';

type Company = { id: string; name: string };

/** POST /api-keys in a dialog; each opening mounts a fresh form. */
export function CreateKeyDialog({
  open,
  onOpenChange,
  companies,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  companies: Company[] | undefined;
  onCreated: (key: ApiKeyWithSecret) => void;
}) {
  const t = useMessages(adminMessages);
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} title={t.createKeyTitle}>
      <CreateKeyForm companies={companies} onCancel={() => onOpenChange(false)} onCreated={onCreated} />
    </FormDialog>
  );
}

/**
 * The form. POST /api-keys takes no Idempotency-Key (its answer holds the secret, which the
 * server does not keep): a double click is stopped by disabling the button while it runs. The
 * answer is handed on at once and the mutation is kept in no cache (gcTime 0), so the key's
 * text lives only in the dialog that shows it.
 */
function CreateKeyForm({
  companies,
  onCancel,
  onCreated,
}: {
  companies: Company[] | undefined;
  onCancel: () => void;
  onCreated: (key: ApiKeyWithSecret) => void;
}) {
  const t = useMessages(adminMessages);
  const c = useMessages(common);
  const [form, setForm] = useState<KeyForm>(EMPTY_KEY_FORM);
  const [checked, setChecked] = useState(false);
  const create = useCreateApiKey({ onSuccess: (created) => onCreated(created) });
  const server = fieldErrors(create.error);
  const problems = checked ? keyFormProblems(form) : {};
  const scopesError = server.scopes ?? (problems.scopes ? t.grantOne : undefined);
  const limitAllowed = companyLimitAllowed(form);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(keyFormProblems(form)).length > 0) return;
    create.mutate(createKeyBody(form, endOfDayIso));
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label={t.createKeyTitle}>
      {create.error ? <ProblemAlert error={create.error} /> : null}
      <TextField
        label={t.name}
        value={form.name}
        onValueChange={(name) => setForm((current) => ({ ...current, name }))}
        hint={t.keyNameHint}
        error={server.name ?? (problems.name ? c.required : undefined)}
        required
        maxLength={200}
        autoComplete="off"
      />
      <Fieldset legend={t.scopesLegend} hint={t.scopesHint} error={scopesError}>
        <div className="form-row">
          {KEY_RESOURCES.map((resource) => (
            <SelectField
              key={resource}
              label={t.resourceName(resource)}
              value={form.scopes[resource]}
              onValueChange={(level) => setForm((current) => withLevel(current, resource, level as KeyLevel))}
              options={LEVELS_OF[resource].map((level) => ({ value: level, label: t.levelName(level) }))}
              error={server[`scopes.${resource}`]}
            />
          ))}
        </div>
      </Fieldset>
      <TextField
        label={t.expiresOn}
        type="date"
        value={form.expiresOn}
        onValueChange={(expiresOn) => setForm((current) => ({ ...current, expiresOn }))}
        min={dayOf(new Date())}
        hint={t.expiresOnHint}
        error={server.expiresAt}
      />
      <SelectField
        label={t.companyLimit}
        value={limitAllowed ? form.companyId : ''}
        onValueChange={(companyId) => setForm((current) => ({ ...current, companyId }))}
        options={[{ value: '', label: t.allCompanies }, ...(companies ?? []).map((company) => ({ value: company.id, label: company.name }))]}
        disabled={!limitAllowed}
        hint={limitAllowed ? t.companyLimitHint : t.companyLimitDisabled}
        error={server.companyId}
      />
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {c.cancel}
        </button>
        <button type="submit" className="button primary" disabled={create.isPending}>
          {t.createKey}
        </button>
      </div>
    </form>
  );
}
