import { Link } from 'wouter';
import type { Category } from '../../api/categories';
import { isProblem } from '../../api/problems';
import { ConfirmDialog } from '../../components/Dialogs';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { categoryProductsPath } from '../inventory/product-filters';
import { categoryMessages } from './messages';

/**
 * The question before a category is deleted. A category products still use is refused (409):
 * said in the dialog as what to do first (move them to another category), with a link to them.
 */
export function DeleteCategoryDialog({
  category,
  error,
  busy,
  onConfirm,
  onClose,
}: {
  category: Category | undefined;
  error: unknown;
  busy: boolean;
  onConfirm: (category: Category) => void;
  onClose: () => void;
}) {
  const t = useMessages(categoryMessages);
  const inUse = isProblem(error, 409);
  return (
    <ConfirmDialog
      open={category !== undefined}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={category ? t.deleteTitle(category.name) : ''}
      description={t.deleteDescription}
      confirmLabel={t.deleteConfirm}
      busy={busy || inUse}
      onConfirm={() => (category ? onConfirm(category) : undefined)}
    >
      {category && inUse ? (
        <div className="alert alert-warn" role="alert">
          <p>{t.inUse(category.name)}</p>
          <p>
            <Link href={categoryProductsPath(category.id)}>{t.seeProductsOf(category.name)}</Link>
          </p>
        </div>
      ) : error ? (
        <ProblemAlert error={error} />
      ) : null}
    </ConfirmDialog>
  );
}
