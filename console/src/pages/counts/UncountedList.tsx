import { useState } from 'react';
import { useUncounted, type UncountedProduct } from '../../api/counts';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { TableWrap } from '../../components/TableWrap';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { countMessages } from './messages';
import { QuantityDialog } from './QuantityDialog';

/**
 * The products of the count nobody counted yet, with their stock in the warehouse now, and how
 * many are shown; "Show more" reads the next page (a page may be short, even empty, while there
 * are more). Each can be counted here by typing its quantity.
 */
export function UncountedList({ countId }: { countId: string }) {
  const t = useMessages(countMessages);
  const { locale } = useLocale();
  const list = useUncounted(countId);
  const [counting, setCounting] = useState<UncountedProduct | undefined>();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <section className="card count-card" aria-labelledby="uncounted-title">
      <h2 id="uncounted-title">{t.uncountedTitle}</h2>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={2} columns={3} />
      ) : list.data ? (
        <>
          <p className="muted">{t.uncountedShown(items.length, list.hasNextPage)}</p>
          {items.length > 0 ? (
            <TableWrap label={t.uncountedCaption} busy={list.isFetching}>
              <table>
                <caption className="visually-hidden">{t.uncountedCaption}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.product}</th>
                    <th scope="col" className="number">
                      {t.inStock}
                    </th>
                    <th scope="col">
                      <span className="visually-hidden">{t.countIt}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((product) => (
                    <tr key={product.productId}>
                      <td className="count-product">
                        {product.name}
                        <span className="count-sku">{product.sku}</span>
                      </td>
                      <td className="number">
                        {formatDecimal(product.quantity, locale)} {product.unit}
                      </td>
                      <td>
                        <button type="button" className="button secondary" aria-label={t.countItName(product.name)} onClick={() => setCounting(product)}>
                          {t.countIt}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          ) : null}
          {list.hasNextPage ? (
            <button type="button" className="button secondary count-more" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {t.showMore}
            </button>
          ) : null}
        </>
      ) : null}
      {counting ? <QuantityDialog countId={countId} product={counting} onClose={() => setCounting(undefined)} /> : null}
    </section>
  );
}
