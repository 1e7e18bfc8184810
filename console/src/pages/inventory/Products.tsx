import { useState } from 'react';
import { Link, useSearch } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { useCategoryNames } from '../../api/categories';
import { useProducts, type ProductStatusFilter } from '../../api/inventory';
import { SelectField, TextField } from '../../components/Field';
import { cursorAt, Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { useDebounced } from '../../components/useDebounced';
import { formatDate } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { BarcodeLookup } from './BarcodeLookup';
import { CategoryField } from './CategoryField';
import { CreateProduct } from './CreateProduct';
import type { DeletedProductState } from './DeleteProduct';
import { inventoryMessages } from './messages';
import { filtersOfSearch, STATUS_FILTERS } from './product-filters';
import './inventory.css';

export const SEARCH_DEBOUNCE_MS = 300;

interface Paging {
  status: ProductStatusFilter;
  categoryId: string;
  search: string;
  page: number;
  cursors: (string | undefined)[];
}

/**
 * The tenant's products of a status (active by default; inactive; all) and of a category (any
 * by default), by SKU in Link-header pages, searched as the user types (debounced; a stale
 * search is cancelled through the query's signal), each linking to its page; a barcode field a
 * scanner types into, which opens the product it finds; and the form that creates one. The
 * address may name the first filters (`?categoryId=…&status=ALL`, from the categories page).
 */
export function Products() {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const deleted = useHistoryState<Partial<DeletedProductState> | null>()?.deletedProduct;
  const address = useSearch();
  const [initial] = useState(() => filtersOfSearch(address));
  const [status, setStatus] = useState<ProductStatusFilter>(initial.status);
  const [categoryId, setCategoryId] = useState(initial.categoryId);
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [paging, setPaging] = useState<Paging>({ ...initial, search: '', page: 1, cursors: [undefined] });
  // A cursor only continues the list it came from: a new status, category or search starts at page 1.
  const current: Paging =
    paging.search === settled && paging.status === status && paging.categoryId === categoryId
      ? paging
      : { status, categoryId, search: settled, page: 1, cursors: [undefined] };
  const cursor = cursorAt(current.cursors, current.page);
  const list = useProducts(settled, cursor, status, categoryId);
  const categoryNames = useCategoryNames(list.data?.items.map((product) => product.categoryId) ?? []);
  const onPage = (next: number) => {
    const nextCursor = list.data?.nextCursor;
    const cursors = next > current.page && nextCursor ? [...current.cursors.slice(0, current.page), nextCursor] : current.cursors;
    setPaging({ status, categoryId, search: settled, page: next, cursors });
  };
  return (
    <section className="card" aria-labelledby="products-title">
      <h2 id="products-title">{t.products}</h2>
      <p role="status" className={deleted ? 'alert alert-ok' : 'visually-hidden'}>
        {deleted ? t.productDeleted(deleted) : ''}
      </p>
      <p className="product-links">
        <Link href="/imports?kind=products">{t.importProducts}</Link>
        <Link href="/inventory/categories">{t.manageCategories}</Link>
      </p>
      <CreateProduct />
      <div className="product-filters" role="group" aria-label={t.productFilters}>
        <BarcodeLookup />
        <SelectField
          label={t.statusFilter}
          value={status}
          onValueChange={(value) => setStatus(value as ProductStatusFilter)}
          options={STATUS_FILTERS.map((value) => ({ value, label: t.statusFilterNames(value) }))}
        />
        <CategoryField label={t.categoryFilter} none={t.allCategories} value={categoryId} onValueChange={setCategoryId} />
        <div className="product-search">
          <TextField label={t.searchProducts} type="search" value={search} onValueChange={setSearch} hint={t.searchHint} autoComplete="off" maxLength={100} />
        </div>
      </div>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={4} columns={3} />
      ) : list.data && list.data.items.length === 0 && current.page === 1 ? (
        settled ? (
          <EmptyState title={t.noMatches(settled)} hint={t.noMatchesHint} />
        ) : categoryId ? (
          <EmptyState title={t.noProductsInCategory} hint={t.noProductsInCategoryHint} />
        ) : status === 'ALL' ? (
          <EmptyState title={t.noProducts} hint={t.noProductsHint} />
        ) : (
          <EmptyState title={t.noProductsOfStatus(status)} hint={t.noProductsOfStatusHint} />
        )
      ) : list.data ? (
        <>
          <div className="table-wrap" aria-busy={list.isFetching}>
            <table>
              <caption className="visually-hidden">{t.productsCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.sku}</th>
                  <th scope="col">{t.name}</th>
                  <th scope="col" className="product-category">
                    {t.category}
                  </th>
                  <th scope="col">{t.unit}</th>
                  <th scope="col">{t.status}</th>
                  <th scope="col">{t.createdAt}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((product) => (
                  <tr key={product.id}>
                    <td>
                      <Link href={`/inventory/products/${product.id}`}>{product.sku}</Link>
                    </td>
                    <td>{product.name}</td>
                    <td className="product-category">{product.categoryId === null ? '' : (categoryNames.get(product.categoryId) ?? '')}</td>
                    <td>{product.unit}</td>
                    <td>{t.statusNames(product.status)}</td>
                    <td>{formatDate(product.createdAt, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={current.page} hasNext={Boolean(list.data.nextCursor)} onPage={onPage} label={t.productsPager} />
        </>
      ) : null}
    </section>
  );
}
