import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useCategories, useDeleteCategory, type Category } from '../../api/categories';
import { Pager } from '../../components/Pager';
import { RecordListPage } from '../../components/RecordListPage';
import { EmptyState } from '../../components/States';
import { useCursorStack } from '../../components/useCursorStack';
import { useRecordEditor } from '../../components/useRecordEditor';
import { useMessages } from '../../i18n';
import { CategoryFormDialog } from './CategoryFormDialog';
import { CategoryTable } from './CategoryTable';
import { DeleteCategoryDialog } from './DeleteCategoryDialog';
import { categoryMessages } from './messages';

/**
 * /inventory/categories — the product categories by name (case and accents aside), with how
 * many products each has, in Link-header pages; created and renamed in a dialog, deleted after
 * a question (only one no product uses).
 */
export default function CategoriesPage() {
  const t = useMessages(categoryMessages);
  const paging = useCursorStack();
  const list = useCategories(paging.cursor);
  const editor = useRecordEditor<Category>();
  const [deleting, setDeleting] = useState<Category | undefined>();
  const remove = useDeleteCategory({
    onSuccess: (_, category) => {
      setDeleting(undefined);
      editor.say(t.deleted(category.name));
    },
  });
  const data = list.data;
  const nextCursor = data?.nextCursor;
  const emptiedPage = data !== undefined && !list.isPlaceholderData && data.items.length === 0 && paging.page > 1;
  const { previous } = paging;
  // A page emptied by a delete: back to the one before it.
  useEffect(() => {
    if (emptiedPage) previous();
  }, [emptiedPage, previous]);

  return (
    <RecordListPage
      title={t.title}
      actions={<Link href="/inventory">{t.backToInventory}</Link>}
      newLabel={t.newCategory}
      onNew={() => editor.edit(undefined)}
      toolbar={<p className="muted">{t.intro}</p>}
      notice={editor.notice}
      query={list}
      skeleton={{ rows: 4, columns: 4 }}
      empty={data && data.items.length === 0 && paging.page === 1 ? <EmptyState title={t.emptyTitle} hint={t.emptyHint} /> : undefined}
      dialogs={
        <>
          <CategoryFormDialog
            open={editor.dialog.open}
            category={editor.dialog.record}
            onOpenChange={editor.dialog.onOpenChange}
            onSaved={(saved, created) => editor.saved(created ? t.created(saved.name) : t.renamed(saved.name))}
            onUnchanged={() => editor.dialog.onOpenChange(false)}
          />
          <DeleteCategoryDialog
            category={deleting}
            error={remove.error}
            busy={remove.isPending}
            onConfirm={(category) => remove.mutate(category)}
            onClose={() => setDeleting(undefined)}
          />
        </>
      }
    >
      {data ? (
        <>
          <CategoryTable
            categories={data.items}
            busy={list.isFetching}
            onRename={editor.edit}
            onDelete={(category) => {
              remove.reset();
              editor.clearNotice();
              setDeleting(category);
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
