import { useState, type FormEvent, type ReactNode } from 'react';
import { idempotencyKey } from '../api/client';
import { common } from '../i18n/common';
import { useMessages } from '../i18n';
import { FormDialog } from './Dialogs';
import { ProblemAlert } from './ProblemAlert';

/**
 * A record's create or edit dialog (companies, suppliers): titled for which it is, with the
 * record's form inside. The form is mounted afresh each time the dialog opens, so each opening
 * starts from the record as listed and has its own Idempotency-Key.
 */
export function RecordFormDialog<R>({
  open,
  record,
  titles,
  onOpenChange,
  children,
}: {
  open: boolean;
  /** The record edited; none when creating. */
  record: R | undefined;
  titles: { create: string; edit: string };
  onOpenChange: (open: boolean) => void;
  /** The form, given how to cancel (close the dialog). */
  children: (onCancel: () => void) => ReactNode;
}) {
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} title={record ? titles.edit : titles.create}>
      {children(() => onOpenChange(false))}
    </FormDialog>
  );
}

/**
 * A record form's state: the fields as typed, the form's own checks (shown once a submit was
 * tried), and one Idempotency-Key while the form is open, kept across failures and double
 * clicks, renewed only after a success.
 */
export function useRecordDraft<F, P>(original: F, problemsOf: (form: F) => Partial<Record<keyof F, P>>) {
  const [form, setForm] = useState<F>(original);
  const [checked, setChecked] = useState(false);
  const [key, setKey] = useState(idempotencyKey);
  const problems: Partial<Record<keyof F, P>> = checked ? problemsOf(form) : {};
  return {
    form,
    key,
    renewKey: () => setKey(idempotencyKey()),
    problems,
    set:
      <K extends keyof F>(field: K) =>
      (value: F[K]) =>
        setForm((current) => ({ ...current, [field]: value })),
    /** The form's submit: its checks first; `send` only when they find nothing. */
    submit: (send: () => void) => (event: FormEvent) => {
      event.preventDefault();
      setChecked(true);
      if (Object.keys(problemsOf(form)).length > 0) return;
      send();
    },
  };
}

/** The form of a record dialog: the request's failure first, the fields, then Cancel and Save (disabled while saving). */
export function RecordForm({
  onSubmit,
  error,
  saving,
  onCancel,
  children,
}: {
  onSubmit: (event: FormEvent) => void;
  error: unknown;
  saving: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  const c = useMessages(common);
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {error ? <ProblemAlert error={error} /> : null}
      {children}
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {c.cancel}
        </button>
        <button type="submit" className="button primary" disabled={saving}>
          {c.save}
        </button>
      </div>
    </form>
  );
}
