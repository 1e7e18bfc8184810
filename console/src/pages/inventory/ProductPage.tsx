import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'wouter';
import { useAllWarehouses, useProduct } from '../../api/inventory';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { useMessages } from '../../i18n';
import { ProductSuppliers } from '../supplier-products/ProductSuppliers';
import { Balances } from './Balances';
import { DeleteProduct } from './DeleteProduct';
import { inventoryMessages } from './messages';
import { MovementForm } from './MovementForm';
import { ProductDetails } from './ProductDetails';
import { ProductForm } from './ProductForm';
import { RecentTransfers } from './RecentTransfers';
import { StockHistory } from './StockHistory';
import { TransferForm } from './TransferForm';
import './inventory.css';

/**
 * /inventory/products/:id — the product with every field, edited in place or deleted; the
 * suppliers who sell it, with their terms; its balance per warehouse, the movement form, the transfer form and its recent transfers, and
 * its stock history.
 */
export default function ProductPage() {
  const t = useMessages(inventoryMessages);
  const { id = '' } = useParams<{ id: string }>();
  const product = useProduct(id);
  const warehouses = useAllWarehouses();
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  // Closing the form puts the keyboard back on the button that opened it.
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editButton.current?.focus();
  }, [editing]);
  const closeForm = (message?: string) => {
    returnFocus.current = true;
    setEditing(false);
    setNotice(message);
  };
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
        <div className="product-card-header">
          <h2 id="details-title">{t.details}</h2>
          {editing ? null : (
            <div className="product-actions">
              <button
                ref={editButton}
                type="button"
                className="button secondary"
                onClick={() => {
                  setNotice(undefined);
                  setEditing(true);
                }}
              >
                {t.editProduct}
              </button>
              <DeleteProduct product={product.data} />
            </div>
          )}
        </div>
        {editing ? (
          <ProductForm product={product.data} reload={async () => (await product.refetch()).data} onDone={closeForm} onCancel={() => closeForm()} />
        ) : (
          <ProductDetails product={product.data} />
        )}
        <p role="status" className={notice ? 'alert alert-ok' : 'visually-hidden'}>
          {notice ?? ''}
        </p>
      </section>
      <ProductSuppliers productId={id} />
      {warehouses.isError ? <ProblemAlert error={warehouses.error} onRetry={() => void warehouses.refetch()} /> : null}
      {warehouses.isPending ? (
        <SkeletonRows rows={3} columns={3} />
      ) : (
        <>
          <Balances productId={id} warehouses={list} />
          <section className="card">
            <MovementForm productId={id} status={product.data.status} warehouses={list} />
          </section>
          <section className="card">
            <TransferForm product={product.data} warehouses={list} />
          </section>
          <RecentTransfers productId={id} warehouses={list} />
          <StockHistory productId={id} warehouses={list} />
        </>
      )}
    </Page>
  );
}
