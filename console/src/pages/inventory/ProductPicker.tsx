import { useState } from 'react';
import { useProducts, type Product } from '../../api/inventory';
import { SelectField, TextField } from '../../components/Field';
import { useDebounced } from '../../components/useDebounced';
import { useMessages } from '../../i18n';
import { inventoryMessages } from './messages';
import { SEARCH_DEBOUNCE_MS } from './Products';

/**
 * A product chosen among the tenant's (of any status: an inactive one can still be transferred):
 * a search (debounced, as the product list's) and a select of the first page it finds, by SKU.
 * The chosen product stays offered while the search changes, so the select never loses it.
 */
export function ProductPicker({
  value,
  onChange,
  error,
}: {
  value: Product | undefined;
  onChange: (product: Product | undefined) => void;
  error?: string | undefined;
}) {
  const t = useMessages(inventoryMessages);
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const found = useProducts(settled, undefined, 'ALL');
  const matches = found.data?.items ?? [];
  const offered = value && !matches.some((product) => product.id === value.id) ? [value, ...matches] : matches;
  const label = (product: Product) => t.productTitle(product.sku, product.name);
  return (
    <div className="form-row">
      <TextField label={t.findProduct} type="search" value={search} onValueChange={setSearch} hint={t.findProductHint} autoComplete="off" maxLength={100} />
      <SelectField
        label={t.product}
        value={value?.id ?? ''}
        onValueChange={(id) => onChange(offered.find((product) => product.id === id))}
        options={[{ value: '', label: t.chooseProduct }, ...offered.map((product) => ({ value: product.id, label: label(product) }))]}
        hint={found.data && matches.length === 0 ? t.noProductFound : undefined}
        error={error}
        required
      />
    </div>
  );
}
