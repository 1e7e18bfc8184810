import { useEffect, type ReactNode } from 'react';

/** A page's heading and its actions; sets the document title so each page is named in history and by screen readers. */
export function Page({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Back-office`;
  }, [title]);
  return (
    <section className="page">
      <header className="page-header">
        <h1>{title}</h1>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}
