import { useState } from 'react';
import { useLocation } from 'wouter';
import { useDeleteProduct, type Product } from '../../api/inventory';
import { isProblem } from '../../api/problems';
import { useProductSuppliers } from '../../api/supplier-products';
import { ConfirmDialog } from '../../components/Dialogs';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { inventoryMessages } from './messages';

/** What the inventory page is told when it is reached from a deleted product (history state). */
export interface DeletedProductState {
  deletedProduct: string;
}

/**
 * Deletes a product after a confirmation (DELETE /inventory/products/{id}), then goes back to
 * the inventory, which says so (told through the history state). Only a product without
 * movements and without suppliers can go: a 409 is said in the dialog as what to do instead
 * (remove it from its suppliers, told by the page's own list of them; or deactivate it).
 */
export function DeleteProduct({ product }: { product: Product }) {
  const t = useMessages(inventoryMessages);
  const [open, setOpen] = useState(false);
  const [, navigate] = useLocation();
  // The first page of the product's suppliers, which the page's Suppliers section reads already.
  const suppliers = useProductSuppliers(product.id, undefined);
  const sold = (suppliers.data?.items.length ?? 0) > 0;
  const remove = useDeleteProduct(product.id, {
    // Replaces the product's page in the history: going back does not lead to a deleted product.
    onSuccess: () => navigate('/inventory', { replace: true, state: { deletedProduct: product.sku } satisfies DeletedProductState }),
  });
  return (
    <>
      <button
        type="button"
        className="button danger"
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        {t.deleteProduct}
      </button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t.deleteTitle(product.sku)}
        description={t.deleteDescription}
        confirmLabel={t.deleteConfirm}
        onConfirm={() => remove.mutate()}
        busy={remove.isPending || isProblem(remove.error, 409)}
      >
        {isProblem(remove.error, 409) ? (
          <p className="alert alert-warn" role="alert">
            {sold ? t.deleteHasSuppliers : t.deleteHasMovements}
          </p>
        ) : remove.error ? (
          <ProblemAlert error={remove.error} />
        ) : null}
      </ConfirmDialog>
    </>
  );
}
