import { CsvError } from './errors';

/**
 * Reading the CSV files Brazilian merchants export from Excel, Bling, Tiny or Omie: bytes to
 * text (`decodeCsv`), text to a header and rows (`parseCsv`), and the two value rules an
 * importer needs, pt-BR numbers (`parseDecimal`) and header names (`normalizeHeader`). Pure
 * and dependency-free; docs/decisions.md, "CSV as Brazilian spreadsheets write it", has the
 * reasons.
 */

export type CsvSeparator = ';' | ',' | '\t';
export type CsvEncoding = 'utf-8' | 'windows-1252';

export interface CsvRow {
  /** The 1-based physical line of the file where the record starts. */
  line: number;
  cells: string[];
}

export interface CsvTable {
  separator: CsvSeparator;
  /** The first record that is not blank, each cell trimmed. */
  header: string[];
  /** The records after the header, blank ones left out, cells as written (ragged rows too). */
  rows: CsvRow[];
}

export interface CsvLimits {
  /** Records after the header; more is an error. */
  maxRows?: number;
  /** Characters in one cell, after unquoting; more is an error. */
  maxCellLength?: number;
  /** Cells in one record; more is an error. */
  maxColumns?: number;
}

export const CSV_LIMITS = { maxRows: 50_000, maxCellLength: 10_000, maxColumns: 1_000 } as const;

const SAVE_AS_UTF8 = 'save it from the spreadsheet as "CSV UTF-8" and send it again';

/**
 * Windows-1252 bytes 0x80 to 0x9F (the WHATWG Encoding Standard's index; the five bytes
 * Windows leaves undefined keep their C1 code points, as the standard says). Every other byte
 * is the code point of the same number. By hand because Node's `TextDecoder('windows-1252')`
 * decodes as Latin-1 since Node 20.18.3 and 22.13.0 (0x80 gives U+0080, not €).
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f, 0x0090, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
];

/**
 * Windows-1252 bytes as text, through UTF-16 code units and a native decode (several times
 * quicker than building the string in JS, on a 10 MB file). A Uint16Array is in the platform's
 * byte order, little-endian on every platform Node and Lambda run on.
 */
export function decodeWindows1252(bytes: Uint8Array): string {
  const units = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    units[i] = byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80]! : byte;
  }
  return new TextDecoder('utf-16le').decode(units);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((byte, i) => bytes[i] === byte);
}

/**
 * The text of an uploaded file. UTF-8, with or without a byte order mark (dropped); bytes
 * that are not UTF-8 are read as Windows-1252, what Excel's "CSV (separado por vírgulas)"
 * writes on a Brazilian Windows. Refused with a `CsvError`: UTF-16 (Excel's "Texto Unicode"),
 * a workbook saved as is (.xlsx or .xls), any NUL byte (UTF-16 without a mark, or not text),
 * and a UTF-8 mark followed by bytes that are not UTF-8.
 */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    throw new CsvError(`The file is encoded as UTF-16 ("Unicode text"), which is not read here: ${SAVE_AS_UTF8}`);
  }
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    throw new CsvError(`The file is an Excel workbook (.xlsx or .xls), not CSV: ${SAVE_AS_UTF8}`);
  }
  if (bytes.includes(0)) {
    throw new CsvError(`The file holds NUL bytes, so it is not CSV text (UTF-16 without a byte order mark, or another kind of file): ${SAVE_AS_UTF8}`);
  }
  const marked = startsWith(bytes, [0xef, 0xbb, 0xbf]);
  const body = marked ? bytes.subarray(3) : bytes;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body), encoding: 'utf-8' };
  } catch {
    if (marked) throw new CsvError(`The file starts as UTF-8 but holds bytes that are not UTF-8: ${SAVE_AS_UTF8}`);
    return { text: decodeWindows1252(body), encoding: 'windows-1252' };
  }
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Excel's first-line directive naming the separator (`sep=;`), honoured when a file has it. */
const SEPARATOR_DIRECTIVE = /^sep=([;,\t])(?:\r\n|\n|\r|$)/i;

function isCandidate(char: string | undefined): char is CsvSeparator {
  return char === ';' || char === ',' || char === '\t';
}

/** Where the header starts: its separator, its index in the text and its physical line. */
interface HeaderStart {
  separator: CsvSeparator;
  start: number;
  line: number;
}

