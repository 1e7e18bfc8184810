import type { Locale } from '../i18n';

/**
 * Dates as Brazilians write them, in either language: day/month/year (`25/11/2026`), 24-hour
 * times, in the browser's time zone. The language changes the words, not the order.
 */
const DATE = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric' });
const TIME = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export function formatDate(iso: string | Date, _locale?: Locale): string {
  return DATE.format(typeof iso === 'string' ? new Date(iso) : iso);
}

export function formatDateTime(iso: string | Date, _locale?: Locale): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return `${DATE.format(date)} ${TIME.format(date)}`;
}

/** A business day as the API names it (`YYYY-MM-DD`, no time zone) written as Brazilians do: `28/11/2026`. */
export function formatDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/** `YYYY-MM-DD` of a date input → the start of that day in the browser's zone, as ISO. */
export function startOfDayIso(day: string): string {
  return new Date(`${day}T00:00:00`).toISOString();
}

/** `YYYY-MM-DD` of a date input → the last millisecond of that day in the browser's zone, as ISO. */
export function endOfDayIso(day: string): string {
  return new Date(`${day}T23:59:59.999`).toISOString();
}
