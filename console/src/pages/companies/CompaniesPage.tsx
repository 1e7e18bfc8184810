import { useEffect, useState } from 'react';
import { useCompanies } from '../../api/companies';
import { cursorAt, Pager } from '../../components/Pager';
import { RecordListPage } from '../../components/RecordListPage';
import { EmptyState } from '../../components/States';
import { useRecordEditor } from '../../components/useRecordEditor';
import { useMessages } from '../../i18n';
import { CompanyFormDialog } from './CompanyFormDialog';
import { CompanyTable } from './CompanyTable';
import type { Company } from './form';
import { companyMessages } from './messages';
import { StatusDialog } from './StatusDialog';
import './companies.css';

/**
 * The tenant's companies, oldest first, a page at a time (the API's Link-header cursors, kept
 * so "previous" goes back); created and edited in a dialog; their status changed by
 * administrators through the transitions the API allows.
 */
export default function CompaniesPage() {
  const t = useMessages(companyMessages);
  const [page, setPage] = useState(1);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const editor = useRecordEditor<Company>();
  const [statusOf, setStatusOf] = useState<Company | undefined>();
  const cursor = cursorAt(cursors, page);

  const list = useCompanies({ page, cursor });
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

  const changeStatus = (company: Company) => {
    editor.clearNotice();
    setStatusOf(company);
  };
  // The hint points at the page's own New company button: one control of that name on the page.
  const empty = data && data.items.length === 0 && page === 1 ? <EmptyState title={t.emptyTitle} hint={t.emptyHint} /> : undefined;

  return (
    <RecordListPage
      title={t.title}
      newLabel={t.newCompany}
      onNew={() => editor.edit(undefined)}
      notice={editor.notice}
      query={list}
      skeleton={{ rows: 5, columns: 6 }}
      empty={empty}
      dialogs={
        <>
          <CompanyFormDialog
            open={editor.dialog.open}
            company={editor.dialog.record}
            onOpenChange={editor.dialog.onOpenChange}
            onSaved={(company, created) => editor.saved(created ? t.created(company.name) : t.updated(company.name))}
          />
          <StatusDialog
            company={statusOf}
            onOpenChange={(open) => {
              if (!open) setStatusOf(undefined);
            }}
            onChanged={(company) => {
              setStatusOf(undefined);
              editor.say(t.statusChanged(company.name, t.statusName(company.status)));
            }}
          />
        </>
      }
    >
      {data ? (
        <>
          <CompanyTable companies={data.items} busy={list.isFetching} onEdit={editor.edit} onStatus={changeStatus} />
          {page > 1 || data.nextCursor ? (
            <Pager label={t.pager} page={page} hasNext={Boolean(data.nextCursor) && !list.isPlaceholderData} onPage={setPage} />
          ) : null}
        </>
      ) : null}
    </RecordListPage>
  );
}
