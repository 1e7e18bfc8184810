import { Link } from 'wouter';
import type { Category } from '../../api/categories';
import { RecordTable } from '../../components/RecordTable';
import { formatDate } from '../../format/date';
import { common } from '../../i18n/common';
import { useLocale, useMessages } from '../../i18n';
import { categoryProductsPath } from '../inventory/product-filters';
import { categoryMessages } from './messages';

/** One page of categories by name: each one's product count (a link to those products), when it last changed, and its rename and delete buttons. */
export function CategoryTable({
  categories,
  busy,
  onRename,
  onDelete,
}: {
  categories: readonly Category[];
  busy: boolean;
  onRename: (category: Category) => void;
  onDelete: (category: Category) => void;
}) {
  const t = useMessages(categoryMessages);
  const c = useMessages(common);
  const { locale } = useLocale();
  return (
    <RecordTable
      caption={t.tableCaption}
      rows={categories}
      busy={busy}
      columns={[
        { header: t.name, cell: (category) => category.name },
        {
          header: t.products,
          nowrap: true,
          cell: (category) =>
            category.productCount === 0 ? (
              t.productCount(0)
            ) : (
              <Link href={categoryProductsPath(category.id)} aria-label={t.seeProducts(category.name, category.productCount)}>
                {t.productCount(category.productCount)}
              </Link>
            ),
        },
        { header: t.updatedAt, cell: (category) => formatDate(category.updatedAt, locale), nowrap: true },
      ]}
      actionsHeader={c.actions}
      actions={[
        { text: t.rename, name: (category) => t.renameCategory(category.name), onClick: onRename },
        { text: c.delete, name: (category) => t.deleteCategory(category.name), onClick: onDelete },
      ]}
    />
  );
}
