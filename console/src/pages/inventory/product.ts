import type { Product, UpdateProduct } from '../../api/inventory';
import { formatDecimal, parseDecimal } from '../../format/decimal';
import type { Locale } from '../../i18n';

/**
 * The product form's rules, apart from React: what the form shows for a product, and which
 * change (only the fields that differ, `null` for an optional one emptied) it sends. The form
 * checks what it must to build the request (required fields, the price as a number in the
 * user's language); every other rule (GTIN check digit, NCM and CEST digits, lengths) is the
 * server's, shown beside its field.
 */
export type ProductUnit = Product['unit'];
export type ProductStatus = Product['status'];

const UNITS = ['UN', 'CX', 'PC', 'PCT', 'DZ', 'FD', 'SC', 'KIT', 'KG', 'G', 'L', 'ML', 'M', 'M2', 'M3'] as const satisfies readonly ProductUnit[];
/** The units, in the API's order: a compile error when the API gains one this list lacks. */
export const PRODUCT_UNITS: [Exclude<ProductUnit, (typeof UNITS)[number]>] extends [never] ? typeof UNITS : never = UNITS;

export const PRODUCT_STATUSES = ['ACTIVE', 'INACTIVE'] as const satisfies readonly ProductStatus[];

/** A sale price: in reais, at most 2 decimal places. */
export const PRICE_PLACES = 2;

/** The form as typed: every field text, the price in the user's language. */
export interface ProductForm {
  sku: string;
  name: string;
  description: string;
  brand: string;
  unit: ProductUnit;
  gtin: string;
  ncm: string;
  cest: string;
  salePrice: string;
  status: ProductStatus;
  /** The category's id; empty for none. */
  categoryId: string;
}

export type ProductField = keyof ProductForm;
export type ProductProblem = 'required' | 'invalid' | 'places' | 'negative';
export type ProductProblems = Partial<Record<ProductField, ProductProblem>>;

/** The form of a product as the API shows it: its price in the user's language (`18,90`). */
export function productFormOf(product: Product, locale: Locale): ProductForm {
  return {
    sku: product.sku,
    name: product.name,
    description: product.description ?? '',
    brand: product.brand ?? '',
    unit: product.unit,
    gtin: product.gtin ?? '',
    ncm: product.ncm ?? '',
    cest: product.cest ?? '',
    salePrice: product.salePrice === null ? '' : formatDecimal(product.salePrice, locale, { minFractionDigits: PRICE_PLACES }),
    status: product.status,
    categoryId: product.categoryId ?? '',
  };
}

/** Codes are digits: the spaces and punctuation people write them with (`0901.21.00`) are dropped. */
const digitsOf = (text: string) => text.replace(/[\s.-]/g, '');

type Normalised = Omit<ProductForm, 'salePrice'> & { salePrice: number | null };

/** Each field as sent (text trimmed, empty as null), or what is wrong with it. */
function normalise(form: ProductForm, locale: Locale): { value: Normalised; problems: ProductProblems } {
  const problems: ProductProblems = {};
  if (form.sku.trim() === '') problems.sku = 'required';
  if (form.name.trim() === '') problems.name = 'required';
  let salePrice: number | null = null;
  const parsed = parseDecimal(form.salePrice, locale, PRICE_PLACES);
  if (parsed.ok) {
    if (parsed.text.startsWith('-')) problems.salePrice = 'negative';
    else salePrice = parsed.value;
  } else if (parsed.reason !== 'empty') problems.salePrice = parsed.reason;
  return {
    value: {
      sku: form.sku.trim(),
      name: form.name.trim(),
      description: form.description.trim(),
      brand: form.brand.trim(),
      unit: form.unit,
      gtin: digitsOf(form.gtin),
      ncm: digitsOf(form.ncm),
      cest: digitsOf(form.cest),
      salePrice,
      status: form.status,
      categoryId: form.categoryId,
    },
    problems,
  };
}

export type ProductChange = { ok: true; body: UpdateProduct | undefined } | { ok: false; problems: ProductProblems };

/**
 * PATCH /inventory/products/{id}: only the fields that differ from the product as loaded; an
 * optional field emptied is `null` (cleared). `body` undefined when nothing changed (the API
 * refuses an empty change).
 */
export function productChange(form: ProductForm, product: Product, locale: Locale): ProductChange {
  const { value, problems } = normalise(form, locale);
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const body: UpdateProduct = {};
  const orNull = (text: string) => (text === '' ? null : text);
  if (value.sku !== product.sku) body.sku = value.sku;
  if (value.name !== product.name) body.name = value.name;
  if (orNull(value.description) !== product.description) body.description = orNull(value.description);
  if (orNull(value.brand) !== product.brand) body.brand = orNull(value.brand);
  if (value.unit !== product.unit) body.unit = value.unit;
  if (orNull(value.gtin) !== product.gtin) body.gtin = orNull(value.gtin);
  if (orNull(value.ncm) !== product.ncm) body.ncm = orNull(value.ncm);
  if (orNull(value.cest) !== product.cest) body.cest = orNull(value.cest);
  if (value.salePrice !== product.salePrice) body.salePrice = value.salePrice;
  if (value.status !== product.status) body.status = value.status;
  if (orNull(value.categoryId) !== product.categoryId) body.categoryId = orNull(value.categoryId);
  return { ok: true, body: Object.keys(body).length > 0 ? body : undefined };
}
