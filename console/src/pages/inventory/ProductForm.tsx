import { useState, type FormEvent } from 'react';
import { useUpdateProduct, type Product } from '../../api/inventory';
import { fieldErrors, isProblem } from '../../api/problems';
import { SelectField, TextAreaField, TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useLocale, useMessages } from '../../i18n';
import { CategoryField } from './CategoryField';
import { inventoryMessages, type InventoryTexts } from './messages';
import {
  PRICE_PLACES,
  PRODUCT_STATUSES,
  productChange,
  productFormOf,
  type ProductField,
  type ProductForm as Form,
  type ProductProblem,
  type ProductProblems,
  type ProductStatus,
} from './product';
import { UnitField } from './UnitField';

function problemText(t: InventoryTexts, problem: ProductProblem | undefined): string | undefined {
  switch (problem) {
    case undefined:
      return undefined;
    case 'required':
      return t.required;
    case 'invalid':
      return t.invalidNumber;
    case 'places':
      return t.tooManyPlaces(PRICE_PLACES);
    case 'negative':
      return t.mustNotBeNegative;
  }
}

/** Said when the product changed since the form loaded it (412): reloading starts the form again from the product as it is now. */
function StaleAlert({ onReload, reloading }: { onReload: () => void; reloading: boolean }) {
  const t = useMessages(inventoryMessages);
  return (
    <div className="alert alert-error" role="alert">
      <p>{t.staleProduct}</p>
      <p className="muted">{t.staleProductHint}</p>
      <button type="button" className="button secondary" onClick={onReload} disabled={reloading}>
        {t.reloadProduct}
      </button>
    </div>
  );
}

/**
 * Edits every field of a product (PATCH /inventory/products/{id}), sending only what changed,
 * with `If-Match` the version the form loaded: if someone changed the product since, the API
 * answers 412, nothing is written, and the form says so and offers to reload. A field the
 * server refuses (400) is said beside it; a SKU or GTIN another product has (409), with the
 * server's detail naming that product.
 */
export function ProductForm({
  product,
  reload,
  onDone,
  onCancel,
}: {
  product: Product;
  /** Reads the product again; the form then starts from it. */
  reload: () => Promise<Product | undefined>;
  /** After a save, or a submit with nothing changed: what to say. */
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  // The product as the form loaded it: its version is the If-Match, whatever the page reads since.
  const [loaded, setLoaded] = useState(product);
  const [form, setForm] = useState(() => productFormOf(product, locale));
  const [problems, setProblems] = useState<ProductProblems>({});
  const [reloading, setReloading] = useState(false);
  const update = useUpdateProduct(product.id, { onSuccess: () => onDone(t.productSaved) });

  const set =
    <K extends ProductField>(field: K) =>
    (value: Form[K]) =>
      setForm((current) => ({ ...current, [field]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const change = productChange(form, loaded, locale);
    if (!change.ok) {
      setProblems(change.problems);
      return;
    }
    setProblems({});
    if (!change.body) onDone(t.nothingChanged);
    else update.mutate({ version: loaded.version, body: change.body });
  };

  const onReload = () => {
    setReloading(true);
    void reload()
      .then((fresh) => {
        if (!fresh) return;
        setLoaded(fresh);
        setForm(productFormOf(fresh, locale));
        setProblems({});
        update.reset();
      })
      .finally(() => setReloading(false));
  };

  const stale = isProblem(update.error, 412);
  const server = fieldErrors(update.error);
  const errorOf = (field: ProductField) => server[field] ?? problemText(t, problems[field]);
  // A 404 of a change that names a category: that category was deleted meanwhile (the product's own 404 names none).
  const categoryGone = isProblem(update.error, 404) && Boolean(update.variables?.body.categoryId);

  return (
    <form className="form product-form" onSubmit={onSubmit} noValidate aria-label={t.editProduct}>
      {stale ? <StaleAlert onReload={onReload} reloading={reloading} /> : update.error ? <ProblemAlert error={update.error} /> : null}
      <div className="form-row">
        <TextField
          label={t.sku}
          value={form.sku}
          onValueChange={set('sku')}
          error={errorOf('sku')}
          required
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          autoFocus
        />
        <TextField label={t.name} value={form.name} onValueChange={set('name')} error={errorOf('name')} required autoComplete="off" maxLength={200} />
      </div>
      <TextAreaField
        label={t.description}
        value={form.description}
        onValueChange={set('description')}
        error={errorOf('description')}
        rows={3}
        maxLength={2000}
      />
      <div className="form-row">
        <TextField label={t.brand} value={form.brand} onValueChange={set('brand')} error={errorOf('brand')} autoComplete="off" maxLength={120} />
        <UnitField value={form.unit} onValueChange={set('unit')} error={errorOf('unit')} />
        <CategoryField value={form.categoryId} onValueChange={set('categoryId')} error={errorOf('categoryId') ?? (categoryGone ? t.categoryGone : undefined)} />
        <SelectField
          label={t.status}
          value={form.status}
          onValueChange={(status) => set('status')(status as ProductStatus)}
          options={PRODUCT_STATUSES.map((status) => ({ value: status, label: t.statusNames(status) }))}
          hint={t.statusHint}
          error={errorOf('status')}
        />
      </div>
      <div className="form-row">
        <TextField
          label={t.gtin}
          value={form.gtin}
          onValueChange={set('gtin')}
          error={errorOf('gtin')}
          hint={t.gtinHint}
          inputMode="numeric"
          autoComplete="off"
          spellCheck={false}
          maxLength={20}
        />
        <TextField
          label={t.ncm}
          value={form.ncm}
          onValueChange={set('ncm')}
          error={errorOf('ncm')}
          hint={t.ncmHint}
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
        />
        <TextField
          label={t.cest}
          value={form.cest}
          onValueChange={set('cest')}
          error={errorOf('cest')}
          hint={t.cestHint}
          inputMode="numeric"
          autoComplete="off"
          maxLength={12}
        />
        <TextField
          label={t.salePrice}
          value={form.salePrice}
          onValueChange={set('salePrice')}
          error={errorOf('salePrice')}
          hint={t.salePriceHint(PRICE_PLACES)}
          inputMode="decimal"
          autoComplete="off"
        />
      </div>
      <div className="product-actions">
        <button type="submit" className="button primary" disabled={update.isPending}>
          {t.saveProduct}
        </button>
        <button type="button" className="button secondary" onClick={onCancel}>
          {t.cancelEdit}
        </button>
      </div>
    </form>
  );
}
