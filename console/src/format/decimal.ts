import type { Locale } from '../i18n';

/**
 * Exact decimals for display and input. The API answers quantities and money as JSON numbers
 * written with at most a few decimal places; `String(n)` gives back exactly those digits (the
 * shortest text that reads back as the same double), so the console formats that text and
 * never computes with it: no rounding, no float arithmetic between the API and the screen.
 */

const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  'pt-BR': { group: '.', decimal: ',' },
  en: { group: ',', decimal: '.' },
};

/** The plain decimal text of a number or numeric string: `-1234.5`, never an exponent. */
export function decimalText(value: number | string): string {
  const text = typeof value === 'number' ? String(value) : value.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return text;
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/i.exec(text);
  if (!match) throw new RangeError(`not a decimal: ${text}`);
  const [, sign = '', lead = '', rest = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  const digits = lead + rest;
  const point = 1 + exponent;
  const whole =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + whole.replace(/^0+(?=\d)/, '');
}

export interface DecimalFormat {
  /** Pad the fraction with zeros to at least this many places (money: 2); never cut it. */
  minFractionDigits?: number;
}

/** `1234.5` → `1.234,5` (pt-BR) or `1,234.5` (en), digit for digit. */
export function formatDecimal(value: number | string, locale: Locale, { minFractionDigits = 0 }: DecimalFormat = {}): string {
  const text = decimalText(value);
  const negative = text.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const { group, decimal } = SEPARATORS[locale];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const paddedFraction = fraction.padEnd(minFractionDigits, '0');
  const isZero = /^0*$/.test(whole + fraction);
  return `${negative && !isZero ? '-' : ''}${grouped}${paddedFraction ? decimal + paddedFraction : ''}`;
}

/** Money in reais: `R$ 1.234,56` (pt-BR), `R$ 1,234.56` (en); more places shown when the API gives them. */
export function formatMoney(value: number | string, locale: Locale): string {
  const formatted = formatDecimal(value, locale, { minFractionDigits: 2 });
  return formatted.startsWith('-') ? `-R$ ${formatted.slice(1)}` : `R$ ${formatted}`;
}

export type ParsedDecimal = { ok: true; text: string; value: number } | { ok: false; reason: 'empty' | 'invalid' | 'places' };

/**
 * What a person typed, as the API's decimal: `1.234,5` or `1234,5` (pt-BR), `1,234.5` or
 * `1234.5` (en). Grouping separators are optional but must group by three; at most
 * `maxFractionDigits` places, checked on the text, never after a float conversion.
 */
export function parseDecimal(input: string, locale: Locale, maxFractionDigits: number): ParsedDecimal {
  const trimmed = input.trim().replace(/\s/g, '');
  if (trimmed === '') return { ok: false, reason: 'empty' };
  const { group, decimal } = SEPARATORS[locale];
  const escape = (character: string) => character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const shape = new RegExp(`^(-?)(\\d{1,3}(?:${escape(group)}\\d{3})+|\\d+)(?:${escape(decimal)}(\\d+))?$`);
  const match = shape.exec(trimmed);
  if (!match) return { ok: false, reason: 'invalid' };
  const [, sign = '', whole = '', fraction = ''] = match;
  if (fraction.length > maxFractionDigits) return { ok: false, reason: 'places' };
  const digits = whole
    .split(group)
    .join('')
    .replace(/^0+(?=\d)/, '');
  const text = `${sign}${digits}${fraction ? `.${fraction}` : ''}`;
  return { ok: true, text, value: Number(text) };
}
