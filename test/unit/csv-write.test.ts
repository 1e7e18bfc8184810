import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCsv, parseCsv, parseDecimal, type CsvSeparator, type CsvTable } from '../../lib/csv/read';
import { CSV_BOM, csvRow, defuseFormula, formatDecimal, undefuseFormula } from '../../lib/csv/write';

describe('csvRow', () => {
  it('writes a ;-separated record ending in CRLF, null and undefined as empty cells', () => {
    expect(csvRow(['Açúcar', null, '1234,56', undefined, ''])).toBe('Açúcar;;1234,56;;\r\n');
  });

  it('writes an empty record as a line break', () => {
    expect(csvRow([])).toBe('\r\n');
  });

  it('quotes a cell holding the separator, a quote, CR or LF, or blanks at either end, doubling its quotes', () => {
    expect(csvRow(['a;b', 'Tubo 12"', 'a\r\nb', 'a\rb', 'a\nb', ' a', 'a ', '\u00A0a', 'a b', 'a,b', 'a\tb'])).toBe(
      '"a;b";"Tubo 12""";"a\r\nb";"a\rb";"a\nb";" a";"a ";"\u00A0a";a b;a,b;a\tb\r\n',
    );
  });

  it('quotes, beside its own separator, the ones the reader would prefer to it', () => {
    expect(csvRow(['a;b', 'a\tb', 'a,b'], ';')).toBe('"a;b";a\tb;a,b\r\n');
    expect(csvRow(['a;b', 'a\tb', 'a,b'], '\t')).toBe('"a;b"\t"a\tb"\ta,b\r\n');
    expect(csvRow(['a;b', 'a\tb', 'a,b'], ',')).toBe('"a;b","a\tb","a,b"\r\n');
  });

  it('quotes every possible separator in a record of one cell, which has none to show', () => {
    expect([csvRow(['a,b']), csvRow(['a\tb']), csvRow(['a;b']), csvRow(['ab'])]).toEqual(['"a,b"\r\n', '"a\tb"\r\n', '"a;b"\r\n', 'ab\r\n']);
  });

  it('quotes a cell starting with sep=, which Excel would take as a directive', () => {
    expect(csvRow(['sep=', 'SEP=x', 'a sep='])).toBe('"sep=";"SEP=x";a sep=\r\n');
  });

  it('defuses formulas with a leading single quote and leaves numbers as formatDecimal writes them', () => {
    expect(
      csvRow(['=SUM(A1:A9)', '+55 11 98765-4321', '-cmd', '@SUM(A1)', '\t=1', '\rx', ' =1', '-3,5', '-3', '0,10', '1234', '- 3', '-3,', '+3', 'a=1', "'=1"]),
    ).toBe(`'=SUM(A1:A9);'+55 11 98765-4321;'-cmd;'@SUM(A1);'\t=1;"'\rx";' =1;-3,5;-3;0,10;1234;'- 3;'-3,;'+3;a=1;'=1\r\n`);
  });

  it('defuses before quoting, so a formula holding a separator is quoted with its quote inside', () => {
    expect(csvRow(['=HYPERLINK("http://x";"y")', 'ok'])).toBe(`"'=HYPERLINK(""http://x"";""y"")";ok\r\n`);
  });
});

describe('defuseFormula', () => {
  it('prefixes what a spreadsheet would run, and nothing else', () => {
    expect(['=1', '+1', '-1', '@a', '\t', '\r', '\n=1', '  +x', '-1,5', '-0,5', '1', '', 'a', "'", '−1'].map(defuseFormula)).toEqual([
      "'=1",
      "'+1",
      '-1',
      "'@a",
      "'\t",
      "'\r",
      "'\n=1",
      "'  +x",
      '-1,5',
      '-0,5',
      '1',
      '',
      'a',
      "'",
      '−1',
    ]);
  });
});

describe('undefuseFormula', () => {
  it('gives back every value defuseFormula defused, and leaves a quote that defused nothing', () => {
    const values = ['=1', '+1', '+55 11 98765-4321', '@a', '\t', '\r', '  +x', '-1,5', 'a', "'", "'a", "''=1", ''];
    expect(values.map((value) => undefuseFormula(defuseFormula(value)))).toEqual(values);
    expect(["'a", "'", "'1"].map(undefuseFormula)).toEqual(["'a", "'", "'1"]);
  });
});

