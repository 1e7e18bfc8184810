import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useDeleteSupplier, useSuppliers } from '../../api/suppliers';
import { TextField } from '../../components/Field';
import { Pager } from '../../components/Pager';
import { RecordListPage } from '../../components/RecordListPage';
import { EmptyState } from '../../components/States';
import { useDebounced } from '../../components/useDebounced';
import { useRecordEditor } from '../../components/useRecordEditor';
import { useMessages } from '../../i18n';
import { DeleteSupplierDialog } from './DeleteSupplierDialog';
import type { Supplier } from './form';
import { supplierMessages } from './messages';
import { SupplierFormDialog } from './SupplierFormDialog';
import { SupplierTable } from './SupplierTable';
import './suppliers.css';

const SEARCH_DELAY_MS = 300;

/**
 * Suppliers: searched as one types (the search sent once the typing pauses; a stale request
 * is cancelled through the query's signal), a numbered page at a time, created and edited in
 * a dialog, deleted after a question.
 */
export default function SuppliersPage() {
  const t = useMessages(supplierMessages);
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), SEARCH_DELAY_MS);
  // The page belongs to the search it was chosen in: a new search starts at page 1.
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === search ? paging.page : 1;
  const editor = useRecordEditor<Supplier>();
  const [deleting, setDeleting] = useState<Supplier | undefined>();

  const list = useSuppliers({ search, page });
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  // A page emptied by a delete (or past the end): go back to the last page that has rows.
  useEffect(() => {
    if (data && !list.isPlaceholderData && data.data.length === 0 && data.total > 0 && page > 1) setPaging({ search, page: pages });
  }, [data, list.isPlaceholderData, page, pages, search]);

  const remove = useDeleteSupplier({
    onSuccess: (_, supplier) => {
      setDeleting(undefined);
      editor.say(t.deleted(supplier.name));
    },
  });

  const clearSearch = () => setTyped('');

  return (
    <RecordListPage
      title={t.title}
      actions={
        <Link href="/imports?kind=suppliers" className="button secondary">
          {t.importSpreadsheet}
        </Link>
      }
      newLabel={t.newSupplier}
      onNew={() => editor.edit(undefined)}
      toolbar={<SupplierSearch typed={typed} onTyped={setTyped} total={data?.total} />}
      notice={editor.notice}
      query={list}
      skeleton={{ rows: 6, columns: 6 }}
      empty={data && data.total === 0 ? <NoSuppliers search={search} onClear={clearSearch} /> : undefined}
      dialogs={
        <>
          <SupplierFormDialog
            open={editor.dialog.open}
            supplier={editor.dialog.record}
            onOpenChange={editor.dialog.onOpenChange}
            onSaved={(saved, created) => editor.saved(created ? t.created(saved.name) : t.updated(saved.name))}
          />
          <DeleteSupplierDialog
            supplier={deleting}
            error={remove.error}
            busy={remove.isPending}
            onConfirm={(supplier) => remove.mutate(supplier)}
            onClose={() => setDeleting(undefined)}
          />
        </>
      }
    >
      {data ? (
        <>
          <SupplierTable
            suppliers={data.data}
            caption={search ? t.tableCaptionSearch(search, data.total) : t.tableCaption}
            busy={list.isFetching}
            onEdit={editor.edit}
            onDelete={(supplier) => {
              remove.reset();
              setDeleting(supplier);
            }}
          />
          <Pager label={t.pager} page={page} pages={pages} hasNext={page < pages} onPage={(next) => setPaging({ search, page: next })} />
        </>
      ) : null}
    </RecordListPage>
  );
}

/** The search as typed, and how many suppliers it found once known. */
function SupplierSearch({ typed, onTyped, total }: { typed: string; onTyped: (typed: string) => void; total: number | undefined }) {
  const t = useMessages(supplierMessages);
  return (
    <div className="toolbar">
      <div className="supplier-search">
        <TextField
          label={t.search}
          type="search"
          value={typed}
          onValueChange={onTyped}
          hint={t.searchHint}
          autoComplete="off"
          spellCheck={false}
          maxLength={100}
        />
      </div>
      {total !== undefined ? (
        <p className="muted" aria-live="polite">
          {t.total(total)}
        </p>
      ) : null}
    </div>
  );
}

/** No supplier at all (add the first one), or none for the search (clear it). */
function NoSuppliers({ search, onClear }: { search: string; onClear: () => void }) {
  const t = useMessages(supplierMessages);
  if (!search) {
    // The hint points at the page's own New supplier button: one control of that name on the page.
    return <EmptyState title={t.emptyTitle} hint={t.emptyHint} />;
  }
  return (
    <EmptyState
      title={t.noMatchTitle(search)}
      hint={t.noMatchHint}
      action={
        <button type="button" className="button secondary" onClick={onClear}>
          {t.clearSearch}
        </button>
      }
    />
  );
}
