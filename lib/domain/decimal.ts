/**
 * Exact decimals as scaled integers: a value with `places` decimals is the `bigint` count of
 * 10^-places units (12.34 at 2 places is 1234n). Why: binary floats cannot hold 0.1, 0.2 or
 * 0.3, so after IN 0.3 then OUT 0.1 the stock was 0.19999999999999998 and OUT 0.2 was
 * refused. Digits in, digits out: nothing here does floating-point arithmetic.
 *
 * The one rounding rule, wherever a result has more places than it keeps (`divideRounded`,
 * `rescale`): round to the nearest unit, and a tie (exactly half a unit) goes to the even
 * neighbour (ABNT NBR 5891, IEEE 754 roundTiesToEven, "banker's rounding"): 0.5 → 0,
 * 1.5 → 2, 2.5 → 2, -2.5 → -2. Ties do not all lean one way, so sums of rounded parts do
 * not drift.
 */

/** Stock quantities: thousandths of a unit. */
export const QUANTITY_PLACES = 3;
/** Unit costs: ten-thousandths of the currency per unit. */
export const UNIT_COST_PLACES = 4;
/** A quantity times a unit cost, exact: 10^-3 × 10^-4 = 10^-7 of the currency. */
export const VALUE_PLACES = QUANTITY_PLACES + UNIT_COST_PLACES;
/** Money shown to people: cents. */
export const MONEY_PLACES = 2;

/**
 * No result past this many digits: a string like `1e999999999` would otherwise build a
 * billion-digit bigint. Far beyond any DynamoDB number (10^126) or JS number (1.8 × 10^308).
 */
const MAX_DIGITS = 1000;

/** A plain or exponent-form decimal: sign, digits with an optional point, optional exponent. */
const DECIMAL = /^([+-]?)(\d+)?(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?$/;

function powerOfTen(places: number): bigint {
  if (!Number.isSafeInteger(places) || places < 0) throw new RangeError(`places must be a non-negative integer, got ${places}`);
  return 10n ** BigInt(places);
}

/**
 * The exact value of `value` as a count of 10^-places units, or undefined when it is not a
 * finite decimal or has a non-zero digit past `places` decimals (trailing zeros are fine).
 * A number is read through its shortest round-trip string (`String(0.1)` is `"0.1"`), so
 * 0.1 + 0.2 (0.30000000000000004) is refused at 2 places rather than silently rounded.
 */
export function parseScaled(value: number | string, places: number): bigint | undefined {
  powerOfTen(places);
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  const match = DECIMAL.exec(String(value));
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponentSign, exponentDigits = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  // Only an exponent too long to count could exceed MAX_DIGITS by this much: cap it there.
  const exponentText = exponentDigits.replace(/^0+/, '');
  const exponentSize = exponentText.length > 6 ? 10 * MAX_DIGITS : Number(exponentText || '0');
  // The value is digits × 10^-scale.
  let scale = fraction.length + (exponentSign === '-' ? exponentSize : -exponentSize);
  const significant = digits.replace(/0+$/, '');
  scale -= digits.length - significant.length;
  digits = significant;
  const shift = places - scale;
  if (shift < 0) return undefined;
  if (digits.length + shift > MAX_DIGITS) return undefined;
  const units = BigInt(digits) * 10n ** BigInt(shift);
  return sign === '-' ? -units : units;
}

/** The canonical decimal string: `"12.3"`, `"-0.005"`, `"100"`, `"0"` (never `"-0"`, no trailing zeros). */
export function formatScaled(units: bigint, places: number): string {
  powerOfTen(places);
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = digits.slice(digits.length - places).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The JSON number a client sees: the nearest double to the exact decimal. */
export function scaledToNumber(units: bigint, places: number): number {
  return Number(formatScaled(units, places));
}

/** numerator / denominator rounded to the nearest integer, ties to even (see the module comment). */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError(`denominator must be positive, got ${denominator}`);
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  const twiceRemainder = 2n * (magnitude % denominator);
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) quotient += 1n;
  // Rounding the magnitude then restoring the sign is symmetric, so -2.5 → -2 like 2.5 → 2.
  return negative ? -quotient : quotient;
}

/** `units` at `fromPlaces` re-expressed at `toPlaces`: exact when adding places, ties to even when removing them. */
export function rescale(units: bigint, fromPlaces: number, toPlaces: number): bigint {
  if (toPlaces >= fromPlaces) return units * powerOfTen(toPlaces - fromPlaces);
  powerOfTen(toPlaces);
  return divideRounded(units, powerOfTen(fromPlaces - toPlaces));
}
