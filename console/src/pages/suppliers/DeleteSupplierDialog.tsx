import { Link } from 'wouter';
import { isProblem } from '../../api/problems';
import { ConfirmDialog } from '../../components/Dialogs';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import type { Supplier } from './form';
import { supplierMessages } from './messages';
import { supplierProductsPath } from './SupplierTable';

/**
 * The question before a supplier is deleted. A supplier that still sells products is refused
 * (409): said in the dialog as what to do first (remove its products), with a link to them.
 */
export function DeleteSupplierDialog({
  supplier,
  error,
  busy,
  onConfirm,
  onClose,
}: {
  supplier: Supplier | undefined;
  error: unknown;
  busy: boolean;
  onConfirm: (supplier: Supplier) => void;
  onClose: () => void;
}) {
  const t = useMessages(supplierMessages);
  const sellsProducts = isProblem(error, 409);
  return (
    <ConfirmDialog
      open={supplier !== undefined}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.deleteTitle}
      description={supplier ? t.deleteDescription(supplier.name) : ''}
      confirmLabel={t.deleteConfirm}
      busy={busy || sellsProducts}
      onConfirm={() => (supplier ? onConfirm(supplier) : undefined)}
    >
      {supplier && sellsProducts ? (
        <div className="alert alert-warn" role="alert">
          <p>{t.deleteHasProducts(supplier.name)}</p>
          <p>
            <Link href={supplierProductsPath(supplier)}>{t.seeProductsOf(supplier.name)}</Link>
          </p>
        </div>
      ) : error ? (
        <ProblemAlert error={error} />
      ) : null}
    </ConfirmDialog>
  );
}
