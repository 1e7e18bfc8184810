import { useCategory, useCategoryPicker } from '../../api/categories';
import { SelectField } from '../../components/Field';
import { useMessages } from '../../i18n';
import { inventoryMessages } from './messages';

/**
 * A select of categories: the `none` choice (a product's "no category", a filter's "all
 * categories"), then the categories by name. The chosen category stays an option even when the
 * picker's first 100 do not hold it (read alone). Without the categories (still loading, or
 * failed) the field offers only `none` and says why.
 */
export function CategoryField({
  value,
  onValueChange,
  error,
  label,
  none,
}: {
  value: string;
  onValueChange: (categoryId: string) => void;
  error?: string | undefined;
  /** The field's label; "Category" unless given. */
  label?: string;
  /** The empty choice's text; "No category" unless given. */
  none?: string;
}) {
  const t = useMessages(inventoryMessages);
  const picker = useCategoryPicker();
  const categories = picker.data?.items ?? [];
  const listed = value === '' || categories.some((category) => category.id === value);
  const chosen = useCategory(picker.data && !listed ? value : null);
  const options = [
    { value: '', label: none ?? t.noCategory },
    ...categories.map((category) => ({ value: category.id, label: category.name })),
    ...(listed ? [] : [{ value, label: chosen.data?.name ?? (chosen.isError ? t.categoryUnread : t.loadingCategory) }]),
  ];
  return (
    <SelectField
      label={label ?? t.category}
      value={value}
      onValueChange={onValueChange}
      options={options}
      hint={picker.isError ? t.categoriesFailed : picker.data && categories.length === 0 ? t.noCategoriesYet : undefined}
      error={error}
    />
  );
}
