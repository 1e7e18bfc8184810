import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, idempotencyKey, unwrap } from '../../api/client';
import { failureOf, fieldErrors } from '../../api/problems';
import { FormDialog } from '../../components/Dialogs';
import { CheckboxField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { maskDocument, maskPhone } from '../../format/masks';
import { common } from '../../i18n/common';
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
    <FormDialog open={open} onOpenChange={onOpenChange} title={supplier ? t.editTitle : t.createTitle}>
      <SupplierFormBody supplier={supplier} onCancel={() => onOpenChange(false)} onSaved={onSaved} />
    </FormDialog>
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
  const c = useMessages(common);
  const original = supplier ? supplierFormOf(supplier) : emptySupplierForm;
  const [form, setForm] = useState<SupplierForm>(original);
  const [checked, setChecked] = useState(false);
  // One key per open form: a double click or a retry of this same create is not counted twice.
  const [key, setKey] = useState(idempotencyKey);

  const save = useMutation({
    mutationFn: async (): Promise<Supplier | undefined> => {
      if (!supplier) return unwrap(api.POST('/suppliers', { params: { header: key }, body: createSupplierBody(form) }));
      const body = updateSupplierBody(form, original);
      if (!body) return supplier;
      return unwrap(api.PATCH('/suppliers/{id}', { params: { path: { id: supplier.id } }, body }));
    },
    onSuccess: (saved) => {
      if (!saved) return;
      setKey(idempotencyKey());
      onSaved(saved, !supplier);
    },
  });

  const problems = checked ? supplierFormProblems(form) : {};
  const server = fieldErrors(save.error);
  const failure = save.error ? failureOf(save.error) : undefined;
  // A 409 on a supplier is its document taken by another: said beside the document too.
  const conflict = failure?.kind === 'problem' && failure.status === 409 ? failure.detail : undefined;
  const errorOf = (field: keyof SupplierForm) =>
    server[field] ?? (field === 'document' ? conflict : undefined) ?? (problems[field] ? t[problems[field]] : undefined);
  const set =
    <K extends keyof SupplierForm>(field: K) =>
    (value: SupplierForm[K]) =>
      setForm((current) => ({ ...current, [field]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(supplierFormProblems(form)).length > 0) return;
    save.mutate();
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {save.error ? <ProblemAlert error={save.error} /> : null}
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
