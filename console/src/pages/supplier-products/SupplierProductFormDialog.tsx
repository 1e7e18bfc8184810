import { useState } from 'react';
import type { Product } from '../../api/inventory';
import { fieldErrors, isProblem } from '../../api/problems';
import { useReloadSupplierProduct, useSaveSupplierProduct, useSupplierProductLink, type SupplierProduct } from '../../api/supplier-products';
import { ProblemAlert } from '../../components/ProblemAlert';
import { RecordForm, RecordFormDialog, useRecordDraft } from '../../components/RecordFormDialog';
import { useLocale, useMessages } from '../../i18n';
import { ProductPicker } from '../inventory/ProductPicker';
import { supplierProductMessages, type SupplierProductTexts } from './messages';
import { StaleAlert } from './StaleAlert';
import { checkTerms, changeTermsBody, createTermsBody, emptyTerms, termsFormOf, type TermsField, type TermsForm, type TermsProblem } from './terms';
import { TermsFields } from './TermsFields';
import './supplier-products.css';

/** The form as typed: the terms, and (adding) the product chosen. */
type Draft = TermsForm & { product: Product | undefined };
type DraftField = TermsField | 'product';

/**
 * Adding a product to a supplier (no `link`) or editing the supplier's terms for one, in a
 * dialog. The form is mounted afresh each time the dialog opens, so each opening has its own
 * Idempotency-Key and starts from the link as listed.
 */
export function SupplierProductFormDialog({
  open,
  supplierId,
  link,
  onOpenChange,
  onSaved,
  onUnchanged,
}: {
  open: boolean;
  supplierId: string;
  link: SupplierProduct | undefined;
  onOpenChange: (open: boolean) => void;
  onSaved: (saved: SupplierProduct, created: boolean) => void;
  /** An edit that changed nothing: nothing is sent. */
  onUnchanged: () => void;
}) {
  const t = useMessages(supplierProductMessages);
  return (
    <RecordFormDialog open={open} record={link} titles={{ create: t.createTitle, edit: t.editTitle }} onOpenChange={onOpenChange}>
      {(onCancel) =>
        link ? (
          <EditTerms link={link} onCancel={onCancel} onSaved={onSaved} onUnchanged={onUnchanged} />
        ) : (
          <TermsFormBody
            supplierId={supplierId}
            link={undefined}
            onCancel={onCancel}
            onSaved={onSaved}
            onUnchanged={onUnchanged}
            onReloaded={() => undefined}
          />
        )
      }
    </RecordFormDialog>
  );
}

/** An edit, started again from the link as it is now after a reload (a 412). */
function EditTerms({
  link,
  ...rest
}: {
  link: SupplierProduct;
  onCancel: () => void;
  onSaved: (saved: SupplierProduct, created: boolean) => void;
  onUnchanged: () => void;
}) {
  const [loaded, setLoaded] = useState(link);
  return <TermsFormBody key={loaded.version} supplierId={loaded.supplierId} link={loaded} onReloaded={setLoaded} {...rest} />;
}

function problemText(t: SupplierProductTexts, problem: TermsProblem | undefined, places: number | undefined): string | undefined {
  switch (problem) {
    case undefined:
      return undefined;
    case 'required':
      return t.required;
    case 'invalid':
      return t.invalidNumber;
    case 'places':
      return t.tooManyPlaces(places ?? 0);
    case 'positive':
      return t.mustBePositive;
    case 'negative':
      return t.mustNotBeNegative;
    case 'days':
      return t.daysRange;
  }
}

/**
 * The terms, sent as a new link (with the product picked and the form's Idempotency-Key) or as
 * a change of what differs, with `If-Match` the version the form loaded. A product the supplier
 * already sells and a code it uses for another product (both 409) are said beside their fields;
 * someone else's change since (412), above them with a reload.
 */
