import { RecordTable } from '../../components/RecordTable';
import { maskPhone } from '../../format/masks';
import { common } from '../../i18n/common';
import { useMessages } from '../../i18n';
import type { Supplier } from './form';
import { supplierMessages } from './messages';

/** The page of what a supplier sells (pages/supplier-products). */
export const supplierProductsPath = (supplier: Pick<Supplier, 'id'>) => `/suppliers/${supplier.id}/products`;

/** One page of suppliers, each with its products link and its edit and delete buttons (named after the supplier). */
export function SupplierTable({
  suppliers,
  caption,
  busy,
  onEdit,
  onDelete,
}: {
  suppliers: readonly Supplier[];
  caption: string;
  busy: boolean;
  onEdit: (supplier: Supplier) => void;
  onDelete: (supplier: Supplier) => void;
}) {
  const t = useMessages(supplierMessages);
  const c = useMessages(common);
  return (
    <RecordTable
      caption={caption}
      rows={suppliers}
      busy={busy}
      columns={[
        { header: t.name, cell: (supplier) => supplier.name },
        { header: t.corporateName, cell: (supplier) => supplier.corporateName },
        { header: t.document, cell: (supplier) => supplier.document, nowrap: true },
        { header: t.email, cell: (supplier) => supplier.email ?? '' },
        { header: t.phone, cell: (supplier) => (supplier.phone ? maskPhone(supplier.phone) : ''), nowrap: true },
        {
          header: t.status,
          cell: (supplier) => <span className={`badge ${supplier.active ? 'ok' : 'warn'}`}>{supplier.active ? t.isActive : t.isInactive}</span>,
        },
      ]}
      actionsHeader={c.actions}
      actions={[
        { text: t.products, name: (supplier) => t.productsOf(supplier.name), href: supplierProductsPath },
        { text: c.edit, name: (supplier) => t.editSupplier(supplier.name), onClick: onEdit },
        { text: c.delete, name: (supplier) => t.deleteSupplier(supplier.name), onClick: onDelete },
      ]}
    />
  );
}
