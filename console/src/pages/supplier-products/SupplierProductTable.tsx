import { Link } from 'wouter';
import type { SupplierProduct } from '../../api/supplier-products';
import { RecordTable } from '../../components/RecordTable';
import { common } from '../../i18n/common';
import { useLocale, useMessages } from '../../i18n';
import { termColumns } from './columns';
import { supplierProductMessages } from './messages';

/** One page of a supplier's products: the SKU (a link to the product), the name, the terms, and each one's edit and remove buttons (named after its SKU). */
export function SupplierProductTable({
  links,
  caption,
  busy,
  onEdit,
  onRemove,
}: {
  links: readonly SupplierProduct[];
  caption: string;
  busy: boolean;
  onEdit: (link: SupplierProduct) => void;
  onRemove: (link: SupplierProduct) => void;
}) {
  const t = useMessages(supplierProductMessages);
  const c = useMessages(common);
  const { locale } = useLocale();
  // A link is one product of this supplier: the product names the row.
  const rows = links.map((link) => ({ ...link, id: link.productId }));
  return (
    <RecordTable
      caption={caption}
      rows={rows}
      busy={busy}
      columns={[
        { header: t.sku, cell: (link) => <Link href={`/inventory/products/${link.productId}`}>{link.sku}</Link>, nowrap: true },
        { header: t.product, cell: (link) => link.productName },
        ...termColumns(t, locale),
      ]}
      actionsHeader={c.actions}
      actions={[
        { text: c.edit, name: (link) => t.editTerms(link.sku), onClick: onEdit },
        { text: t.remove, name: (link) => t.removeProduct(link.sku), onClick: onRemove },
      ]}
    />
  );
}
