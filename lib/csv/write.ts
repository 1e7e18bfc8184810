import type { CsvSeparator } from './read';

/**
 * Writing CSV that a Brazilian Excel opens as it is and `parseCsv` reads back: `;` between
 * cells, CRLF after each record, decimals with a comma, a byte order mark first so Excel takes
 * the file as UTF-8. One record at a time (`csvRow`), so an export writes its header and then
 * its rows chunk by chunk. docs/decisions.md, "CSV as Brazilian spreadsheets write it", has
 * the reasons.
 */

/** Written once, before the header: without it Excel reads a UTF-8 file as Windows-1252. */
export const CSV_BOM = '\uFEFF';

/** A decimal as `formatDecimal` writes it; Excel reads it as a number, never as a formula. */
const WRITTEN_NUMBER = /^-?\d+(?:,\d+)?$/;
/**
 * What a spreadsheet may take as the start of a formula (OWASP "CSV Injection"): `=`, `+`, `-`
 * or `@` first, also after blanks, and a tab or a carriage return first.
 */
const FORMULA_START = /^[\t\r]|^\s*[=+\-@]/;

/**
 * Characters that make a cell quoted, per separator: the separator itself and the ones
 * `detectSeparator` prefers to it (`;`, then tab, then `,`), so that a header cell holding one
 * of them can never change the separator read back; quotes and line breaks; blanks first or
 * last (some readers trim them); and `sep=` first, which Excel would take as a directive.
 */
const NEEDS_QUOTES: Record<CsvSeparator, RegExp> = {
  ';': /[;"\r\n]|^\s|\s$|^sep=/i,
  '\t': /[;\t"\r\n]|^\s|\s$|^sep=/i,
  ',': /[;\t,"\r\n]|^\s|\s$|^sep=/i,
};
/** A record of one cell has no separator to show which is meant: any of them is quoted. */
const NEEDS_QUOTES_ALONE = NEEDS_QUOTES[','];

/**
 * The cell as written, defused: a text a spreadsheet would run as a formula gets a leading
 * single quote (`'=HYPERLINK(...)`), which makes the spreadsheet take it as text; a number as
 * `formatDecimal` writes it ("-3,5") is left alone. Read back, the quote is part of the cell.
 */
export function defuseFormula(cell: string): string {
  return FORMULA_START.test(cell) && !WRITTEN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/**
 * The cell as it was before `defuseFormula`: the importer's reading of a cell, so that a file
 * exported and imported back gives the same values (a foreign phone `'+1 212…` is `+1 212…`
 * again). Only a quote before what the export defuses is dropped; a value that simply starts
 * with a quote keeps it.
 */
export function undefuseFormula(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * One record, CRLF-terminated. null and undefined are empty cells. Each cell is defused
 * (`defuseFormula`), then quoted (doubling its quotes) when it holds a separator, a quote, CR
 * or LF, or starts or ends with a blank.
 */
export function csvRow(cells: readonly (string | null | undefined)[], separator: CsvSeparator = ';'): string {
  const needsQuotes = cells.length === 1 ? NEEDS_QUOTES_ALONE : NEEDS_QUOTES[separator];
  return `${cells
    .map((value) => {
      const cell = defuseFormula(value ?? '');
      return needsQuotes.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
    })
    .join(separator)}\r\n`;
}

const EXACT_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/**
 * An exact decimal string as pt-BR Excel reads a number: the point becomes a comma, nothing
 * else changes ("1234.56" → "1234,56", "-0.5" → "-0,5"). No thousands separators: Excel reads
 * "1234,56" as a number, and a system importing the file has no grouping to undo. Anything but
 * a plain decimal is a programming error (RangeError).
 */
export function formatDecimal(value: string): string {
  if (!EXACT_DECIMAL.test(value))
    throw new RangeError(`formatDecimal takes a plain decimal string such as "-1234.5", got ${JSON.stringify(value.slice(0, 40))}`);
  return value.replace('.', ',');
}
