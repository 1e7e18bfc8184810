import { Link } from 'wouter';
import { useProductSuppliers, type SupplierProduct } from '../../api/supplier-products';
import { Pager } from '../../components/Pager';
import type { RecordColumn } from '../../components/RecordTable';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { TableWrap } from '../../components/TableWrap';
import { useCursorStack } from '../../components/useCursorStack';
import { useLocale, useMessages } from '../../i18n';
import { termColumns } from './columns';
import { supplierProductMessages } from './messages';
import './supplier-products.css';

/** The preferred supplier first; the others in the API's order. */
const preferredFirst = (links: readonly SupplierProduct[]) => [...links].sort((a, b) => Number(b.preferred) - Number(a.preferred));

/**
 * The product page's "Suppliers": who sells the product (GET /inventory/products/{id}/suppliers)
 * and on what terms, the preferred one marked and first; each supplier's name opens its
 * products, where the terms are changed.
 */
export function ProductSuppliers({ productId }: { productId: string }) {
  const t = useMessages(supplierProductMessages);
  const { locale } = useLocale();
  const paging = useCursorStack();
  const list = useProductSuppliers(productId, paging.cursor);
  const nextCursor = list.data?.nextCursor ?? undefined;
  const columns: RecordColumn<SupplierProduct>[] = [
    { header: t.supplier, cell: (link) => <Link href={`/suppliers/${link.supplierId}/products`}>{link.supplierName}</Link> },
    ...termColumns(t, locale),
  ];
  return (
    <section className="card" aria-labelledby="product-suppliers-title">
      <h2 id="product-suppliers-title">{t.productSuppliers}</h2>
      {list.isError ? <ProblemAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.isPending ? (
        <SkeletonRows rows={2} columns={columns.length} />
      ) : list.data && list.data.items.length === 0 && paging.page === 1 ? (
        <EmptyState
          title={t.noSuppliers}
          hint={t.noSuppliersHint}
          action={
            <Link href="/suppliers" className="button secondary">
              {t.goToSuppliers}
            </Link>
          }
        />
      ) : list.data ? (
        <>
          <TableWrap label={t.productSuppliersCaption} busy={list.isFetching}>
            <table>
              <caption className="visually-hidden">{t.productSuppliersCaption}</caption>
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column.header} scope="col">
                      {column.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preferredFirst(list.data.items).map((link) => (
                  <tr key={link.supplierId}>
                    {columns.map((column) => (
                      <td key={column.header} className={column.nowrap ? 'terms-nowrap' : undefined}>
                        {column.cell(link)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          {paging.page > 1 || nextCursor ? (
            <Pager
              label={t.productSuppliersPager}
              page={paging.page}
              hasNext={Boolean(nextCursor)}
              onPage={(page) => {
                if (page < paging.page) paging.previous();
                else if (nextCursor) paging.next(nextCursor);
              }}
            />
          ) : null}
        </>
      ) : null}
    </section>
  );
}
