import { useSaveCompany } from '../../api/companies';
import { fieldErrors } from '../../api/problems';
import { SelectField, TextField } from '../../components/Field';
import { RecordForm, RecordFormDialog, useRecordDraft } from '../../components/RecordFormDialog';
import { maskCep, maskDocument } from '../../format/masks';
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
    <RecordFormDialog open={open} record={company} titles={{ create: t.createTitle, edit: t.editTitle }} onOpenChange={onOpenChange}>
      {(onCancel) => <CompanyFormBody company={company} onCancel={onCancel} onSaved={onSaved} />}
    </RecordFormDialog>
  );
}

const ADDRESS_FIELDS: readonly CompanyField[] = ['street', 'number', 'city', 'state', 'zipCode'];

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
  const creating = !company;
  const original = company ? companyFormOf(company) : emptyCompanyForm;
  const draft = useRecordDraft(original, (form) => companyFormProblems(form, { creating }));
  const { form, set, problems } = draft;
  const save = useSaveCompany({
    onSuccess: (saved) => {
      draft.renewKey();
      onSaved(saved, creating);
    },
  });

  const server = fieldErrors(save.error);
  // The API names an address field `address.<field>`, or the whole `address`.
  const serverOf = (field: CompanyField) => (ADDRESS_FIELDS.includes(field) ? (server[`address.${field}`] ?? server.address) : server[field]);
  const errorOf = (field: CompanyField) => serverOf(field) ?? (problems[field] ? t[problems[field]] : undefined);
  const onSubmit = draft.submit(() =>
    save.mutate(
      company ? { record: company, update: updateCompanyBody(form, original) } : { record: undefined, key: draft.key, create: createCompanyBody(form) },
    ),
  );

  return (
    <RecordForm onSubmit={onSubmit} error={save.error} saving={save.isPending} onCancel={onCancel}>
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
            onValueChange={(value) => set('taxRegime')(value as TaxRegime)}
            error={errorOf('taxRegime')}
            options={TAX_REGIMES.map((regime) => ({ value: regime, label: t.taxRegimeName(regime) }))}
          />
          <SelectField
            label={t.costMethod}
            value={form.costMethod}
            onValueChange={(value) => set('costMethod')(value as CostMethod)}
            error={errorOf('costMethod')}
            options={COST_METHODS.map((method) => ({ value: method, label: t.costMethodName(method) }))}
          />
        </div>
      )}
    </RecordForm>
  );
}
