/**
 * Business days: calendar days in the deployment's business time zone
 * (America/Sao_Paulo by default), written `YYYY-MM-DD`. Pure functions.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The business day an instant falls on. */
export function dayOf(ms: number, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // en-CA formats dates as YYYY-MM-DD.
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(new Date(ms));
}

/** `day` moved by `count` calendar days (negative goes back). */
export function addDays(day: string, count: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + count);
  return date.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`)) / 86_400_000);
}

/** A real calendar day written `YYYY-MM-DD` (`2026-02-30` and `2026-13-40` are not). */
export const isDay = (value: string): boolean =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00.000Z`)) && addDays(value, 0) === value;

/**
 * The first instant (epoch ms) of a business day in `timeZone`: the earliest instant whose
 * business day is `day` or later. Found by bisection over the 50 hours around UTC midnight
 * that every offset (−12 to +14 hours) falls in, so a day that starts at 01:00 because of a
 * daylight-saving change is right too.
 */
export function dayStartMs(day: string, timeZone: string): number {
  const utcMidnight = Date.parse(`${day}T00:00:00.000Z`);
  let before = utcMidnight - 15 * 3_600_000; // still the day before, in every zone
  let atOrAfter = utcMidnight + 13 * 3_600_000; // already `day`, in every zone
  while (atOrAfter - before > 1) {
    const middle = Math.floor((before + atOrAfter) / 2);
    if (dayOf(middle, timeZone) >= day) atOrAfter = middle;
    else before = middle;
  }
  return atOrAfter;
}
