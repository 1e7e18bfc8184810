import type { SupplierProduct, SupplierProductTerms, UpdateSupplierProductBody } from '../../api/supplier-products';
import { formatDecimal } from '../../format/decimal';
import type { Locale } from '../../i18n';
import { parseAmount, QUANTITY_PLACES, UNIT_COST_PLACES, type MovementProblem } from '../inventory/movement';

/**
 * The terms form's rules, apart from React: what the form shows for a link, and what it sends.
 * The API's limits (lib/supplier-products): a supplier code of at most 60 characters and a unit
 * of at most 6 (NF-e's cProd and uCom), units per pack above 0 with at most 3 decimal places,
 * a last cost of at most 4 and a minimum order of at most 3 (neither negative), a lead time of
 * 0 to 365 whole days. Decimals are typed in the user's language and checked on the text.
 */
export const MAX_SUPPLIER_CODE = 60;
export const MAX_SUPPLIER_UNIT = 6;
export const MAX_LEAD_TIME_DAYS = 365;
/** The API's defaults for a new link. */
const DEFAULT_UNITS_PER_PACK = '1';
const DEFAULT_LEAD_TIME_DAYS = '7';

/** The form as typed: every field text (decimals in the user's language), the preferred mark. */
export interface TermsForm {
  supplierCode: string;
  unit: string;
  unitsPerPack: string;
  lastCost: string;
  leadTimeDays: string;
  minimumOrder: string;
  preferred: boolean;
}

export type TermsField = keyof TermsForm;
export type TermsProblem = MovementProblem | 'days';
export type TermsProblems = Partial<Record<TermsField, TermsProblem>>;

export const emptyTerms: TermsForm = {
  supplierCode: '',
  unit: '',
  unitsPerPack: DEFAULT_UNITS_PER_PACK,
  lastCost: '',
  leadTimeDays: DEFAULT_LEAD_TIME_DAYS,
  minimumOrder: '',
  preferred: false,
};

/** The form of a link as the API shows it, its decimals in the user's language (`8,5`). */
export function termsFormOf(link: SupplierProduct, locale: Locale): TermsForm {
  return {
    supplierCode: link.supplierCode ?? '',
    unit: link.unit ?? '',
    unitsPerPack: formatDecimal(link.unitsPerPack, locale),
    lastCost: link.lastCost === null ? '' : formatDecimal(link.lastCost, locale),
    leadTimeDays: String(link.leadTimeDays),
    minimumOrder: link.minimumOrder === null ? '' : formatDecimal(link.minimumOrder, locale),
    preferred: link.preferred,
  };
}

/** Every term as sent: texts trimmed (empty: null), numbers exact. */
interface Terms {
  supplierCode: string | null;
  unit: string | null;
  unitsPerPack: number;
  lastCost: number | null;
  leadTimeDays: number;
  minimumOrder: number | null;
  preferred: boolean;
}

export type TermsCheck = { ok: true; terms: Terms } | { ok: false; problems: TermsProblems };

/** An optional amount: empty is null. */
function optionalAmount(input: string, locale: Locale, places: number): { ok: true; value: number | null } | { ok: false; problem: TermsProblem } {
  if (input.trim() === '') return { ok: true, value: null };
  const parsed = parseAmount(input, locale, places, true);
  return parsed.ok ? parsed : { ok: false, problem: parsed.problem === 'positive' ? 'negative' : parsed.problem };
}

/** The terms the form holds, or what is wrong with each field. */
export function checkTerms(form: TermsForm, locale: Locale): TermsCheck {
  const problems: TermsProblems = {};
  const unitsPerPack = parseAmount(form.unitsPerPack, locale, QUANTITY_PLACES, false);
  if (!unitsPerPack.ok) problems.unitsPerPack = unitsPerPack.problem;
  const lastCost = optionalAmount(form.lastCost, locale, UNIT_COST_PLACES);
  if (!lastCost.ok) problems.lastCost = lastCost.problem;
  const minimumOrder = optionalAmount(form.minimumOrder, locale, QUANTITY_PLACES);
  if (!minimumOrder.ok) problems.minimumOrder = minimumOrder.problem;
  const days = form.leadTimeDays.trim();
  if (days === '') problems.leadTimeDays = 'required';
  else if (!/^\d{1,3}$/.test(days) || Number(days) > MAX_LEAD_TIME_DAYS) problems.leadTimeDays = 'days';
  if (!unitsPerPack.ok || !lastCost.ok || !minimumOrder.ok || Object.keys(problems).length > 0) return { ok: false, problems };
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    ok: true,
    terms: {
      supplierCode: text(form.supplierCode),
      unit: text(form.unit),
      unitsPerPack: unitsPerPack.value,
      lastCost: lastCost.value,
      leadTimeDays: Number(days),
      minimumOrder: minimumOrder.value,
      preferred: form.preferred,
    },
  };
}

/** POST /suppliers/{id}/products: the terms given (an optional one left empty is not sent). */
export function createTermsBody(terms: Terms): SupplierProductTerms {
  return {
    ...(terms.supplierCode === null ? {} : { supplierCode: terms.supplierCode }),
    ...(terms.unit === null ? {} : { unit: terms.unit }),
    unitsPerPack: terms.unitsPerPack,
    ...(terms.lastCost === null ? {} : { lastCost: terms.lastCost }),
    leadTimeDays: terms.leadTimeDays,
    ...(terms.minimumOrder === null ? {} : { minimumOrder: terms.minimumOrder }),
    preferred: terms.preferred,
  };
}

/**
 * PATCH /suppliers/{id}/products/{productId}: only the terms that differ from the link as
 * loaded; an optional one emptied is `null` (cleared). Undefined when nothing changed (the API
 * refuses an empty change).
 */
export function changeTermsBody(terms: Terms, link: SupplierProduct): UpdateSupplierProductBody | undefined {
  const body: UpdateSupplierProductBody = {};
  if (terms.supplierCode !== link.supplierCode) body.supplierCode = terms.supplierCode;
  if (terms.unit !== link.unit) body.unit = terms.unit;
  if (terms.unitsPerPack !== link.unitsPerPack) body.unitsPerPack = terms.unitsPerPack;
  if (terms.lastCost !== link.lastCost) body.lastCost = terms.lastCost;
  if (terms.leadTimeDays !== link.leadTimeDays) body.leadTimeDays = terms.leadTimeDays;
  if (terms.minimumOrder !== link.minimumOrder) body.minimumOrder = terms.minimumOrder;
  if (terms.preferred !== link.preferred) body.preferred = terms.preferred;
  return Object.keys(body).length > 0 ? body : undefined;
}
