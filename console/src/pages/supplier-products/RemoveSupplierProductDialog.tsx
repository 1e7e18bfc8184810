import { useState } from 'react';
import { isProblem } from '../../api/problems';
import { useDeleteSupplierProduct, useReloadSupplierProduct, type SupplierProduct } from '../../api/supplier-products';
import { ConfirmDialog } from '../../components/Dialogs';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { supplierProductMessages } from './messages';
import { StaleAlert } from './StaleAlert';

/**
 * The question before a supplier stops selling a product (DELETE with `If-Match` the version
 * listed). Someone's change since (412) removes nothing: the dialog says so and reloads the
 * link, so the question is asked again about the terms as they are now (a link removed
 * meanwhile is said so). Open while mounted.
 */
export function RemoveSupplierProductDialog({
  link,
  onClose,
  onRemoved,
}: {
  link: SupplierProduct;
  onClose: () => void;
  onRemoved: (link: SupplierProduct) => void;
}) {
  const t = useMessages(supplierProductMessages);
  const [target, setTarget] = useState(link);
  const [reloading, setReloading] = useState(false);
  const [reloadError, setReloadError] = useState<unknown>();
  const reloadLink = useReloadSupplierProduct();
  const remove = useDeleteSupplierProduct({ onSuccess: (_, removed) => onRemoved(removed) });
  const stale = isProblem(remove.error, 412);
  const onReload = () => {
    setReloading(true);
    setReloadError(undefined);
    void reloadLink(target)
      .then((fresh) => {
        setTarget(fresh);
        remove.reset();
      })
      .catch(setReloadError)
      .finally(() => setReloading(false));
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.removeTitle(target.sku, target.supplierName)}
      description={t.removeDescription}
      confirmLabel={t.removeConfirm}
      busy={remove.isPending || stale || reloading}
      onConfirm={() => remove.mutate(target)}
    >
      {reloadError ? <ProblemAlert error={reloadError} /> : null}
      {stale ? (
        <StaleAlert text={t.staleRemove} reloadLabel={t.reload} onReload={onReload} reloading={reloading} />
      ) : remove.error ? (
        <ProblemAlert error={remove.error} />
      ) : null}
    </ConfirmDialog>
  );
}
