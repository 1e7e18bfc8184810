import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, linkPage } from '../../api/client';
import { Page } from '../../components/Page';
import { cursorAt, Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { useMessages } from '../../i18n';
import { CompanyFormDialog } from './CompanyFormDialog';
import { CompanyTable } from './CompanyTable';
import type { Company } from './form';
import { companyMessages } from './messages';
import { StatusDialog } from './StatusDialog';
import './companies.css';

const PAGE_SIZE = 20;

/**
 * The tenant's companies, oldest first, a page at a time (the API's Link-header cursors, kept
 * so "previous" goes back); created and edited in a dialog; their status changed by
 * administrators through the transitions the API allows.
 */
export default function CompaniesPage() {
  const t = useMessages(companyMessages);
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [editing, setEditing] = useState<{ company: Company | undefined } | undefined>();
  const [statusOf, setStatusOf] = useState<Company | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const cursor = cursorAt(cursors, page);

  const list = useQuery({
    queryKey: ['companies', 'list', { page, cursor }],
    queryFn: ({ signal }) => linkPage(api.GET('/companies', { params: { query: { limit: PAGE_SIZE, cursor } }, signal })),
    placeholderData: keepPreviousData,
  });
  const data = list.data;

  // Keep the cursor of the page after this one, for "next".
  useEffect(() => {
    if (!data || list.isPlaceholderData) return;
    setCursors((known) => {
      if (known[page] === data.nextCursor) return known;
      const next = known.slice(0, page);
      next[page] = data.nextCursor;
      return next;
    });
  }, [data, list.isPlaceholderData, page]);

  const saved = (message: string) => {
    setNotice(message);
    void queryClient.invalidateQueries({ queryKey: ['companies'] });
  };
  const openCreate = () => {
    setNotice(undefined);
    setEditing({ company: undefined });
  };

  return (
    <Page
      title={t.title}
      actions={
        <button type="button" className="button primary" onClick={openCreate}>
          {t.newCompany}
        </button>
      }
    >
      {notice ? (
        <p className="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={5} columns={6} />
      ) : data && data.items.length === 0 && page === 1 ? (
        // The hint points at the page's own New company button: one control of that name on the page.
        <EmptyState title={t.emptyTitle} hint={t.emptyHint} />
      ) : data ? (
        <>
          <CompanyTable
            companies={data.items}
            busy={list.isFetching}
            onEdit={(company) => {
              setNotice(undefined);
              setEditing({ company });
            }}
            onStatus={(company) => {
              setNotice(undefined);
              setStatusOf(company);
            }}
          />
          {page > 1 || data.nextCursor ? (
            <Pager label={t.pager} page={page} hasNext={Boolean(data.nextCursor) && !list.isPlaceholderData} onPage={setPage} />
          ) : null}
        </>
      ) : null}

      <CompanyFormDialog
        open={editing !== undefined}
        company={editing?.company}
        onOpenChange={(open) => {
          if (!open) setEditing(undefined);
        }}
        onSaved={(company, created) => {
          setEditing(undefined);
          saved(created ? t.created(company.name) : t.updated(company.name));
        }}
      />
      <StatusDialog
        company={statusOf}
        onOpenChange={(open) => {
          if (!open) setStatusOf(undefined);
        }}
        onChanged={(company) => {
          setStatusOf(undefined);
          saved(t.statusChanged(company.name, t.statusName(company.status)));
        }}
      />
    </Page>
  );
}
