import { useSaveSupplier } from '../../api/suppliers';
import { failureOf, fieldErrors } from '../../api/problems';
import { CheckboxField, TextField } from '../../components/Field';
import { RecordForm, RecordFormDialog, useRecordDraft } from '../../components/RecordFormDialog';
import { maskDocument, maskPhone } from '../../format/masks';
import { useMessages } from '../../i18n';
import { createSupplierBody, emptySupplierForm, supplierFormOf, supplierFormProblems, updateSupplierBody, type Supplier, type SupplierForm } from './form';
import { supplierMessages } from './messages';

/**
 * Creating (no `supplier`) or editing a supplier in a dialog. The form is mounted afresh each
 * time the dialog opens, so each opening has its own Idempotency-Key.
 */
export function SupplierFormDialog({
  open,
  supplier,
  onOpenChange,
  onSaved,
}: {
  open: boolean;
  supplier: Supplier | undefined;
  onOpenChange: (open: boolean) => void;
  onSaved: (saved: Supplier, created: boolean) => void;
}) {
  const t = useMessages(supplierMessages);
  return (
    <RecordFormDialog open={open} record={supplier} titles={{ create: t.createTitle, edit: t.editTitle }} onOpenChange={onOpenChange}>
      {(onCancel) => <SupplierFormBody supplier={supplier} onCancel={onCancel} onSaved={onSaved} />}
    </RecordFormDialog>
  );
}

function SupplierFormBody({
  supplier,
  onCancel,
  onSaved,
}: {
  supplier: Supplier | undefined;
  onCancel: () => void;
  onSaved: (saved: Supplier, created: boolean) => void;
}) {
  const t = useMessages(supplierMessages);
  const original = supplier ? supplierFormOf(supplier) : emptySupplierForm;
  const draft = useRecordDraft(original, supplierFormProblems);
  const { form, set, problems } = draft;
  const save = useSaveSupplier({
    onSuccess: (saved) => {
      draft.renewKey();
      onSaved(saved, !supplier);
    },
  });

  const server = fieldErrors(save.error);
  const failure = save.error ? failureOf(save.error) : undefined;
  // A 409 on a supplier is its document taken by another: said beside the document too.
  const conflict = failure?.kind === 'problem' && failure.status === 409 ? failure.detail : undefined;
  const errorOf = (field: keyof SupplierForm) =>
    server[field] ?? (field === 'document' ? conflict : undefined) ?? (problems[field] ? t[problems[field]] : undefined);
  const onSubmit = draft.submit(() =>
    save.mutate(
      supplier ? { record: supplier, update: updateSupplierBody(form, original) } : { record: undefined, key: draft.key, create: createSupplierBody(form) },
    ),
  );

  return (
    <RecordForm onSubmit={onSubmit} error={save.error} saving={save.isPending} onCancel={onCancel}>
      <TextField label={t.name} value={form.name} onValueChange={set('name')} error={errorOf('name')} required autoComplete="off" maxLength={200} />
      <TextField
        label={t.corporateName}
        value={form.corporateName}
        onValueChange={set('corporateName')}
        error={errorOf('corporateName')}
        required
        autoComplete="off"
        maxLength={200}
      />
      <TextField
        label={t.document}
        value={form.document}
        onValueChange={set('document')}
        mask={maskDocument}
        error={errorOf('document')}
        required
        autoComplete="off"
        spellCheck={false}
      />
      <div className="form-row supplier-row">
        <TextField label={t.email} type="email" value={form.email} onValueChange={set('email')} error={errorOf('email')} autoComplete="off" maxLength={254} />
        <TextField
          label={t.phone}
          type="tel"
          value={form.phone}
          onValueChange={set('phone')}
          mask={maskPhone}
          error={errorOf('phone')}
          hint={t.phoneHint}
          autoComplete="off"
        />
      </div>
      <CheckboxField label={t.active} checked={form.active} onCheckedChange={set('active')} />
    </RecordForm>
  );
}
