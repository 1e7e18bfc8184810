import { useState } from 'react';
import { Link } from 'wouter';
import { createProduct, useProducts } from '../../api/inventory';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { cursorAt, Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDate } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { CreateForm } from './CreateForm';
import { inventoryMessages } from './messages';
import { useDebounced } from '../../components/useDebounced';

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The tenant's products (by SKU, Link-header pages), searched as the user types (debounced; a
 * stale search is cancelled through the query's signal), each linking to its page; and the form
 * that creates one.
 */
export function Products() {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const [sku, setSku] = useState('');
  const [name, setName] = useState('');
  const [search, setSearch] = useState('');
  const settled = useDebounced(search.trim(), SEARCH_DEBOUNCE_MS);
  const [paging, setPaging] = useState<{ search: string; page: number; cursors: (string | undefined)[] }>({ search: '', page: 1, cursors: [undefined] });
  // A cursor only continues the search it came from: a new search starts at page 1.
  const current = paging.search === settled ? paging : { search: settled, page: 1, cursors: [undefined] };
  const cursor = cursorAt(current.cursors, current.page);
  const list = useProducts(settled, cursor);
  const onPage = (next: number) => {
    const nextCursor = list.data?.nextCursor;
    const cursors = next > current.page && nextCursor ? [...current.cursors.slice(0, current.page), nextCursor] : current.cursors;
    setPaging({ search: settled, page: next, cursors });
  };
  return (
    <section className="card" aria-labelledby="products-title">
      <h2 id="products-title">{t.products}</h2>
      <p>
        <Link href="/imports?kind=products">{t.importProducts}</Link>
      </p>
      <CreateForm
        title={t.newProduct}
        submitLabel={t.createProduct}
        canSubmit
        create={(key) => createProduct(key, { sku: sku.trim(), name: name.trim() })}
        done={(created) => t.productCreated(created.sku)}
        onCreated={() => {
          setSku('');
          setName('');
        }}
      >
        {(error) => (
          <>
            <TextField label={t.sku} value={sku} onValueChange={setSku} required autoComplete="off" error={fieldErrors(error).sku} />
            <TextField label={t.productName} value={name} onValueChange={setName} required autoComplete="off" error={fieldErrors(error).name} />
          </>
        )}
      </CreateForm>
      <div className="toolbar">
        <TextField label={t.searchProducts} type="search" value={search} onValueChange={setSearch} hint={t.searchHint} autoComplete="off" maxLength={100} />
      </div>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={4} columns={3} />
      ) : list.data && list.data.items.length === 0 && current.page === 1 ? (
        settled ? (
          <EmptyState title={t.noMatches(settled)} hint={t.noMatchesHint} />
        ) : (
          <EmptyState title={t.noProducts} hint={t.noProductsHint} />
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
