import { QUANTITY_PLACES } from '../domain/decimal';
import { daysBetween } from '../domain/days';
import type { SalesSeries } from './model';

/**
 * A product's rolled-up daily sales: units sold on each of the SERIES_DAYS business days
 * ending at `through`, in thousandths of a unit (QUANTITY_PLACES), as fixed-width float64
 * values that are always integers, so every sum is exact (below 2^53 thousandths, nine
 * billion units a day). Its size never depends on how many sales there were, so the
 * coverage read costs the same at a hundred sales or a million.
 */
export const SERIES_DAYS = 366;

/**
 * The `scale` a stored series is written with: its values are thousandths. A series stored
 * without it (before decimals were kept exact) holds units as floats; it is read rounded to thousandths, which
 * restores its exact value (it was a sum of quantities of at most 3 decimal places).
 */
export const SERIES_SCALE = QUANTITY_PLACES;

export type { SalesSeries } from './model';

export const emptySeries = (): SalesSeries => ({ through: null, units: new Float64Array(SERIES_DAYS) });

/** Index of `day` in a series ending at `through`, or -1 when outside. */
function indexOf(through: string, day: string): number {
  const index = SERIES_DAYS - 1 - daysBetween(day, through);
  return index >= 0 && index < SERIES_DAYS ? index : -1;
}

/**
 * Add `delta` thousandths of a unit (an integer) on `day`. A day after `through` moves the window forward (older days
 * fall off); a day before the window is ignored (it can no longer count for any `days`).
 */
export function addUnits(series: SalesSeries, day: string, delta: number): SalesSeries {
  let { through, units } = series;
  if (through === null) through = day;
  const shift = daysBetween(through, day);
  if (shift > 0) {
    const moved = new Float64Array(SERIES_DAYS);
    if (shift < SERIES_DAYS) moved.set(units.subarray(shift), 0);
    units = moved;
    through = day;
  } else {
    units = units.slice();
  }
  const index = indexOf(through, day);
  if (index >= 0) units[index] = (units[index] ?? 0) + delta;
  return { through, units };
}

/** Thousandths of a unit sold from `from` to `to`, both included (exact). Days the series does not hold count 0. */
export function unitsBetween(series: SalesSeries, from: string, to: string): number {
  if (series.through === null || from > to) return 0;
  const first = Math.max(0, SERIES_DAYS - 1 - daysBetween(from, series.through));
  const last = Math.min(SERIES_DAYS - 1, SERIES_DAYS - 1 - daysBetween(to, series.through));
  let total = 0;
  for (let index = first; index <= last; index += 1) total += series.units[index] ?? 0;
  return total;
}

/** Binary form for DynamoDB (little-endian float64s). */
export function encodeUnits(units: Float64Array): Uint8Array {
  const buffer = Buffer.alloc(units.length * 8);
  units.forEach((value, index) => buffer.writeDoubleLE(value, index * 8));
  return new Uint8Array(buffer);
}

export function decodeUnits(bytes: Uint8Array): Float64Array {
  const buffer = Buffer.from(bytes);
  const units = new Float64Array(SERIES_DAYS);
  for (let index = 0; index < SERIES_DAYS && index * 8 + 8 <= buffer.length; index += 1) units[index] = buffer.readDoubleLE(index * 8);
  return units;
}

/** The series a rolled-up sales item holds, in thousandths (a series stored in units is converted). */
export function seriesOf(item: Record<string, unknown>): SalesSeries {
  const units = decodeUnits(item.units as Uint8Array);
  if (item.scale !== SERIES_SCALE) units.forEach((value, index) => (units[index] = Math.round(value * 10 ** SERIES_SCALE)));
  return { through: item.through as string, units };
}
