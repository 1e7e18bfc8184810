import { maskPhone } from '../../format/masks';
import { common } from '../../i18n/common';
import { useMessages } from '../../i18n';
import type { Supplier } from './form';
import { supplierMessages } from './messages';

/** One page of suppliers, each with its edit and delete buttons (named after the supplier). */
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
    <div className="table-wrap">
      <table aria-busy={busy || undefined}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.name}</th>
            <th scope="col">{t.corporateName}</th>
            <th scope="col">{t.document}</th>
            <th scope="col">{t.email}</th>
            <th scope="col">{t.phone}</th>
            <th scope="col">{t.status}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {suppliers.map((supplier) => (
            <tr key={supplier.id}>
              <td>{supplier.name}</td>
              <td>{supplier.corporateName}</td>
              <td className="supplier-nowrap">{supplier.document}</td>
              <td>{supplier.email ?? ''}</td>
              <td className="supplier-nowrap">{supplier.phone ? maskPhone(supplier.phone) : ''}</td>
              <td>
                <span className={`badge ${supplier.active ? 'ok' : 'warn'}`}>{supplier.active ? t.isActive : t.isInactive}</span>
              </td>
              <td>
                <div className="supplier-actions">
                  <button type="button" className="button secondary" aria-label={t.editSupplier(supplier.name)} onClick={() => onEdit(supplier)}>
                    {c.edit}
                  </button>
                  <button type="button" className="button secondary" aria-label={t.deleteSupplier(supplier.name)} onClick={() => onDelete(supplier)}>
                    {c.delete}
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
