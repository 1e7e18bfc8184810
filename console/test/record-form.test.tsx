// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TextField } from '../src/components/Field';
import { RecordForm, RecordFormDialog, useRecordDraft } from '../src/components/RecordFormDialog';
import { I18nProvider } from '../src/i18n';

afterEach(cleanup);

interface NameForm {
  name: string;
}
const required = (form: NameForm) => (form.name.trim() ? {} : { name: 'required' as const });

/** A record form with one required field; `send` gets the form and the Idempotency-Key it would go with. */
function NameFormBody({ send, onCancel }: { send: (form: NameForm, key: string) => void; onCancel: () => void }) {
  const draft = useRecordDraft<NameForm, 'required'>({ name: '' }, required);
  return (
    <RecordForm onSubmit={draft.submit(() => send(draft.form, draft.key['Idempotency-Key']))} error={undefined} saving={false} onCancel={onCancel}>
      <TextField label="Name" value={draft.form.name} onValueChange={draft.set('name')} error={draft.problems.name ? 'Fill in this field.' : undefined} />
    </RecordForm>
  );
}

describe('the record form dialog', () => {
  it('checks the form only once a save was tried, and sends it only when the checks find nothing', () => {
    const send = vi.fn();
    render(
      <I18nProvider locale="en">
        <RecordFormDialog open record={undefined} titles={{ create: 'New thing', edit: 'Edit thing' }} onOpenChange={() => undefined}>
          {(onCancel) => <NameFormBody send={send} onCancel={onCancel} />}
        </RecordFormDialog>
      </I18nProvider>,
    );
    expect(screen.getByRole('dialog', { name: 'New thing' })).toBeTruthy();
    expect(screen.queryByText('Fill in this field.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Fill in this field.')).toBeTruthy();
    expect(send).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(send).toHaveBeenCalledTimes(2);
    const calls = send.mock.calls as [NameForm, string][];
    expect(calls[0]?.[0]).toEqual({ name: 'Acme' });
    // The same open form keeps its key: a second click is the same create, not another.
    expect(calls[1]?.[1]).toBe(calls[0]?.[1]);
  });

  it('is titled for editing when given a record, and Cancel closes it', () => {
    const onOpenChange = vi.fn();
    render(
      <I18nProvider locale="en">
        <RecordFormDialog open record={{ id: 'a' }} titles={{ create: 'New thing', edit: 'Edit thing' }} onOpenChange={onOpenChange}>
          {(onCancel) => <NameFormBody send={vi.fn()} onCancel={onCancel} />}
        </RecordFormDialog>
      </I18nProvider>,
    );
    expect(screen.getByRole('dialog', { name: 'Edit thing' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
