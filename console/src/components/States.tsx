import type { ReactNode } from 'react';
import { common } from '../i18n/common';
import { useMessages } from '../i18n';

/** Grey bars where a table's rows will be, announced once as loading. */
export function SkeletonRows({ rows = 5, columns = 4 }: { rows?: number; columns?: number }) {
  const t = useMessages(common);
  return (
    <div className="skeleton" role="status" aria-label={t.loading}>
      {Array.from({ length: rows }, (_, row) => (
        <div className="skeleton-row" key={row} aria-hidden="true">
          {Array.from({ length: columns }, (__, column) => (
            <span className="skeleton-cell" key={column} />
          ))}
        </div>
      ))}
    </div>
  );
}

/** What an empty list means and what to do about it. */
export function EmptyState({ title, hint, action }: { title: string; hint: string; action?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      <p className="muted">{hint}</p>
      {action}
    </div>
  );
}
