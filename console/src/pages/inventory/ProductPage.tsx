import { Link, useParams } from 'wouter';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { Balances } from './Balances';
import { inventoryMessages } from './messages';
import { MovementForm } from './MovementForm';
import { useAllWarehouses, useProduct } from '../../api/inventory';
import { StockHistory } from './StockHistory';

/** /inventory/products/:id — the product, its balance per warehouse, the movement form and its stock history. */
export default function ProductPage() {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const { id = '' } = useParams<{ id: string }>();
  const product = useProduct(id);
  const warehouses = useAllWarehouses();
  const back = <Link href="/inventory">{t.backToInventory}</Link>;
  if (product.isPending) {
    return (
      <Page title={t.productLoading} actions={back}>
        <SkeletonRows rows={3} columns={2} />
      </Page>
    );
  }
  if (product.isError) {
    return (
      <Page title={t.productLoading} actions={back}>
        <ProblemAlert error={product.error} onRetry={() => void product.refetch()} />
      </Page>
    );
  }
  const list = warehouses.data?.items ?? [];
  return (
    <Page title={t.productTitle(product.data.sku, product.data.name)} actions={back}>
      <section className="card" aria-labelledby="details-title">
        <h2 id="details-title">{t.details}</h2>
        <dl>
          <dt>{t.sku}</dt>
          <dd>{product.data.sku}</dd>
          <dt>{t.name}</dt>
          <dd>{product.data.name}</dd>
          <dt>{t.createdAt}</dt>
          <dd>{formatDateTime(product.data.createdAt, locale)}</dd>
        </dl>
      </section>
      {warehouses.isError ? <ProblemAlert error={warehouses.error} onRetry={() => void warehouses.refetch()} /> : null}
      {warehouses.isPending ? (
        <SkeletonRows rows={3} columns={3} />
      ) : (
        <>
          <Balances productId={id} warehouses={list} />
          <section className="card">
            <MovementForm productId={id} warehouses={list} />
          </section>
          <StockHistory productId={id} warehouses={list} />
        </>
      )}
    </Page>
  );
}
