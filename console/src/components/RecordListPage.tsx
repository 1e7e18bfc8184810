import type { ReactNode } from 'react';
import { Page } from './Page';
import { ProblemAlert } from './ProblemAlert';
import { SkeletonRows } from './States';

/** The list's query, as the layout reads it. */
interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A page of records (companies, suppliers): the heading with the page's actions and its "new"
 * button last, a toolbar (a search), the status line of what was just done, the list's failure
 * with a retry, grey rows while the first page loads, then the empty state or the table and
 * its pager; the dialogs after.
 */
export function RecordListPage({
  title,
  actions,
  newLabel,
  onNew,
  toolbar,
  notice,
  query,
  skeleton,
  empty,
  children,
  dialogs,
}: {
  title: string;
  /** Actions before the "new" button (an import link). */
  actions?: ReactNode;
  newLabel: string;
  onNew: () => void;
  toolbar?: ReactNode;
  notice: string | undefined;
  query: ListQuery;
  skeleton: { rows: number; columns: number };
  /** The empty state, when the list has nothing to show; undefined otherwise. */
  empty: ReactNode;
  /** The table and its pager, once a page has been read. */
  children: ReactNode;
  dialogs: ReactNode;
}) {
  return (
    <Page
      title={title}
      actions={
        <>
          {actions}
          <button type="button" className="button primary" onClick={onNew}>
            {newLabel}
          </button>
        </>
      }
    >
      {toolbar}
      {notice ? (
        <p className="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
      {query.isError ? <ProblemAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.isPending ? <SkeletonRows rows={skeleton.rows} columns={skeleton.columns} /> : (empty ?? children)}
      {dialogs}
    </Page>
  );
}
