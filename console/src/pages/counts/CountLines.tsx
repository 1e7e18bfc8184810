import { useState } from 'react';
import { Link } from 'wouter';
import { useCountLines, type Count, type CountLine } from '../../api/counts';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { TableWrap } from '../../components/TableWrap';
import { useCursorStack } from '../../components/useCursorStack';
import { formatDecimal, formatMoney } from '../../format/decimal';
import { common } from '../../i18n/common';
import { useLocale, useMessages } from '../../i18n';
import { signedQuantity } from './count';
import { CountTotals } from './CountTotals';
import { countMessages } from './messages';
import { QuantityDialog } from './QuantityDialog';

/**
 * A count's totals and its lines, the largest value of a difference first (`order=difference`),
 * 50 a page: each product (a link to its page) with what was counted, the system's quantity
 * when it was, the difference and its value. In the review each line's quantity can be typed
 * again ("Edit"); in the result each shows the adjustment the close applied.
 */
export function CountLines({ count, mode }: { count: Count; mode: 'review' | 'result' }) {
  const t = useMessages(countMessages);
  const c = useMessages(common);
  const { locale } = useLocale();
  const paging = useCursorStack();
  const page = useCountLines(count.id, 'difference', paging.cursor);
  const [editing, setEditing] = useState<CountLine | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const caption = mode === 'review' ? t.linesCaption : t.resultCaption;
  const nextCursor = page.data?.nextCursor;
  return (
    <section className="card count-card" aria-labelledby="count-lines-title">
      <h2 id="count-lines-title">{t.linesTitle}</h2>
      <CountTotals totals={page.data?.totals ?? count.totals} />
      <p role="status" className={notice ? 'alert alert-ok' : 'visually-hidden'}>
        {notice ?? ''}
      </p>
      {page.isError ? <ProblemAlert error={page.error} onRetry={() => void page.refetch()} /> : null}
      {page.isPending ? (
        <SkeletonRows rows={3} columns={5} />
      ) : page.data && page.data.lines.length === 0 && paging.page === 1 ? (
        <EmptyState title={t.noLines} hint={t.noLinesHint} />
      ) : page.data ? (
        <>
          <TableWrap label={caption} busy={page.isFetching}>
            <table className="count-lines">
              <caption className="visually-hidden">{caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.product}</th>
                  <th scope="col" className="number">
                    {t.counted}
                  </th>
                  <th scope="col" className="number">
                    {t.systemAtCount}
                  </th>
                  <th scope="col" className="number">
                    {t.difference}
                  </th>
                  <th scope="col" className="number">
                    {t.differenceValue}
                  </th>
                  {mode === 'review' ? (
                    <th scope="col">{c.actions}</th>
                  ) : (
                    <th scope="col" className="number">
                      {t.appliedDifference}
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {page.data.lines.map((line) => (
                  <tr key={line.productId}>
                    <td className="count-product">
                      <Link href={`/inventory/products/${line.productId}`}>{line.name}</Link>
                      <span className="count-sku">
                        {line.sku}
                        {line.zeroed ? ` · ${t.zeroed}` : ''}
                      </span>
                    </td>
                    <td className="number">{formatDecimal(line.counted, locale)}</td>
                    <td className="number">{formatDecimal(line.systemAtCount, locale)}</td>
                    <td className="number">{signedQuantity(line.difference, locale)}</td>
                    <td className="number">{formatMoney(line.differenceValue, locale)}</td>
                    {mode === 'review' ? (
                      <td>
                        <button
                          type="button"
                          className="button secondary"
                          aria-label={t.editLine(line.name)}
                          onClick={() => {
                            setNotice(undefined);
                            setEditing(line);
                          }}
                        >
                          {t.edit}
                        </button>
                      </td>
                    ) : (
                      <td className="number">{line.appliedDifference === null ? t.notApplied : signedQuantity(line.appliedDifference, locale)}</td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          {paging.page > 1 || nextCursor ? (
            <Pager
              label={t.linesPager}
              page={paging.page}
              hasNext={Boolean(nextCursor)}
              onPage={(next) => {
                if (next < paging.page) paging.previous();
                else if (nextCursor) paging.next(nextCursor);
              }}
            />
          ) : null}
        </>
      ) : null}
      {editing ? (
        <QuantityDialog
          countId={count.id}
          product={editing}
          initial={editing.counted}
          onSaved={(line) => setNotice(t.quantitySaved(line.name, `${formatDecimal(line.counted, locale)} ${line.unit}`))}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </section>
  );
}
