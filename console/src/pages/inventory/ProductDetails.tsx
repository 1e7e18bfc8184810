import type { ReactNode } from 'react';
import { useCategory } from '../../api/categories';
import type { Product } from '../../api/inventory';
import { formatDateTime } from '../../format/date';
import { formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { inventoryMessages } from './messages';

/** Every field of a product, an optional one not set said so; its category by name. */
export function ProductDetails({ product }: { product: Product }) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const category = useCategory(product.categoryId);
  const optional = (value: ReactNode | null) => (value === null ? <span className="muted">{t.notSet}</span> : value);
  const rows: [string, ReactNode][] = [
    [t.sku, product.sku],
    [t.name, product.name],
    [t.description, optional(product.description === null ? null : <span className="product-description">{product.description}</span>)],
    [t.brand, optional(product.brand)],
    [
      t.category,
      optional(
        product.categoryId === null ? null : (category.data?.name ?? <span className="muted">{category.isError ? t.categoryUnread : t.loadingCategory}</span>),
      ),
    ],
    [t.unit, t.unitOption(product.unit)],
    [t.gtin, optional(product.gtin)],
    [t.ncm, optional(product.ncm)],
    [t.cest, optional(product.cest)],
    [t.salePrice, optional(product.salePrice === null ? null : formatMoney(product.salePrice, locale))],
    [t.status, <span className={`badge ${product.status === 'ACTIVE' ? 'ok' : 'warn'}`}>{t.statusNames(product.status)}</span>],
    [t.createdAt, formatDateTime(product.createdAt, locale)],
    [t.updatedAt, formatDateTime(product.updatedAt, locale)],
  ];
  return (
    <dl className="product-details">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
