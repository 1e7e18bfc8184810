import { useEffect, useState } from 'react';
import { Link, useParams } from 'wouter';
import { useSupplierProducts, type SupplierProduct } from '../../api/supplier-products';
import { useSupplier } from '../../api/suppliers';
import { Page } from '../../components/Page';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { RecordListPage } from '../../components/RecordListPage';
import { EmptyState } from '../../components/States';
import { useCursorStack } from '../../components/useCursorStack';
import { useRecordEditor } from '../../components/useRecordEditor';
import { useMessages } from '../../i18n';
import { supplierProductMessages } from './messages';
import { RemoveSupplierProductDialog } from './RemoveSupplierProductDialog';
import { SupplierProductFormDialog } from './SupplierProductFormDialog';
import { SupplierProductTable } from './SupplierProductTable';
import './supplier-products.css';

/**
 * /suppliers/:id/products — what a supplier sells, with its terms for each product, in cursor
 * pages; a product added (picked by search) and its terms edited in a dialog, removed after a
 * question.
 */
export default function SupplierProductsPage() {
  const t = useMessages(supplierProductMessages);
  const { id = '' } = useParams<{ id: string }>();
  const supplier = useSupplier(id);
  const paging = useCursorStack();
  const list = useSupplierProducts(id, paging.cursor);
  const editor = useRecordEditor<SupplierProduct>();
  const [removing, setRemoving] = useState<SupplierProduct | undefined>();
  const data = list.data;
  const nextCursor = data?.nextCursor ?? undefined;
  const emptiedPage = data !== undefined && !list.isPlaceholderData && data.items.length === 0 && paging.page > 1;
  const { previous } = paging;
  // A page emptied by a removal: back to the one before it.
  useEffect(() => {
    if (emptiedPage) previous();
  }, [emptiedPage, previous]);

  const back = <Link href="/suppliers">{t.backToSuppliers}</Link>;
  if (supplier.isError) {
    return (
      <Page title={t.titleLoading} actions={back}>
        <ProblemAlert error={supplier.error} onRetry={() => void supplier.refetch()} />
      </Page>
    );
  }
  const name = supplier.data?.name;
  return (
    <RecordListPage
      title={name ? t.title(name) : t.titleLoading}
      actions={back}
      newLabel={t.addProduct}
      onNew={() => editor.edit(undefined)}
      toolbar={<p className="muted">{t.intro}</p>}
      notice={editor.notice}
      query={list}
      skeleton={{ rows: 4, columns: 8 }}
      empty={data && data.items.length === 0 && paging.page === 1 ? <EmptyState title={t.emptyTitle} hint={t.emptyHint} /> : undefined}
      dialogs={
        <>
          <SupplierProductFormDialog
            open={editor.dialog.open}
            supplierId={id}
            link={editor.dialog.record}
            onOpenChange={editor.dialog.onOpenChange}
            onSaved={(saved, created) => editor.saved(created ? t.added(saved.sku) : t.updated(saved.sku))}
            onUnchanged={() => editor.saved(t.nothingChanged)}
          />
          {removing ? (
            <RemoveSupplierProductDialog
              key={removing.productId}
              link={removing}
              onClose={() => setRemoving(undefined)}
              onRemoved={(link) => {
                setRemoving(undefined);
                editor.say(t.removed(link.sku));
              }}
            />
          ) : null}
        </>
      }
    >
      {data ? (
        <>
          <SupplierProductTable
            links={data.items}
            caption={name ? t.tableCaption(name) : t.titleLoading}
            busy={list.isFetching}
            onEdit={editor.edit}
            onRemove={(link) => {
              editor.clearNotice();
              setRemoving(link);
            }}
          />
          <Pager
            label={t.pager}
            page={paging.page}
            hasNext={Boolean(nextCursor)}
            onPage={(page) => {
              if (page < paging.page) paging.previous();
              else if (nextCursor) paging.next(nextCursor);
            }}
          />
        </>
      ) : null}
    </RecordListPage>
  );
}
