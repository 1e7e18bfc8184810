import { useState } from 'react';
import { useReloadCategory, useSaveCategory, type Category } from '../../api/categories';
import { fieldErrors, isProblem } from '../../api/problems';
import { TextField } from '../../components/Field';
import { RecordForm, RecordFormDialog, useRecordDraft } from '../../components/RecordFormDialog';
import { useMessages } from '../../i18n';
import { categoryMessages } from './messages';

/** The category's longest name (the API's limit). */
export const MAX_NAME = 120;

interface CategoryForm {
  name: string;
}

const problemsOf = (form: CategoryForm): Partial<Record<keyof CategoryForm, 'required'>> => (form.name.trim() === '' ? { name: 'required' } : {});

/**
 * Creating (no `category`) or renaming a category in a dialog; the form is mounted afresh each
 * time the dialog opens, so each opening has its own Idempotency-Key and starts from the
 * category as listed.
 */
export function CategoryFormDialog({
  open,
  category,
  onOpenChange,
  onSaved,
  onUnchanged,
}: {
  open: boolean;
  category: Category | undefined;
  onOpenChange: (open: boolean) => void;
  onSaved: (saved: Category, created: boolean) => void;
  /** A rename to the same name: nothing is sent. */
  onUnchanged: () => void;
}) {
  const t = useMessages(categoryMessages);
  return (
    <RecordFormDialog open={open} record={category} titles={{ create: t.createTitle, edit: t.editTitle }} onOpenChange={onOpenChange}>
      {(onCancel) => <CategoryFormBody category={category} onCancel={onCancel} onSaved={onSaved} onUnchanged={onUnchanged} />}
    </RecordFormDialog>
  );
}

/** Said when the category changed since the dialog opened (412): reloading starts the form again from the category as it is now. */
function StaleAlert({ onReload, reloading }: { onReload: () => void; reloading: boolean }) {
  const t = useMessages(categoryMessages);
  return (
    <div className="alert alert-error" role="alert">
      <p>{t.stale}</p>
      <p className="muted">{t.staleHint}</p>
      <button type="button" className="button secondary" onClick={onReload} disabled={reloading}>
        {t.reload}
      </button>
    </div>
  );
}

/**
 * The name, sent as a create or as a rename with `If-Match` the version the dialog loaded. A
 * name another category has (409) is said above, in the API's words, and beside the field, in
 * the reader's; someone else's rename since (412), above it with a reload.
 */
function CategoryFormBody({
  category,
  onCancel,
  onSaved,
  onUnchanged,
}: {
  category: Category | undefined;
  onCancel: () => void;
  onSaved: (saved: Category, created: boolean) => void;
  onUnchanged: () => void;
}) {
  const t = useMessages(categoryMessages);
  // The category as the form loaded it: its version is the If-Match, until a reload.
  const [loaded, setLoaded] = useState(category);
  const draft = useRecordDraft<CategoryForm, 'required'>({ name: category?.name ?? '' }, problemsOf);
  const { form, set, problems } = draft;
  const [reloading, setReloading] = useState(false);
  const reloadCategory = useReloadCategory();
  const save = useSaveCategory({
    onSuccess: (saved) => {
      draft.renewKey();
      onSaved(saved, !category);
    },
  });

  const onSubmit = draft.submit(() => {
    if (save.isPending) return;
    const name = form.name.trim();
    if (loaded && name === loaded.name) onUnchanged();
    else save.mutate(loaded ? { category: loaded, name } : { category: undefined, key: draft.key, name });
  });

  const onReload = () => {
    if (!loaded) return;
    setReloading(true);
    void reloadCategory(loaded.id)
      .then((fresh) => {
        setLoaded(fresh);
        set('name')(fresh.name);
        save.reset();
      })
      .finally(() => setReloading(false));
  };

  const stale = isProblem(save.error, 412);
  const taken = isProblem(save.error, 409);
  const nameError = fieldErrors(save.error).name ?? (taken ? t.nameTaken : undefined) ?? (problems.name ? t.required : undefined);
  return (
    <RecordForm onSubmit={onSubmit} error={stale ? undefined : save.error} saving={save.isPending || reloading} onCancel={onCancel}>
      {stale ? <StaleAlert onReload={onReload} reloading={reloading} /> : null}
      <TextField
        label={t.name}
        value={form.name}
        onValueChange={(name) => {
          if (taken) save.reset();
          set('name')(name);
        }}
        error={nameError}
        hint={t.nameHint}
        required
        autoComplete="off"
        maxLength={MAX_NAME}
      />
    </RecordForm>
  );
}