describe('formatDecimal', () => {
  it('writes an exact decimal string with a comma and nothing else changed', () => {
    expect(['1234.56', '-0.5', '0', '-3', '0.10', '1234567890123456789.000000001'].map(formatDecimal)).toEqual([
      '1234,56',
      '-0,5',
      '0',
      '-3',
      '0,10',
      '1234567890123456789,000000001',
    ]);
  });

  it('refuses anything but a plain decimal string as a programming error', () => {
    for (const value of ['', '1e5', '.5', '5.', '+1', '1,5', ' 1', 'NaN', '1.2.3']) {
      expect(() => formatDecimal(value)).toThrow(new RangeError(`formatDecimal takes a plain decimal string such as "-1234.5", got ${JSON.stringify(value)}`));
    }
  });

  it('writes what parseDecimal reads back to the same decimal, and csvRow leaves as a number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^-?(0|[1-9]\d{0,15})(\.\d{1,6})?$/), (value) => {
        const written = formatDecimal(value);
        expect({ read: parseDecimal(written), row: csvRow([written, 'x']) }).toEqual({ read: value, row: `${written};x\r\n` });
      }),
    );
  });
});

/** What `parseCsv` gives back for `records` written by `csvRow`: cells defused, the header trimmed, blank records dropped. */
function expectedTable(records: readonly (readonly string[])[], separator: CsvSeparator): CsvTable {
  const defused = records.map((cells) => cells.map(defuseFormula));
  const blank = (cells: readonly string[]) => cells.every((cell) => cell.trim() === '');
  let line = 1;
  const numbered = defused.map((cells, i) => {
    const start = line;
    line += csvRow(records[i]!, separator).match(/\r\n|\r|\n/g)!.length;
    return { line: start, cells };
  });
  const [header, ...rows] = numbered.filter(({ cells }) => !blank(cells));
  return { separator, header: header!.cells.map((cell) => cell.trim()), rows };
}

/** Written as an export writes it (a byte order mark, then the records), then read as an import reads it. */
function roundTrip(records: readonly (readonly string[])[], separator: CsvSeparator): CsvTable {
  const text = CSV_BOM + records.map((cells) => csvRow(cells, separator)).join('');
  return parseCsv(decodeCsv(new TextEncoder().encode(text)).text);
}

const NASTY_CELLS = [
  '',
  ' ',
  '  lead',
  'trail ',
  'a;b',
  'a,b',
  'a\tb',
  '"',
  '""',
  'diz "oi"',
  'a\r\nb',
  'a\nb',
  'a\rb',
  '\r\n',
  '=SUM(A1:A2)',
  '+55 11 98765-4321',
  '-3,5',
  '-3',
  '- item',
  '@cmd',
  '\t=1',
  '\r=1',
  ' =1',
  "'=1",
  'sep=;',
  'SEP=,',
  '1.234,56',
  'ç€“”',
  '\u00A0x\u00A0',
  ';',
  ',;\t',
];

describe('round trip: csvRow written, decodeCsv and parseCsv read', () => {
  it('gives back every nasty cell, on every separator', () => {
    for (const separator of [';', ',', '\t'] as const) {
      const records = [['Nome', 'Obs'], ...NASTY_CELLS.map((cell, i) => [String(i), cell]), NASTY_CELLS];
      const table = roundTrip(records, separator);
      expect(table).toEqual(expectedTable(records, separator));
      expect(table.rows.at(-1)!.cells[15]).toBe("'+55 11 98765-4321");
    }
  });

  it('gives back a header whose cells hold only a separator the file does not use', () => {
    for (const separator of [';', ',', '\t'] as const) {
      const records = [
        ['', ','],
        ['', ';'],
        ['', '\t'],
        ['x', 'y'],
      ];
      expect(roundTrip(records, separator)).toEqual(expectedTable(records, separator));
    }
  });

  it('gives back any table of strings, the defusing quote and the trimmed header aside', () => {
    const unit = fc.constantFrom('a', 'ç', '€', '1', ' ', '\u00A0', '\t', ';', ',', '"', "'", '\r', '\n', '=', '+', '-', '@', 'sep=', 'SEP=');
    const cell = fc.string({ unit, maxLength: 8 });
    const record = fc.array(cell, { minLength: 1, maxLength: 5 });
    const header = fc.array(cell, { minLength: 2, maxLength: 5 }).filter((cells) => cells.some((value) => defuseFormula(value).trim() !== ''));
    fc.assert(
      fc.property(fc.constantFrom<CsvSeparator>(';', ',', '\t'), header, fc.array(record, { maxLength: 8 }), (separator, names, rows) => {
        const records = [names, ...rows];
        expect(roundTrip(records, separator)).toEqual(expectedTable(records, separator));
      }),
      { numRuns: 500 },
    );
  });
});
