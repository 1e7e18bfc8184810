import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, idempotencyKey, unwrap } from '../../api/client';
import { fieldErrors } from '../../api/problems';
import { FormDialog } from '../../components/Dialogs';
import { SelectField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { maskCep, maskDocument } from '../../format/masks';
import { common } from '../../i18n/common';
import { useMessages } from '../../i18n';
import {
  companyFormOf,
  companyFormProblems,
  COST_METHODS,
  createCompanyBody,
  emptyCompanyForm,
  STATES,
  TAX_REGIMES,
  updateCompanyBody,
  type Company,
  type CompanyField,
  type CompanyForm,
  type CostMethod,
  type TaxRegime,
} from './form';
import { companyMessages } from './messages';

/** Creating (no `company`) or editing a company; each opening mounts a fresh form with its own Idempotency-Key. */
export function CompanyFormDialog({
  open,
  company,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  company: Company | undefined;
  onOpenChange: (open: boolean) => void;
  onSaved: (saved: Company, created: boolean) => void;
}) {
  const t = useMessages(companyMessages);
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} title={company ? t.editTitle : t.createTitle}>
      <CompanyFormBody company={company} onCancel={() => onOpenChange(false)} onSaved={onSaved} />
    </FormDialog>
  );
}

function CompanyFormBody({
  company,
  onCancel,
  onSaved,
}: {
  company: Company | undefined;
  onCancel: () => void;
  onSaved: (saved: Company, created: boolean) => void;
}) {
  const t = useMessages(companyMessages);
  const c = useMessages(common);
  const creating = !company;
  const original = company ? companyFormOf(company) : emptyCompanyForm;
  const [form, setForm] = useState<CompanyForm>(original);
  const [checked, setChecked] = useState(false);
  // One key per open form, renewed only after a success.
  const [key, setKey] = useState(idempotencyKey);

  const save = useMutation({
    mutationFn: async (): Promise<Company> => {
      if (!company) return unwrap(api.POST('/companies', { params: { header: key }, body: createCompanyBody(form) }));
      const body = updateCompanyBody(form, original);
      if (!body) return company;
      return unwrap(api.PATCH('/companies/{id}', { params: { path: { id: company.id } }, body }));
    },
    onSuccess: (saved) => {
      setKey(idempotencyKey());
      onSaved(saved, creating);
    },
  });

  const problems = checked ? companyFormProblems(form, { creating }) : {};
  const server = fieldErrors(save.error);
  const serverOf = (field: CompanyField) =>
    ['street', 'number', 'city', 'state', 'zipCode'].includes(field) ? (server[`address.${field}`] ?? server.address) : server[field];
  const errorOf = (field: CompanyField) => serverOf(field) ?? (problems[field] ? t[problems[field]] : undefined);
  const set = (field: CompanyField) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(companyFormProblems(form, { creating })).length > 0) return;
    save.mutate();
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {save.error ? <ProblemAlert error={save.error} /> : null}
      <TextField label={t.name} value={form.name} onValueChange={set('name')} error={errorOf('name')} required autoComplete="organization" maxLength={200} />
      <TextField
        label={t.document}
        value={form.document}
        onValueChange={set('document')}
        mask={maskDocument}
        error={errorOf('document')}
        hint={creating ? t.documentHint : t.documentFixed}
        readOnly={!creating}
        required={creating}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField label={t.email} type="email" value={form.email} onValueChange={set('email')} error={errorOf('email')} autoComplete="email" maxLength={254} />
      <fieldset className="company-address">
        <legend>{t.address}</legend>
        <p className="hint">{t.addressHint}</p>
        <div className="form-row">
          <TextField
            label={t.zipCode}
            value={form.zipCode}
            onValueChange={set('zipCode')}
            mask={maskCep}
            error={errorOf('zipCode')}
            inputMode="numeric"
            autoComplete="postal-code"
          />
          <SelectField
            label={t.state}
            value={form.state}
            onValueChange={set('state')}
            error={errorOf('state')}
            options={[{ value: '', label: t.noState }, ...STATES.map((state) => ({ value: state, label: state }))]}
          />
        </div>
        <div className="form-row">
          <TextField label={t.street} value={form.street} onValueChange={set('street')} error={errorOf('street')} autoComplete="address-line1" />
          <TextField label={t.number} value={form.number} onValueChange={set('number')} error={errorOf('number')} autoComplete="off" />
        </div>
        <TextField label={t.city} value={form.city} onValueChange={set('city')} error={errorOf('city')} autoComplete="address-level2" />
      </fieldset>
      {creating ? null : (
        <div className="form-row">
          <SelectField
            label={t.taxRegime}
            value={form.taxRegime}
            onValueChange={(value) => setForm((current) => ({ ...current, taxRegime: value as TaxRegime }))}
            error={errorOf('taxRegime')}
            options={TAX_REGIMES.map((regime) => ({ value: regime, label: t.taxRegimeName(regime) }))}
          />
          <SelectField
            label={t.costMethod}
            value={form.costMethod}
            onValueChange={(value) => setForm((current) => ({ ...current, costMethod: value as CostMethod }))}
            error={errorOf('costMethod')}
            options={COST_METHODS.map((method) => ({ value: method, label: t.costMethodName(method) }))}
          />
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {c.cancel}
        </button>
        <button type="submit" className="button primary" disabled={save.isPending}>
          {c.save}
        </button>
      </div>
    </form>
  );
}
