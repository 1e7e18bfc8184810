import type { ReactNode } from 'react';

/**
 * A table's frame, which scrolls sideways when the table is wider than the screen (a phone):
 * a named region that takes the keyboard's focus, so that it scrolls with the arrow keys too
 * (axe's scrollable-region-focusable, WCAG 2.1.1).
 */
export function TableWrap({ label, busy, children }: { label: string; busy?: boolean; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0} aria-busy={busy}>
      {children}
    </div>
  );
}
