import type { SupplierProduct } from '../../api/supplier-products';
import type { RecordColumn } from '../../components/RecordTable';
import { formatDecimal, formatMoney } from '../../format/decimal';
import type { Locale } from '../../i18n';
import type { SupplierProductTexts } from './messages';

/** The unit a supplier sells in and how many of the product's units it holds: `CX com 12`, `CX`, `Embalagem com 12`, or the product's own. */
export function purchaseUnitText(link: Pick<SupplierProduct, 'unit' | 'unitsPerPack'>, t: SupplierProductTexts, locale: Locale): string {
  const units = formatDecimal(link.unitsPerPack, locale);
  const single = link.unitsPerPack === 1;
  if (link.unit) return single ? link.unit : t.packOf(link.unit, units);
  return single ? t.productUnit : t.packOfProductUnits(units);
}

/** The preferred supplier's badge (the star is decoration: the word names it). */
export function PreferredBadge({ t }: { t: SupplierProductTexts }) {
  return (
    <span className="badge ok preferred-badge">
      <span aria-hidden="true">★ </span>
      {t.preferred}
    </span>
  );
}

const muted = (text: string) => <span className="muted">{text}</span>;

/**
 * The supplier's terms for a product, one column each, as both lists show them (a supplier's
 * products, a product's suppliers): its code, the purchase unit and pack, the last cost in
 * reais, the lead time, the minimum order and the preferred mark.
 */
export function termColumns(t: SupplierProductTexts, locale: Locale): RecordColumn<SupplierProduct>[] {
  return [
    { header: t.supplierCode, cell: (link) => link.supplierCode ?? muted(t.notSet) },
    { header: t.purchaseUnit, cell: (link) => purchaseUnitText(link, t, locale) },
    { header: t.lastCost, cell: (link) => (link.lastCost === null ? muted(t.notSet) : formatMoney(link.lastCost, locale)), nowrap: true },
    { header: t.leadTime, cell: (link) => t.days(link.leadTimeDays), nowrap: true },
    { header: t.minimumOrder, cell: (link) => (link.minimumOrder === null ? muted(t.noMinimum) : formatDecimal(link.minimumOrder, locale)), nowrap: true },
    { header: t.preferred, cell: (link) => (link.preferred ? <PreferredBadge t={t} /> : ''), nowrap: true },
  ];
}
