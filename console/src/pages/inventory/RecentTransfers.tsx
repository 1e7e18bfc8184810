import type { Warehouse } from '../../api/inventory';
import { useRecentTransfers } from '../../api/transfers';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { TableWrap } from '../../components/TableWrap';
import { useCursorStack } from '../../components/useCursorStack';
import { formatDateTime } from '../../format/date';
import { formatDecimal, formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { inventoryMessages } from './messages';

/** The product's transfers (GET /inventory/transfers?productId=…), newest first, a few a page. */
export function RecentTransfers({ productId, warehouses }: { productId: string; warehouses: readonly Warehouse[] }) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const paging = useCursorStack();
  const list = useRecentTransfers(productId, paging.cursor);
  const names = new Map(warehouses.map((warehouse) => [warehouse.id, warehouse.name]));
  const name = (id: string) => names.get(id) ?? id;
  const onPage = (next: number) => {
    const nextCursor = list.data?.nextCursor;
    if (next > paging.page && nextCursor) paging.next(nextCursor);
    else if (next < paging.page) paging.previous();
  };
  return (
    <section className="card" aria-labelledby="transfers-title">
      <h2 id="transfers-title">{t.recentTransfers}</h2>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={3} columns={5} />
      ) : list.data && list.data.items.length === 0 && paging.page === 1 ? (
        <EmptyState title={t.noTransfers} hint={t.noTransfersHint} />
      ) : list.data ? (
        <>
          <TableWrap label={t.recentTransfersCaption} busy={list.isFetching}>
            <table>
              <caption className="visually-hidden">{t.recentTransfersCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.transferDate}</th>
                  <th scope="col">{t.transferFrom}</th>
                  <th scope="col">{t.transferTo}</th>
                  <th scope="col" className="number">
                    {t.quantity}
                  </th>
                  <th scope="col" className="number">
                    {t.stockValue}
                  </th>
                  <th scope="col" className="transfer-note">
                    {t.note}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((transfer) => (
                  <tr key={transfer.id}>
                    <td>{formatDateTime(transfer.occurredAt, locale)}</td>
                    <td>{name(transfer.fromWarehouseId)}</td>
                    <td>{name(transfer.toWarehouseId)}</td>
                    <td className="number">{formatDecimal(transfer.quantity, locale)}</td>
                    <td className="number">{formatMoney(transfer.value, locale)}</td>
                    <td className="transfer-note">{transfer.note ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager page={paging.page} hasNext={Boolean(list.data.nextCursor)} onPage={onPage} label={t.transfersPager} />
        </>
      ) : null}
    </section>
  );
}
