import { useMemo } from 'react';
import { Link } from 'wouter';
import { useStockByWarehouse } from '../../api/dashboard';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDecimal, formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { BarChart } from './BarChart';
import { dashboardMessages } from './messages';

/** Stock by warehouse (GET /inventory/dashboard/by-warehouse): the value as a bar chart, and every total in a table, exact. */
export function WarehouseWidget() {
  const t = useMessages(dashboardMessages);
  const { locale } = useLocale();
  const summary = useStockByWarehouse();
  const rows = summary.data;
  const bars = useMemo(() => (rows ?? []).map((row) => ({ label: row.warehouseName, value: row.totalValue })), [rows]);
  return (
    <section className="card" aria-labelledby="by-warehouse-title">
      <h2 id="by-warehouse-title">{t.byWarehouse}</h2>
      {summary.isError ? <ProblemAlert error={summary.error} onRetry={() => void summary.refetch()} /> : null}
      {summary.isPending ? (
        <SkeletonRows rows={3} columns={4} />
      ) : rows && rows.length === 0 ? (
        <EmptyState title={t.noWarehouses} hint={t.noWarehousesHint} action={<Link href="/inventory">{t.goToInventory}</Link>} />
      ) : rows ? (
        <>
          <BarChart bars={bars} label={t.byWarehouseChart} unavailable={t.chartUnavailable} format={(value) => formatMoney(value, locale)} />
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">{t.byWarehouseCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.warehouse}</th>
                  <th scope="col" className="number">
                    {t.totalItems}
                  </th>
                  <th scope="col" className="number">
                    {t.totalProducts}
                  </th>
                  <th scope="col" className="number">
                    {t.totalValue}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.warehouseId} data-warehouse={row.warehouseName}>
                    <td>{row.warehouseName}</td>
                    <td className="number">{formatDecimal(row.totalItems, locale)}</td>
                    <td className="number">{formatDecimal(row.totalProducts, locale)}</td>
                    <td className="number">{formatMoney(row.totalValue, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </section>
  );
}
