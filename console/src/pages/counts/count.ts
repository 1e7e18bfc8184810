import type { ScanCode } from '../../api/counts';
import { formatDecimal } from '../../format/decimal';
import type { Locale } from '../../i18n';
import { parseAmount, QUANTITY_PLACES } from '../inventory/movement';
import type { ProductUnit } from '../inventory/product';
import { takesFractions } from '../inventory/transfer';

/**
 * The count page's rules, apart from React: what a scanned or typed code is sent as, and what
 * a typed counted quantity becomes in the request (the API's limits: 0 or more, at most 3
 * decimal places, whole for a product of a whole unit).
 */

/** A GTIN-8, -12, -13 or -14: digits only, of one of those lengths. */
const GTIN = /^(\d{8}|\d{12,14})$/;

/** The code as the scan sends it: `gtin` when it has a GTIN's shape, else `sku`; nothing when empty. */
export function scanCodeOf(text: string): ScanCode | undefined {
  const code = text.trim();
  if (code === '') return undefined;
  return GTIN.test(code) ? { gtin: code } : { sku: code };
}

/** The text of a code, as it was scanned. */
export const codeText = (code: ScanCode): string => ('gtin' in code ? code.gtin : code.sku);

/** A note of up to 500 characters (the API's limit). */
export const MAX_COUNT_NOTE = 500;

export type CountedProblem = 'required' | 'invalid' | 'places' | 'negative' | 'whole';

/** The counted quantity a person typed, in their language: 0 or more, whole for a whole unit. */
export function parseCounted(input: string, unit: string, locale: Locale): { ok: true; value: number } | { ok: false; problem: CountedProblem } {
  const parsed = parseAmount(input, locale, QUANTITY_PLACES, true);
  if (!parsed.ok) return { ok: false, problem: parsed.problem === 'positive' ? 'negative' : parsed.problem };
  if (!takesFractions(unit as ProductUnit) && !Number.isInteger(parsed.value)) return { ok: false, problem: 'whole' };
  return parsed;
}

/** A quantity as the field shows it, in the user's language (`1.234,5`). */
export const quantityText = (value: number, locale: Locale) => formatDecimal(value, locale);

/** A difference with its sign: `+2`, `-1,5`, `0`. */
export function signedQuantity(value: number, locale: Locale): string {
  const text = formatDecimal(value, locale);
  return value > 0 ? `+${text}` : text;
}
