import { useState } from 'react';
import { useStockHistory, type HistoryFilters, type Movement, type Warehouse } from '../../api/inventory';
import { SelectField, TextField } from '../../components/Field';
import { cursorAt, Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { TableWrap } from '../../components/TableWrap';
import { formatDateTime } from '../../format/date';
import { formatDecimal, formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { HISTORY_TYPES } from './movement';
import { inventoryMessages } from './messages';

const NO_FILTERS: HistoryFilters = { warehouseId: '', type: '', from: '', to: '' };

/** The product's stock history (kardex): newest first, filtered by warehouse, type and days, paged by `nextCursor`; each side of a transfer names the other warehouse. */
export function StockHistory({ productId, warehouses }: { productId: string; warehouses: readonly Warehouse[] }) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const [filters, setFilters] = useState<HistoryFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursorAt(cursors, page);
  const history = useStockHistory(productId, filters, cursor);
  const filter = (change: Partial<HistoryFilters>) => {
    // A cursor is sealed to its filters: new filters start again from the first page.
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
    setCursors([undefined]);
  };
  const onPage = (next: number) => {
    const nextCursor = history.data?.nextCursor;
    if (next > page && nextCursor) setCursors((current) => [...current.slice(0, page), nextCursor]);
    setPage(next);
  };
  const names = new Map(warehouses.map((warehouse) => [warehouse.id, warehouse.name]));
  // A side of a transfer names the other warehouse: "para Loja" on the way out, "de Central" on the way in.
  const counterpart = ({ type, counterpartWarehouseId }: Movement) => {
    if (!counterpartWarehouseId || (type !== 'TRANSFER_OUT' && type !== 'TRANSFER_IN')) return null;
    const other = names.get(counterpartWarehouseId) ?? counterpartWarehouseId;
    return <span className="history-counterpart"> {type === 'TRANSFER_OUT' ? t.counterpartTo(other) : t.counterpartFrom(other)}</span>;
  };
  const filtered = filters !== NO_FILTERS;
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">{t.history}</h2>
      <div className="toolbar" role="group" aria-label={t.filters}>
        <SelectField
          label={t.warehouse}
          value={filters.warehouseId}
          onValueChange={(warehouseId) => filter({ warehouseId })}
          options={[{ value: '', label: t.allWarehouses }, ...warehouses.map((warehouse) => ({ value: warehouse.id, label: warehouse.name }))]}
        />
        <SelectField
          label={t.type}
          value={filters.type}
          onValueChange={(type) => filter({ type: type as HistoryFilters['type'] })}
          options={[{ value: '', label: t.allTypes }, ...HISTORY_TYPES.map((value) => ({ value, label: t.typeNames(value) }))]}
        />
        <TextField label={t.fromDay} type="date" value={filters.from} onValueChange={(from) => filter({ from })} />
        <TextField label={t.toDay} type="date" value={filters.to} onValueChange={(to) => filter({ to })} />
      </div>
      {history.isError ? <ProblemAlert error={history.error} onRetry={() => void history.refetch()} /> : null}
      {history.isPending ? (
        <SkeletonRows rows={4} columns={6} />
      ) : history.data && history.data.items.length === 0 ? (
        filtered ? (
          <EmptyState title={t.noHistoryFiltered} hint={t.noHistoryFilteredHint} />
        ) : (
          <EmptyState title={t.noHistory} hint={t.noHistoryHint} />
        )
      ) : history.data ? (
        <>
          <TableWrap label={t.historyCaption}>
            <table>
              <caption className="visually-hidden">{t.historyCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.occurredAt}</th>
                  <th scope="col">{t.type}</th>
                  <th scope="col">{t.warehouse}</th>
                  <th scope="col" className="number">
                    {t.quantity}
                  </th>
                  <th scope="col" className="number">
                    {t.unitCost}
                  </th>
                  <th scope="col" className="number">
                    {t.balanceAfter}
                  </th>
                </tr>
              </thead>
              <tbody>
                {history.data.items.map((movement) => (
                  <tr key={movement.id} data-type={movement.type}>
                    <td>{formatDateTime(movement.occurredAt, locale)}</td>
                    <td>
                      {t.typeNames(movement.type)}
                      {counterpart(movement)}
                    </td>
                    <td>{names.get(movement.warehouseId) ?? movement.warehouseId}</td>
                    <td className="number">{formatDecimal(movement.quantity, locale)}</td>
                    <td className="number">{movement.unitCost === null ? '—' : formatMoney(movement.unitCost, locale)}</td>
                    <td className="number">{formatDecimal(movement.balance.quantity, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager page={page} hasNext={Boolean(history.data.nextCursor)} onPage={onPage} label={t.historyPager} />
        </>
      ) : null}
    </section>
  );
}
