import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { formatScaled, parseScaled, rescale } from '../domain/decimal';

/**
 * Exact decimals in the table. DynamoDB numbers are decimals of up to 38 digits and its ADD
 * is exact decimal arithmetic; only the trip through a JS number could lose digits. So
 * stock quantities and values are written from scaled integers as decimal text, and read
 * back into scaled integers from the text (lib/domain/decimal), never through a float.
 */

/** A JS number holds every decimal of at most 15 significant digits exactly (IEEE 754 double). */
const EXACT_DIGITS = 15;

const significantDigits = (text: string): number =>
  text
    .replace(/^[-+]?0*\.?0*/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '').length;

/**
 * How the document client reads numbers: a plain number where it is exact (every counter,
 * epoch and version of the table), the decimal text (a NumberValue) where a float would round
 * it (a stock value such as 123456789.1234567).
 */
export const readNumber = (text: string): number | NumberValue => (significantDigits(text) <= EXACT_DIGITS ? Number(text) : NumberValue.from(text));

/** A scaled integer as a stored decimal: a number when exact, else its text. */
export function storedDecimal(units: bigint, places: number): number | NumberValue {
  const text = formatScaled(units, places);
  return significantDigits(text) <= EXACT_DIGITS ? Number(text) : NumberValue.from(text);
}

/** Places a stored value is read at before it is rounded to the field's own (values written as floats before decimals were kept exact carry noise). */
const LEGACY_PLACES = 20;

/**
 * A stored decimal (number, NumberValue or text; absent is 0) as a scaled integer of
 * `places`. Values written before quantities were exact (float noise such as
 * 0.30000000000000004) are rounded to `places`, half to even.
 */
export function scaledFrom(value: unknown, places: number): bigint {
  if (value === undefined || value === null) return 0n;
  const text = value instanceof NumberValue ? value.value : typeof value === 'number' || typeof value === 'string' ? String(value) : '';
  const exact = parseScaled(text, places);
  if (exact !== undefined) return exact;
  const fine = parseScaled(text, LEGACY_PLACES);
  if (fine === undefined) throw new Error(`not a stored decimal: ${text.slice(0, 40)}`);
  return rescale(fine, LEGACY_PLACES, places);
}
