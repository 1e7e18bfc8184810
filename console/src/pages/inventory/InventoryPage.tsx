import { Link } from 'wouter';
import { useAllWarehouses } from '../../api/inventory';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { useMessages } from '../../i18n';
import { inventoryMessages } from './messages';
import { Products } from './Products';
import { TransferForm } from './TransferForm';
import { Warehouses } from './Warehouses';

/** /inventory — the warehouses and the products, each listed, paged and created here; a transfer of any product between warehouses; a link to the stock counts. */
export default function InventoryPage() {
  const t = useMessages(inventoryMessages);
  const warehouses = useAllWarehouses();
  return (
    <Page title={t.title} actions={<Link href="/inventory/counts">{t.stockCounts}</Link>}>
      <Warehouses />
      <Products />
      <section className="card">
        {warehouses.isError ? <ProblemAlert error={warehouses.error} onRetry={() => void warehouses.refetch()} /> : null}
        {warehouses.isPending ? <SkeletonRows rows={2} columns={2} /> : <TransferForm warehouses={warehouses.data?.items ?? []} />}
      </section>
    </Page>
  );
}
