import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { TableWrap } from '../../components/TableWrap';
import { formatDecimal, formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { inventoryMessages } from './messages';
import { useBalances, type Warehouse } from '../../api/inventory';

/** The product's balance per warehouse (quantity exact, average cost in reais), warehouses it never entered left out. */
export function Balances({ productId, warehouses }: { productId: string; warehouses: readonly Warehouse[] }) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const results = useBalances(productId, warehouses);
  const failed = results.find((result) => result.isError);
  const rows = results.flatMap((result) => (result.data?.movement ? [{ warehouse: result.data.warehouse, balance: result.data.movement.balance }] : []));
  return (
    <section className="card" aria-labelledby="balances-title">
      <h2 id="balances-title">{t.balances}</h2>
      {failed ? <ProblemAlert error={failed.error} onRetry={() => void failed.refetch()} /> : null}
      {results.some((result) => result.isPending) ? (
        <SkeletonRows rows={Math.min(Math.max(warehouses.length, 1), 4)} columns={3} />
      ) : rows.length === 0 ? (
        <EmptyState title={t.noBalances} hint={t.noBalancesHint} />
      ) : (
        <TableWrap label={t.balancesCaption}>
          <table>
            <caption className="visually-hidden">{t.balancesCaption}</caption>
            <thead>
              <tr>
                <th scope="col">{t.warehouse}</th>
                <th scope="col" className="number">
                  {t.quantity}
                </th>
                <th scope="col" className="number">
                  {t.averageCost}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ warehouse, balance }) => (
                <tr key={warehouse.id} data-warehouse={warehouse.name}>
                  <td>{warehouse.name}</td>
                  <td className="number">{formatDecimal(balance.quantity, locale)}</td>
                  <td className="number">{formatMoney(balance.averageCost, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}