function TermsFormBody({
  supplierId,
  link,
  onCancel,
  onSaved,
  onUnchanged,
  onReloaded,
}: {
  supplierId: string;
  link: SupplierProduct | undefined;
  onCancel: () => void;
  onSaved: (saved: SupplierProduct, created: boolean) => void;
  onUnchanged: () => void;
  onReloaded: (fresh: SupplierProduct) => void;
}) {
  const t = useMessages(supplierProductMessages);
  const { locale } = useLocale();
  const problemsOf = (draft: Draft): Partial<Record<DraftField, TermsProblem>> => {
    const checked = checkTerms(draft, locale);
    return { ...(link || draft.product ? {} : { product: 'required' as const }), ...(checked.ok ? {} : checked.problems) };
  };
  const draft = useRecordDraft<Draft, TermsProblem>({ ...(link ? termsFormOf(link, locale) : emptyTerms), product: undefined }, problemsOf);
  const { form, problems } = draft;
  const save = useSaveSupplierProduct({
    onSuccess: (saved) => {
      draft.renewKey();
      onSaved(saved, !link);
    },
  });
  const reloadLink = useReloadSupplierProduct();
  const [reloading, setReloading] = useState(false);
  const [reloadError, setReloadError] = useState<unknown>();

  // A create refused with 409: the supplier already sells the product, or its code is the supplier's for another one.
  const conflict = isProblem(save.error, 409);
  const refused = save.variables && !save.variables.link ? save.variables.body : undefined;
  const linked = useSupplierProductLink(supplierId, refused?.productId ?? '', conflict && !link);
  const alreadyLinked = conflict && !link && Boolean(linked.data);
  const codeTaken = conflict && (link !== undefined || linked.data === null);
  const stale = isProblem(save.error, 412);

  const set =
    <K extends DraftField>(field: K) =>
    (value: Draft[K]) => {
      // The product or the code changed: the 409 said of them no longer holds.
      if (conflict && (field === 'product' || field === 'supplierCode')) save.reset();
      draft.set(field)(value);
    };

  // The terms' fields (Draft[K] is TermsForm[K] for each of them).
  const setTerm =
    <K extends TermsField>(field: K) =>
    (value: TermsForm[K]) =>
      set(field)(value as Draft[K]);

  const onSubmit = draft.submit(() => {
    if (save.isPending) return;
    const checked = checkTerms(form, locale);
    if (!checked.ok) return;
    if (link) {
      const body = changeTermsBody(checked.terms, link);
      if (body) save.mutate({ link, body });
      else onUnchanged();
    } else if (form.product) {
      save.mutate({ link: undefined, supplierId, key: draft.key, body: { productId: form.product.id, ...createTermsBody(checked.terms) } });
    }
  });

  const onReload = () => {
    if (!link) return;
    setReloading(true);
    setReloadError(undefined);
    void reloadLink(link)
      .then(onReloaded)
      .catch(setReloadError)
      .finally(() => setReloading(false));
  };

  const server = fieldErrors(save.error);
  const errorOf = (field: TermsField, places?: number) =>
    server[field] ?? (field === 'supplierCode' && codeTaken ? t.codeTaken : undefined) ?? problemText(t, problems[field], places);
  const productError = server.productId ?? (alreadyLinked ? t.alreadyLinked : undefined) ?? (problems.product ? t.required : undefined);

  return (
    <RecordForm onSubmit={onSubmit} error={stale ? undefined : save.error} saving={save.isPending || reloading} onCancel={onCancel}>
      <div className="form terms-form">
        {stale ? <StaleAlert text={t.stale} hint={t.staleHint} reloadLabel={t.reload} onReload={onReload} reloading={reloading} /> : null}
        {reloadError ? <ProblemAlert error={reloadError} /> : null}
        {link ? (
          <dl className="terms-product">
            <dt>{t.product}</dt>
            <dd>{t.editing(link.sku, link.productName)}</dd>
          </dl>
        ) : (
          <ProductPicker value={form.product} onChange={set('product')} error={productError} />
        )}
        <TermsFields form={form} set={setTerm} errorOf={errorOf} />
      </div>
    </RecordForm>
  );
}