/**
 * The header line (the first that is not blank) and its separator, counting outside quotes:
 * `;` when the line has one (what pt-BR Excel writes; a comma there is more likely inside a name
 * like "Preço, R$"), else tab, else `,`; a line with none is one column, read as `;`. A line is
 * blank when, split by its own separator, every cell is blank: `;;` and ` , ` are, `;,` is not
 * (a cell holds the comma). A quote opens a quoted cell only at the start of a line or after a
 * possible separator. When no line has content, `start` is the end of the text.
 */
function findHeader(text: string, from: number): HeaderStart {
  const seen = new Set<CsvSeparator>();
  const preferred = (): CsvSeparator => (seen.has(';') ? ';' : seen.has('\t') ? '\t' : seen.has(',') ? ',' : ';');
  // A separator the line does not split on is text in one of its cells (a tab is a blank).
  const holdsText = () => content || [...seen].some((other) => other !== preferred() && other !== '\t');
  let content = false;
  let quoted = false;
  let lineStart = from;
  let line = 1;
  let startLine = 1;
  for (let i = from; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"') {
        if (text[i + 1] === '"') {
          content = true;
          i++;
        } else quoted = false;
      } else if (char === '\r' || (char === '\n' && text[i - 1] !== '\r')) line++;
      else if (char.trim() !== '') content = true;
      continue;
    }
    if (char === '\r' || char === '\n') {
      if (holdsText()) return { separator: preferred(), start: lineStart, line: startLine };
      if (char === '\r' && text[i + 1] === '\n') i++;
      lineStart = i + 1;
      startLine = ++line;
      seen.clear();
    } else if (isCandidate(char)) seen.add(char);
    else if (char === '"' && (i === lineStart || isCandidate(text[i - 1]))) quoted = true;
    else if (char.trim() !== '') content = true;
  }
  // A quote never closed is the parser's to report, on the line it opens on.
  if (quoted || holdsText()) return { separator: preferred(), start: lineStart, line: startLine };
  return { separator: ';', start: text.length, line };
}

/** The separator `parseCsv` reads `text` with, when it has no `sep=` line (see `findHeader`). */
export function detectSeparator(text: string): CsvSeparator {
  return findHeader(text, 0).separator;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** Line breaks (CRLF, LF or a lone CR, each one) in text[from, to). */
function lineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === CR || (code === LF && text.charCodeAt(i - 1) !== CR)) count++;
  }
  return count;
}

/**
 * A CSV text as a header and rows (RFC 4180, as spreadsheets write it). A leading byte order
 * mark and an Excel `sep=` line are dropped; the separator is `detectSeparator`'s. Quoted cells
 * hold separators, doubled quotes and line breaks; a quote opens a quoted cell only as its first
 * character, elsewhere it is text, and text after a closing quote is kept (`"a"b` is `ab`), as
 * Excel reads them. CRLF, LF and lone CR end lines. Blank records (only whitespace and
 * separators) are skipped, so a trailing newline makes no row. One pass; the limits are checked
 * as it goes, so a hostile file stops at its first excess.
 */
export function parseCsv(text: string, limits: CsvLimits = {}): CsvTable {
  const maxRows = positiveInteger(limits.maxRows, CSV_LIMITS.maxRows, 'maxRows');
  const maxCellLength = positiveInteger(limits.maxCellLength, CSV_LIMITS.maxCellLength, 'maxCellLength');
  const maxColumns = positiveInteger(limits.maxColumns, CSV_LIMITS.maxColumns, 'maxColumns');

  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line: number;
  let separator: CsvSeparator;
  const directive = SEPARATOR_DIRECTIVE.exec(text.slice(i, i + 7));
  if (directive) {
    separator = directive[1] as CsvSeparator;
    i += directive[0].length;
    line = 2;
  } else {
    // Blank lines before the header are blank by the header's own rule, and skipped unread.
    ({ separator, start: i, line } = findHeader(text, i));
  }
  const separatorCode = separator.charCodeAt(0);
  const n = text.length;

  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let recordLine = line;

  const tooLong = () => new CsvError(`a cell is longer than ${maxCellLength} characters`, recordLine);
  /** Where the unquoted text from `from` ends: at a separator, a line break or the end. */
  const cellEnd = (from: number) => {
    let end = from;
    while (end < n) {
      const code = text.charCodeAt(end);
      if (code === separatorCode || code === CR || code === LF) break;
      end++;
    }
    return end;
  };

  for (;;) {
    let cell: string;
    if (text.charCodeAt(i) === QUOTE) {
      const openedOn = line;
      cell = '';
      let from = i + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote === -1) throw new CsvError('a quoted cell is never closed (a " opens it and no " ends it)', openedOn);
        line += lineBreaks(text, from, quote);
        cell += text.slice(from, quote);
        if (text.charCodeAt(quote + 1) === QUOTE) {
          cell += '"';
          from = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
        if (cell.length > maxCellLength) throw tooLong();
      }
      const end = cellEnd(i);
      cell += text.slice(i, end);
      i = end;
    } else {
      const end = cellEnd(i);
      cell = text.slice(i, end);
      i = end;
    }
    if (cell.length > maxCellLength) throw tooLong();
    if (cells.length === maxColumns) throw new CsvError(`a record has more than ${maxColumns} cells`, recordLine);
    cells.push(cell);

    if (i < n && text.charCodeAt(i) === separatorCode) {
      i++;
      continue;
    }
    // The record ends here: at a line break or at the end of the text.
    if (!cells.every((value) => value.trim() === '')) {
      if (header === undefined) header = cells.map((value) => value.trim());
      else if (rows.length === maxRows)
        throw new CsvError(`the file has more than ${maxRows} rows; split it into files of at most ${maxRows} rows`, recordLine);
      else rows.push({ line: recordLine, cells });
    }
    if (i >= n) break;
    i += text.charCodeAt(i) === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
    line++;
    cells = [];
    recordLine = line;
  }

  if (header === undefined) throw new CsvError('The file is empty: its first line must name the columns');
  return { separator, header, rows };
}

