import type { ReactNode } from 'react';
import { Pager } from './Pager';
import { ProblemAlert } from './ProblemAlert';
import { EmptyState, SkeletonRows } from './States';
import type { useCursorStack } from './useCursorStack';

/**
 * An administration section that lists things and makes new ones: its heading, what it is for,
 * the "new" button, and a status line for what was just done (announced by screen readers).
 */
export function ListSection({
  id,
  title,
  intro,
  newLabel,
  onNew,
  notice,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  newLabel: string;
  onNew: () => void;
  notice: string;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="muted">{intro}</p>
      <div className="toolbar">
        <button type="button" className="button primary" onClick={onNew}>
          {newLabel}
        </button>
      </div>
      <p role="status" className="muted">
        {notice}
      </p>
      {children}
    </section>
  );
}

interface ListQuery<T> {
  isPending: boolean;
  error: unknown;
  data: { items: T[]; nextCursor: string | undefined } | undefined;
  refetch: () => unknown;
}

/** A cursor list's states: loading, the failure (with a retry), empty (what to do), the items, and its pager. */
export function ListStates<T>({
  query,
  columns,
  empty,
  pager,
  paging,
  children,
}: {
  query: ListQuery<T>;
  columns: number;
  empty: { title: string; hint: string };
  pager: string;
  paging: ReturnType<typeof useCursorStack>;
  children: (items: T[]) => ReactNode;
}) {
  const nextCursor = query.data?.nextCursor;
  return (
    <>
      {query.isPending ? <SkeletonRows rows={2} columns={columns} /> : null}
      {query.error ? <ProblemAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data && query.data.items.length === 0 ? <EmptyState title={empty.title} hint={empty.hint} /> : null}
      {query.data && query.data.items.length > 0 ? children(query.data.items) : null}
      <Pager
        label={pager}
        page={paging.page}
        hasNext={Boolean(nextCursor)}
        onPage={(page) => {
          if (page < paging.page) paging.previous();
          else if (nextCursor) paging.next(nextCursor);
        }}
      />
    </>
  );
}
