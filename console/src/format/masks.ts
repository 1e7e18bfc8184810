/**
 * Brazilian identifiers formatted as people type them. Each mask takes whatever is in the
 * field and gives it back formatted (so pasting works), and `raw*` gives what the API takes.
 */

/** Letters and digits, upper-cased: a CNPJ may have letters in its first 12 characters. */
const alphanumeric = (input: string) => input.toUpperCase().replace(/[^0-9A-Z]/g, '');

/** What the API takes for a CPF or CNPJ: no punctuation, upper case. */
export const rawDocument = (input: string) => alphanumeric(input).slice(0, 14);

function place(value: string, pattern: string): string {
  let out = '';
  let index = 0;
  for (const symbol of pattern) {
    if (index >= value.length) break;
    if (symbol === '#') out += value[index++];
    else out += symbol;
  }
  return out;
}

/**
 * A CPF while it can still be one (11 digits or fewer, digits only): `123.456.789-09`; then a
 * CNPJ: `12.ABC.345/01DE-35`.
 */
export function maskDocument(input: string): string {
  const value = rawDocument(input);
  if (value.length <= 11 && /^\d*$/.test(value)) return place(value, '###.###.###-##');
  return place(value, '##.###.###/####-##');
}

export const rawCep = (input: string) => input.replace(/\D/g, '').slice(0, 8);
/** `01310-100` */
export const maskCep = (input: string) => place(rawCep(input), '#####-###');

/**
 * A phone in the international form the API takes: `+55 11 98765-4321`. Digits typed without
 * a `+` are read as a Brazilian number (area code first); another country's number keeps its
 * digits after its `+`, unformatted.
 */
export function maskPhone(input: string): string {
  const trimmed = input.trim();
  let digits = trimmed.replace(/\D/g, '');
  if (digits === '') return trimmed.startsWith('+') ? '+' : '';
  if (!trimmed.startsWith('+')) digits = `55${digits}`;
  if (!digits.startsWith('55')) return `+${digits.slice(0, 15)}`;
  const national = digits.slice(2, 13);
  const area = national.slice(0, 2);
  const subscriber = national.slice(2);
  if (subscriber === '') return `+55 ${area}`;
  // Mobiles have nine digits and start with 9; landlines have eight (2 to 5 first).
  const split = subscriber.startsWith('9') || subscriber.length > 8 ? 5 : 4;
  const tail = subscriber.length > split ? `${subscriber.slice(0, split)}-${subscriber.slice(split)}` : subscriber;
  return `+55 ${area} ${tail}`;
}
