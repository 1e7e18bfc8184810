import { parseDecimal } from '../../format/decimal';
import type { Locale } from '../../i18n';

/**
 * The tenant's stock-low threshold (PATCH /tenants/{id} `stockLowThresholdDays`): below how
 * many days of coverage a stock movement publishes `product.stock_low`. Its rules, apart from
 * React so that they are tested alone; the API's own limits are checked against these by a test.
 */

/** Places the API accepts (the dashboard's precision). */
export const STOCK_LOW_PLACES = 2;
/** The largest threshold the API accepts, in days. */
export const STOCK_LOW_MAX_DAYS = 365;

export type ThresholdInput = { ok: true; days: number | null } | { ok: false; reason: 'invalid' | 'places' | 'range' };

/** Whether a decimal's text (`7.5`, as parseDecimal gives it: no leading zeros) is more than 0 and at most 365, read on its digits. */
function inRange(text: string): boolean {
  if (text.startsWith('-')) return false;
  const [whole = '0', fraction = ''] = text.split('.');
  if (/^0*$/.test(whole + fraction)) return false;
  const max = String(STOCK_LOW_MAX_DAYS);
  if (whole.length !== max.length) return whole.length < max.length;
  return whole < max || (whole === max && /^0*$/.test(fraction));
}

/**
 * What was typed, as the body's value: an empty field turns the alert off (null); otherwise a
 * decimal in the locale's writing (`7,5` in Portuguese), more than 0, at most 365, at most 2
 * places, all checked on the text. The number sent is built from that text (`Number('7.5')`).
 */
export function readThreshold(input: string, locale: Locale): ThresholdInput {
  const parsed = parseDecimal(input, locale, STOCK_LOW_PLACES);
  if (!parsed.ok) return parsed.reason === 'empty' ? { ok: true, days: null } : { ok: false, reason: parsed.reason };
  if (!inRange(parsed.text)) return { ok: false, reason: 'range' };
  return { ok: true, days: Number(parsed.text) };
}