/** Thousands grouped with dots, as pt-BR writes them: "1.234", "12.345.678" (no leading zero). */
const GROUPED = /^[1-9]\d{0,2}(?:\.\d{3})+$/;
const DIGITS = /^\d+$/;
const POINT_DECIMAL = /^\d+\.\d+$/;
/** A sign, an optional "R$" (spaces after it), an optional sign, then the number. */
const MONEY = /^([+-]?)(?:R\$\s*)?([+-]?)(\d[\d.,]*)$/;

/**
 * A number as a pt-BR spreadsheet writes it, as an exact decimal string ("1.234,56" →
 * "1234.56"), or undefined when it is not one. Never through a JS number; the digits are kept
 * as written ("0,10" → "0.10"), rescaling is the caller's.
 *
 * - Surrounding blanks (no-break spaces too) are ignored; "R$" may lead, after or before the
 *   sign ("-R$ 10,00", "R$ -10,00"); one sign at most.
 * - With a comma: the comma is the decimal mark and dots before it group thousands
 *   ("1.234,56"); the groups must be right (1 to 3 digits, then 3s), one comma at most.
 * - Without a comma: digits alone are an integer; correctly grouped dots are thousands
 *   ("1.234" → "1234", "1.234.567" → "1234567"): in pt-BR a dot followed by exactly three
 *   digits is a thousands separator, so "1.234" is one thousand two hundred thirty-four. Any
 *   other single dot is a decimal point ("1234.56", "12.5", "0.500", "1234.567"), as a
 *   system export writes it.
 * - Anything else is undefined: "", "abc", "1,2,3", "1e5", "NaN", "1.23.4", "1,234.56", "(10)".
 */
export function parseDecimal(text: string): string | undefined {
  const match = MONEY.exec(text.trim());
  if (!match) return undefined;
  const [, before = '', after = '', body = ''] = match;
  if (before !== '' && after !== '') return undefined;
  const negative = before === '-' || after === '-';
  let digits: string | undefined;
  const comma = body.indexOf(',');
  if (comma !== -1) {
    const whole = body.slice(0, comma);
    const fraction = body.slice(comma + 1);
    if (!DIGITS.test(fraction) || !(DIGITS.test(whole) || GROUPED.test(whole))) return undefined;
    digits = `${whole.replaceAll('.', '')}.${fraction}`;
  } else if (GROUPED.test(body)) {
    digits = body.replaceAll('.', '');
  } else if (DIGITS.test(body) || POINT_DECIMAL.test(body)) {
    digits = body;
  }
  if (digits === undefined) return undefined;
  return negative ? `-${digits}` : digits;
}

/**
 * A header name as a key to compare: compatibility-decomposed (NFKD: "Nº" is "no"), accents and
 * invisible format characters removed, lower case, runs of blanks, dashes and underscores as
 * one space, trimmed. "Razão Social", "razao_social" and "RAZÃO  SOCIAL" are all "razao social".
 */
export function normalizeHeader(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase()
    .replace(/[\s_\-\u2010-\u2015]+/g, ' ')
    .trim();
}
