import { common } from '../i18n/common';
import { useMessages } from '../i18n';

/**
 * Previous / next over a list, for both kinds of paging the API has: numbered pages
 * (`pages` known) and cursors (`hasNext` only).
 */
export function Pager({
  page,
  pages,
  hasNext,
  onPage,
  label,
}: {
  page: number;
  pages?: number;
  hasNext: boolean;
  onPage: (page: number) => void;
  label: string;
}) {
  const t = useMessages(common);
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t.previousPage}
      </button>
      <span aria-live="polite">{pages !== undefined ? t.pageOf(page, Math.max(pages, 1)) : t.page(page)}</span>
      <button type="button" className="button secondary" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        {t.nextPage}
      </button>
    </nav>
  );
}

/**
 * The cursors of the pages seen so far, so that "previous" on a cursor list goes back
 * without the API having to page backwards: page n is read with cursors[n - 1].
 */
export function cursorAt(cursors: readonly (string | undefined)[], page: number): string | undefined {
  return page <= 1 ? undefined : cursors[page - 1];
}
