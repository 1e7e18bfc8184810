import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { ConfirmDialog } from '../../components/Dialogs';
import { TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { useMessages } from '../../i18n';
import type { Supplier } from './form';
import { supplierMessages } from './messages';
import { SupplierFormDialog } from './SupplierFormDialog';
import { SupplierTable } from './SupplierTable';
import { useDebounced } from '../../components/useDebounced';
import './suppliers.css';

export const SUPPLIERS_PAGE_SIZE = 10;
const SEARCH_DELAY_MS = 300;

/** The query key of one page of one search: a new search or page is a new query, the old one cancelled. */
export const suppliersKey = (search: string, page: number) => ['suppliers', 'list', { search, page }] as const;

/**
 * Suppliers: searched as one types (the search sent once the typing pauses; a stale request
 * is cancelled through the query's signal), a numbered page at a time, created and edited in
 * a dialog, deleted after a question.
 */
export default function SuppliersPage() {
  const t = useMessages(supplierMessages);
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const search = useDebounced(typed.trim(), SEARCH_DELAY_MS);
  // The page belongs to the search it was chosen in: a new search starts at page 1.
  const [paging, setPaging] = useState({ search: '', page: 1 });
  const page = paging.search === search ? paging.page : 1;
  const [editing, setEditing] = useState<{ supplier: Supplier | undefined } | undefined>();
  const [deleting, setDeleting] = useState<Supplier | undefined>();
  const [notice, setNotice] = useState<string | undefined>();

  const list = useQuery({
    queryKey: suppliersKey(search, page),
    queryFn: ({ signal }) => unwrap(api.GET('/suppliers', { params: { query: { search: search || undefined, page, limit: SUPPLIERS_PAGE_SIZE } }, signal })),
    placeholderData: keepPreviousData,
  });
  const data = list.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1;

  // A page emptied by a delete (or past the end): go back to the last page that has rows.
  useEffect(() => {
    if (data && !list.isPlaceholderData && data.data.length === 0 && data.total > 0 && page > 1) setPaging({ search, page: pages });
  }, [data, list.isPlaceholderData, page, pages, search]);

  const remove = useMutation({
    mutationFn: (supplier: Supplier) => unwrap(api.DELETE('/suppliers/{id}', { params: { path: { id: supplier.id } } })),
    onSuccess: async (_, supplier) => {
      setDeleting(undefined);
      setNotice(t.deleted(supplier.name));
      await queryClient.invalidateQueries({ queryKey: ['suppliers'] });
    },
  });

  const openCreate = () => {
    setNotice(undefined);
    setEditing({ supplier: undefined });
  };
  const clearSearch = () => setTyped('');

  return (
    <Page
      title={t.title}
      actions={
        <>
          <Link href="/imports?kind=suppliers" className="button secondary">
            {t.importSpreadsheet}
          </Link>
          <button type="button" className="button primary" onClick={openCreate}>
            {t.newSupplier}
          </button>
        </>
      }
    >
      <div className="toolbar">
        <div className="supplier-search">
          <TextField
            label={t.search}
            type="search"
            value={typed}
            onValueChange={setTyped}
            hint={t.searchHint}
            autoComplete="off"
            spellCheck={false}
            maxLength={100}
          />
        </div>
        {data ? (
          <p className="muted" aria-live="polite">
            {t.total(data.total)}
          </p>
        ) : null}
      </div>
      {notice ? (
        <p className="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={6} columns={6} />
      ) : data && data.total === 0 ? (
        search ? (
          <EmptyState
            title={t.noMatchTitle(search)}
            hint={t.noMatchHint}
            action={
              <button type="button" className="button secondary" onClick={clearSearch}>
                {t.clearSearch}
              </button>
            }
          />
        ) : (
          // The hint points at the page's own New supplier button: one control of that name on the page.
          <EmptyState title={t.emptyTitle} hint={t.emptyHint} />
        )
      ) : data ? (
        <>
          <SupplierTable
            suppliers={data.data}
            caption={search ? t.tableCaptionSearch(search, data.total) : t.tableCaption}
            busy={list.isFetching}
            onEdit={(supplier) => {
              setNotice(undefined);
              setEditing({ supplier });
            }}
            onDelete={(supplier) => {
              remove.reset();
              setDeleting(supplier);
            }}
          />
          <Pager label={t.pager} page={page} pages={pages} hasNext={page < pages} onPage={(next) => setPaging({ search, page: next })} />
        </>
      ) : null}

      <SupplierFormDialog
        open={editing !== undefined}
        supplier={editing?.supplier}
        onOpenChange={(open) => {
          if (!open) setEditing(undefined);
        }}
        onSaved={(saved, created) => {
          setEditing(undefined);
          setNotice(created ? t.created(saved.name) : t.updated(saved.name));
          void queryClient.invalidateQueries({ queryKey: ['suppliers'] });
        }}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => {
          if (!open) setDeleting(undefined);
        }}
        title={t.deleteTitle}
        description={deleting ? t.deleteDescription(deleting.name) : ''}
        confirmLabel={t.deleteConfirm}
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
        }}
      >
        {remove.error ? <ProblemAlert error={remove.error} /> : null}
      </ConfirmDialog>
    </Page>
  );
}
