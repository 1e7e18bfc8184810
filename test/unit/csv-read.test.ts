import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BadRequest } from '../../lib/errors';
import { CsvError } from '../../lib/csv/errors';
import { CSV_LIMITS, decodeCsv, decodeWindows1252, detectSeparator, normalizeHeader, parseCsv, parseDecimal } from '../../lib/csv/read';

const SAVE_AS_UTF8 = 'save it from the spreadsheet as "CSV UTF-8" and send it again';

/** The CsvError `act` throws, as the fields a report or a problem document shows. */
function csvErrorOf(act: () => unknown): { message: string; line: number | undefined; status: number } {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(CsvError);
    expect(error).toBeInstanceOf(BadRequest);
    const { message, line, status } = error as CsvError;
    return { message, line, status };
  }
  throw new Error('expected a CsvError, nothing was thrown');
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/csv/${name}`, import.meta.url)));

describe('decodeCsv', () => {
  it('reads UTF-8 with a byte order mark and drops the mark', () => {
    expect(decodeCsv(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('Razão;Preço\r\n')]))).toEqual({ text: 'Razão;Preço\r\n', encoding: 'utf-8' });
  });

  it('reads UTF-8 without a byte order mark', () => {
    expect(decodeCsv(utf8('Descrição;€ “ótimo”\n'))).toEqual({ text: 'Descrição;€ “ótimo”\n', encoding: 'utf-8' });
  });

  it('reads an empty file as empty UTF-8 text', () => {
    expect(decodeCsv(new Uint8Array(0))).toEqual({ text: '', encoding: 'utf-8' });
  });

  it('reads bytes that are not UTF-8 as Windows-1252, as Excel writes "CSV (separado por vírgulas)"', () => {
    // R a z 0xE3(ã) o ; P r e 0xE7(ç) o CR LF A 0xE7(ç) 0xFA(ú) c a r ; 0x93(“) 1 0xBA(º) 0x94(”) ; 0x80(€) space 5 , 0 0 CR LF
    const bytes = Uint8Array.from([
      0x52, 0x61, 0x7a, 0xe3, 0x6f, 0x3b, 0x50, 0x72, 0x65, 0xe7, 0x6f, 0x0d, 0x0a, 0x41, 0xe7, 0xfa, 0x63, 0x61, 0x72, 0x3b, 0x93, 0x31, 0xba, 0x94, 0x3b,
      0x80, 0x20, 0x35, 0x2c, 0x30, 0x30, 0x0d, 0x0a,
    ]);
    expect(decodeCsv(bytes)).toEqual({ text: 'Razão;Preço\r\nAçúcar;“1º”;€ 5,00\r\n', encoding: 'windows-1252' });
  });

  it('maps every Windows-1252 byte from 0x80 to 0x9F by the WHATWG table, the undefined five to their C1 code points', () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => 0x80 + i);
    expect(decodeWindows1252(bytes)).toBe('€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ');
  });

  it('maps the other Windows-1252 bytes to the code point of the same number', () => {
    expect(decodeWindows1252(Uint8Array.from([0x41, 0x7e, 0xa0, 0xaa, 0xba, 0xc7, 0xc9, 0xe1, 0xe3, 0xe7, 0xea, 0xf5, 0xff]))).toBe('A~\u00A0ªºÇÉáãçêõÿ');
  });

  it('decodes a Windows-1252 file longer than one decoding slice', () => {
    const bytes = new Uint8Array(20_000).fill(0xe7);
    bytes[19_999] = 0x80;
    expect(decodeCsv(bytes)).toEqual({ text: `${'ç'.repeat(19_999)}€`, encoding: 'windows-1252' });
  });

  it('refuses UTF-16, little- and big-endian, telling to save as CSV UTF-8', () => {
    const expected = { message: `The file is encoded as UTF-16 ("Unicode text"), which is not read here: ${SAVE_AS_UTF8}`, line: undefined, status: 400 };
    expect(csvErrorOf(() => decodeCsv(Uint8Array.from([0xff, 0xfe, 0x61, 0x00, 0x3b, 0x00])))).toEqual(expected);
    expect(csvErrorOf(() => decodeCsv(Uint8Array.from([0xfe, 0xff, 0x00, 0x61, 0x00, 0x3b])))).toEqual(expected);
  });

  it('refuses UTF-16 without a byte order mark, and any file with NUL bytes', () => {
    expect(csvErrorOf(() => decodeCsv(Uint8Array.from([0x61, 0x00, 0x3b, 0x00, 0x62, 0x00])))).toEqual({
      message: `The file holds NUL bytes, so it is not CSV text (UTF-16 without a byte order mark, or another kind of file): ${SAVE_AS_UTF8}`,
      line: undefined,
      status: 400,
    });
  });

  it('refuses an Excel workbook sent as it is', () => {
    const expected = { message: `The file is an Excel workbook (.xlsx or .xls), not CSV: ${SAVE_AS_UTF8}`, line: undefined, status: 400 };
    expect(csvErrorOf(() => decodeCsv(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00])))).toEqual(expected);
    expect(csvErrorOf(() => decodeCsv(Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1])))).toEqual(expected);
  });

  it('refuses a UTF-8 byte order mark followed by bytes that are not UTF-8', () => {
    expect(csvErrorOf(() => decodeCsv(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61, 0xe7, 0x61])))).toEqual({
      message: `The file starts as UTF-8 but holds bytes that are not UTF-8: ${SAVE_AS_UTF8}`,
      line: undefined,
      status: 400,
    });
  });
});

describe('detectSeparator', () => {
  it('takes ; over tab over , on the header line, outside quotes, and ; when there is none', () => {
    expect(
      ['a;b', 'a,b', 'a\tb', 'Preço, R$;Nome', 'a,b\tc', 'a,b,c;d', '"a;b",c', '"a,""b;"",c"\tx', 'Nome', '', '12" tubo;a'].map((line) =>
        detectSeparator(line),
      ),
    ).toEqual([';', ',', '\t', ';', '\t', ';', ',', '\t', ';', ';', ';']);
  });

  it('skips lines blank by their own separator: a separator the line does not split on is text', () => {
    expect([' \r\n;;\r\nx,y', ' ; \na,b', '"\n"\na\tb', ';\t\na,b', '\t,', ';,', ',;\t', '\t;\na,b'].map((text) => detectSeparator(text))).toEqual([
      ',',
      ',',
      '\t',
      ',',
      '\t',
      ';',
      ';',
      ',',
    ]);
  });
});

describe('parseCsv', () => {
  it('reads a ;-separated table with its physical lines', () => {
    expect(parseCsv('Nome;CNPJ;Preço\r\nAçúcar Ltda;11222333000181;1,50\r\nCafé SA;;2\r\n')).toEqual({
      separator: ';',
      header: ['Nome', 'CNPJ', 'Preço'],
      rows: [
        { line: 2, cells: ['Açúcar Ltda', '11222333000181', '1,50'] },
        { line: 3, cells: ['Café SA', '', '2'] },
      ],
    });
  });

  it('reads a ,-separated table', () => {
    expect(parseCsv('name,price\nsugar,"1,50"\n')).toEqual({ separator: ',', header: ['name', 'price'], rows: [{ line: 2, cells: ['sugar', '1,50'] }] });
  });

  it('reads a tab-separated table', () => {
    expect(parseCsv('name\tprice\nsugar\t1,50')).toEqual({ separator: '\t', header: ['name', 'price'], rows: [{ line: 2, cells: ['sugar', '1,50'] }] });
  });

  it('keeps ; when a header name holds a comma, and splits data cells on ; only', () => {
    expect(parseCsv('Nome, completo;Preço, R$\nJoão, o Grande;1,5\n')).toEqual({
      separator: ';',
      header: ['Nome, completo', 'Preço, R$'],
      rows: [{ line: 2, cells: ['João, o Grande', '1,5'] }],
    });
  });

  it('reads a one-column file as ;', () => {
    expect(parseCsv('Nome\nAna\nBia, a Velha\n')).toEqual({
      separator: ';',
      header: ['Nome'],
      rows: [
        { line: 2, cells: ['Ana'] },
        { line: 3, cells: ['Bia, a Velha'] },
      ],
    });
  });

  it('honours and drops an Excel sep= line, counting it as line 1', () => {
    expect(parseCsv('sep=,\r\na;b,c\r\n1;2,3\r\n')).toEqual({ separator: ',', header: ['a;b', 'c'], rows: [{ line: 3, cells: ['1;2', '3'] }] });
    expect(parseCsv('SEP=\t\na;b\tc')).toEqual({ separator: '\t', header: ['a;b', 'c'], rows: [] });
  });

  it('drops a byte order mark left at the start of the text', () => {
    expect(parseCsv('\uFEFFNome;Preço\nA;1\n')).toEqual({ separator: ';', header: ['Nome', 'Preço'], rows: [{ line: 2, cells: ['A', '1'] }] });
  });

  it('reads quoted cells holding the separator, doubled quotes and line breaks of every kind', () => {
    const text = 'Nome;Obs\r\n"Loja; Filial";"Disse ""oi"""\r\n"Rua A\r\nnº 1";"x\ny\rz"\r\n"";"""";\r\n';
    expect(parseCsv(text)).toEqual({
      separator: ';',
      header: ['Nome', 'Obs'],
      rows: [
        { line: 2, cells: ['Loja; Filial', 'Disse "oi"'] },
        { line: 3, cells: ['Rua A\r\nnº 1', 'x\ny\rz'] },
        { line: 7, cells: ['', '"', ''] },
      ],
    });
  });

  it('reads CRLF, LF and lone CR line ends alike, and a mix of them', () => {
    const expected = (separator: ';') => ({
      separator,
      header: ['a', 'b'],
      rows: [
        { line: 2, cells: ['1', '2'] },
        { line: 3, cells: ['3', '4'] },
      ],
    });
    expect(parseCsv('a;b\r\n1;2\r\n3;4\r\n')).toEqual(expected(';'));
    expect(parseCsv('a;b\n1;2\n3;4\n')).toEqual(expected(';'));
    expect(parseCsv('a;b\r1;2\r3;4\r')).toEqual(expected(';'));
    expect(parseCsv('a;b\r1;2\r\n3;4')).toEqual(expected(';'));
  });

  it('numbers each row by the physical line it starts on, past multi-line cells and blank lines', () => {
    const text = '\r\n  \r\nCódigo;Descrição\r\n\r\nA1;"linha 1\r\nlinha 2\r\nlinha 3"\r\n;;\r\n\t; \r\nA2;"x\ny"\nA3;z\n\n';
    expect(parseCsv(text)).toEqual({
      separator: ';',
      header: ['Código', 'Descrição'],
      rows: [
        { line: 5, cells: ['A1', 'linha 1\r\nlinha 2\r\nlinha 3'] },
        { line: 10, cells: ['A2', 'x\ny'] },
        { line: 12, cells: ['A3', 'z'] },
      ],
    });
  });

  it('takes the header on the first line that is not blank by its own separator', () => {
    expect(parseCsv(' ; \n"\r\n"\na,b\n ; \n1,2\n')).toEqual({
      separator: ',',
      header: ['a', 'b'],
      rows: [
        { line: 5, cells: [' ; '] },
        { line: 6, cells: ['1', '2'] },
      ],
    });
    expect(parseCsv(';,\n1;2\n')).toEqual({ separator: ';', header: ['', ','], rows: [{ line: 2, cells: ['1', '2'] }] });
    expect(parseCsv('\t,\n1\t2\n')).toEqual({ separator: '\t', header: ['', ','], rows: [{ line: 2, cells: ['1', '2'] }] });
  });

  it('skips records of blank and quoted-empty cells, and makes no row of a trailing newline', () => {
    expect(parseCsv('a;b\n"";"  "\n ; \n1;2\n\n')).toEqual({ separator: ';', header: ['a', 'b'], rows: [{ line: 4, cells: ['1', '2'] }] });
  });

  it('keeps ragged rows as they are, trailing empty cells included', () => {
    expect(parseCsv('a;b;c\n1\n1;2;3;4\n1;2;\n')).toEqual({
      separator: ';',
      header: ['a', 'b', 'c'],
      rows: [
        { line: 2, cells: ['1'] },
        { line: 3, cells: ['1', '2', '3', '4'] },
        { line: 4, cells: ['1', '2', ''] },
      ],
    });
  });

  it('trims header cells and leaves data cells as written', () => {
    expect(parseCsv(' Razão Social ;\tCNPJ ;" Obs "\n  Ana  ; 1 ;" x "\n')).toEqual({
      separator: ';',
      header: ['Razão Social', 'CNPJ', 'Obs'],
      rows: [{ line: 2, cells: ['  Ana  ', ' 1 ', ' x '] }],
    });
  });

  it('reads a quote inside an unquoted cell as text, and keeps text after a closing quote, as Excel does', () => {
    expect(parseCsv('a;b;c\nTubo 12" aço;"ab"cd;x "y" z\n')).toEqual({
      separator: ';',
      header: ['a', 'b', 'c'],
      rows: [{ line: 2, cells: ['Tubo 12" aço', 'abcd', 'x "y" z'] }],
    });
  });

  it('refuses a quote never closed, naming the line it opens on', () => {
    expect(csvErrorOf(() => parseCsv('a;b\n1;2\n3;"abc\n\ndef;4\n5;6\n'))).toEqual({
      message: 'Line 3: a quoted cell is never closed (a " opens it and no " ends it)',
      line: 3,
      status: 400,
    });
    expect(csvErrorOf(() => parseCsv('a;b\n"x\ny";"z\n'))).toEqual({
      message: 'Line 3: a quoted cell is never closed (a " opens it and no " ends it)',
      line: 3,
      status: 400,
    });
    expect(csvErrorOf(() => parseCsv('"a;b\n'))).toEqual({
      message: 'Line 1: a quoted cell is never closed (a " opens it and no " ends it)',
      line: 1,
      status: 400,
    });
    expect(csvErrorOf(() => parseCsv(';;\n"   \n'))).toEqual({
      message: 'Line 2: a quoted cell is never closed (a " opens it and no " ends it)',
      line: 2,
      status: 400,
    });
  });

  it('refuses a file without a header', () => {
    const expected = { message: 'The file is empty: its first line must name the columns', line: undefined, status: 400 };
    expect(csvErrorOf(() => parseCsv(''))).toEqual(expected);
    expect(csvErrorOf(() => parseCsv('\uFEFF'))).toEqual(expected);
    expect(csvErrorOf(() => parseCsv('\r\n ;;\r\n\r\n'))).toEqual(expected);
  });

  it('takes maxRows rows and refuses one more, naming its line; blank lines do not count', () => {
    expect(parseCsv('a\n1\n\n2\n', { maxRows: 2 }).rows).toEqual([
      { line: 2, cells: ['1'] },
      { line: 4, cells: ['2'] },
    ]);
    expect(csvErrorOf(() => parseCsv('a\n1\n\n2\n3\n4\n', { maxRows: 2 }))).toEqual({
      message: 'Line 5: the file has more than 2 rows; split it into files of at most 2 rows',
      line: 5,
      status: 400,
    });
  });

  it('refuses more than 50,000 rows by default', () => {
    expect(CSV_LIMITS).toEqual({ maxRows: 50_000, maxCellLength: 10_000, maxColumns: 1_000 });
    expect(parseCsv(`a\n${'1\n'.repeat(50_000)}`).rows.length).toBe(50_000);
    expect(csvErrorOf(() => parseCsv(`a\n${'1\n'.repeat(50_001)}`))).toEqual({
      message: 'Line 50002: the file has more than 50000 rows; split it into files of at most 50000 rows',
      line: 50_002,
      status: 400,
    });
  });

  it('takes a cell of maxCellLength characters and refuses a longer one, quoted or not', () => {
    expect(parseCsv(`a;b\n1;${'x'.repeat(5)}\n`, { maxCellLength: 5 }).rows).toEqual([{ line: 2, cells: ['1', 'xxxxx'] }]);
    expect(parseCsv(`a;b\n1;"x""x;\n"\n`, { maxCellLength: 5 }).rows).toEqual([{ line: 2, cells: ['1', 'x"x;\n'] }]);
    const expected = { message: 'Line 2: a cell is longer than 5 characters', line: 2, status: 400 };
    expect(csvErrorOf(() => parseCsv('a;b\n1;xxxxxx\n', { maxCellLength: 5 }))).toEqual(expected);
    expect(csvErrorOf(() => parseCsv('a;b\n1;"xxx""xx"\n', { maxCellLength: 5 }))).toEqual(expected);
    expect(csvErrorOf(() => parseCsv('a;b\n1;"xx""""xx""yy"\n', { maxCellLength: 5 }))).toEqual(expected);
    expect(csvErrorOf(() => parseCsv('a;b\n1;"xxx"xyz\n', { maxCellLength: 5 }))).toEqual(expected);
    expect(csvErrorOf(() => parseCsv('abcdef;b\n', { maxCellLength: 5 }))).toEqual({
      message: 'Line 1: a cell is longer than 5 characters',
      line: 1,
      status: 400,
    });
  });

  it('refuses a cell over 10,000 characters by default, before reading the rest of the file', () => {
    expect(parseCsv(`a\n${'x'.repeat(10_000)}\n`).rows).toEqual([{ line: 2, cells: ['x'.repeat(10_000)] }]);
    // The quote after the long cell is never closed: the cell limit is met first.
    expect(csvErrorOf(() => parseCsv(`a\n"${'x""'.repeat(5_001)}"\n"never closed`))).toEqual({
      message: 'Line 2: a cell is longer than 10000 characters',
      line: 2,
      status: 400,
    });
  });

  it('refuses a record of more than maxColumns cells', () => {
    expect(parseCsv('a;b;c\n1;2;3\n', { maxColumns: 3 }).rows).toEqual([{ line: 2, cells: ['1', '2', '3'] }]);
    expect(csvErrorOf(() => parseCsv('a;b;c\n1;2;3;\n', { maxColumns: 3 }))).toEqual({
      message: 'Line 2: a record has more than 3 cells',
      line: 2,
      status: 400,
    });
    expect(csvErrorOf(() => parseCsv(`a\n${';'.repeat(5_000_000)}x\n`))).toEqual({
      message: 'Line 2: a record has more than 1000 cells',
      line: 2,
      status: 400,
    });
  });

  it('refuses limits that are not positive integers as a programming error', () => {
    expect(() => parseCsv('a', { maxRows: 0 })).toThrow(new RangeError('maxRows must be a positive integer, got 0'));
    expect(() => parseCsv('a', { maxCellLength: 1.5 })).toThrow(new RangeError('maxCellLength must be a positive integer, got 1.5'));
    expect(() => parseCsv('a', { maxColumns: Number.NaN })).toThrow(new RangeError('maxColumns must be a positive integer, got NaN'));
  });

  it('reads a generated file of 20,000 rows and about 2 MB in one call', () => {
    const lines = ['Código;Descrição;Unidade;Preço;Estoque;Observações'];
    for (let i = 1; i <= 20_000; i++) {
      lines.push(`P${i};"Produto ${i}; tamanho ""G""";UN;${i},99;${i % 7}.${String(i).padStart(3, '0').slice(-3)};"linha um\r\nlinha dois ${'x'.repeat(24)}"`);
    }
    const text = `${lines.join('\r\n')}\r\n`;
    expect(text.length).toBeGreaterThan(2_000_000);
    const table = parseCsv(text);
    expect({ separator: table.separator, header: table.header, count: table.rows.length, last: table.rows.at(-1) }).toEqual({
      separator: ';',
      header: ['Código', 'Descrição', 'Unidade', 'Preço', 'Estoque', 'Observações'],
      count: 20_000,
      last: { line: 40_000, cells: ['P20000', 'Produto 20000; tamanho "G"', 'UN', '20000,99', '1.000', `linha um\r\nlinha dois ${'x'.repeat(24)}`] },
    });
  });
});

describe('the fixtures, decoded and parsed', () => {
  it("reads Excel's Windows-1252 export of suppliers", () => {
    const { text, encoding } = decodeCsv(fixture('fornecedores-excel-windows-1252.csv'));
    expect({ encoding, ...parseCsv(text) }).toEqual({
      encoding: 'windows-1252',
      separator: ';',
      header: ['Razão Social', 'CNPJ', 'Telefone', 'E-mail', 'Observações'],
      rows: [
        { line: 2, cells: ['Açúcar & Café Ltda.', '11.222.333/0001-81', '(11) 3456-7890', 'compras@acucarecafe.com.br', 'Entrega às 2ª e 4ª'] },
        { line: 3, cells: ['Distribuidora São João; Filial Sul', '11.444.777/0001-61', '', '', 'Contato: “Sr. José”\r\nRua das Flores, nº 12 – fundos'] },
        { line: 6, cells: ['Pão de Queijo Mineiro ME', '', '(31) 9876-5432', '', 'Pedido mínimo € 50'] },
      ],
    });
  });

  it('reads a UTF-8 export of products with a byte order mark, and its decimals', () => {
    const { text, encoding } = decodeCsv(fixture('produtos-utf8-bom.csv'));
    const table = parseCsv(text);
    expect({ encoding, ...table, decimals: table.rows.map((row) => [parseDecimal(row.cells[3]!), parseDecimal(row.cells[4]!)]) }).toEqual({
      encoding: 'utf-8',
      separator: ';',
      header: ['Código', 'Descrição', 'Unidade', 'Preço de venda', 'Estoque'],
      rows: [
        { line: 2, cells: ['CAF-001', 'Café torrado 500 g', 'UN', 'R$ 18,90', '1.250'] },
        { line: 3, cells: ['ACU-002', 'Açúcar cristal 5 kg "Premium"', 'FD', 'R$ 1.234,56', '-3,5'] },
      ],
      decimals: [
        ['18.90', '1250'],
        ['1234.56', '-3.5'],
      ],
    });
  });
});

describe('parseDecimal', () => {
  it('reads numbers as pt-BR spreadsheets write them into exact decimal strings', () => {
    const cases: Record<string, string | undefined> = {
      // comma decimals, digits kept as written
      '12,5': '12.5',
      '0,10': '0.10',
      '-0,5': '-0.5',
      '+7,25': '7.25',
      '0007,50': '0007.50',
      // thousands with dots, then a comma
      '1.234,56': '1234.56',
      '-1.234.567,8': '-1234567.8',
      '12.345,000': '12345.000',
      // integers
      '-3': '-3',
      '0': '0',
      '1234': '1234',
      // money, blanks and no-break spaces
      'R$ 10,00': '10.00',
      'R$10,00': '10.00',
      'R$\u00A01.234,56': '1234.56',
      '-R$ 5,90': '-5.90',
      'R$ -5,90': '-5.90',
      '  42,0\t': '42.0',
      '\u00A012,5\u202F': '12.5',
      // a dot and no comma: thousands when it groups correctly (the ambiguous "1.234"), else a decimal point
      '1.234': '1234',
      '-12.345': '-12345',
      '1.234.567': '1234567',
      '1234.56': '1234.56',
      '12.5': '12.5',
      '0.500': '0.500',
      '1234.567': '1234.567',
      '-0.25': '-0.25',
      // not numbers
      '': undefined,
      '   ': undefined,
      abc: undefined,
      '1,2,3': undefined,
      '1e5': undefined,
      NaN: undefined,
      Infinity: undefined,
      '-': undefined,
      R$: undefined,
      ',5': undefined,
      '5,': undefined,
      '1.23.4': undefined,
      '12.34,5': undefined,
      '1,234.56': undefined,
      '1.234.': undefined,
      '+-1': undefined,
      '-R$ -1': undefined,
      '- 1': undefined,
      '(10,00)': undefined,
      '10%': undefined,
      '1 234,56': undefined,
      'US$ 10': undefined,
      '0x10': undefined,
      '٣': undefined,
    };
    expect(Object.fromEntries(Object.keys(cases).map((input) => [input, parseDecimal(input)]))).toEqual(cases);
  });

  it('keeps every digit of a long number, which a JS number would round', () => {
    expect(parseDecimal('9.007.199.254.740.993,000000000000000001')).toBe('9007199254740993.000000000000000001');
  });
});

describe('normalizeHeader', () => {
  it('compares header names without case, accents, or the kind and number of blanks, dashes and underscores', () => {
    expect(
      [
        'Razão Social',
        'razao_social',
        'RAZÃO  SOCIAL',
        ' Razão-Social ',
        'razão\u00A0social',
        'Razão – social',
        'Razão__social',
        'E-mail',
        'Nº',
        'Código\u200B',
        'Preço (R$)',
        'ÇÃÕÉÍ',
      ].map(normalizeHeader),
    ).toEqual([
      'razao social',
      'razao social',
      'razao social',
      'razao social',
      'razao social',
      'razao social',
      'razao social',
      'e mail',
      'no',
      'codigo',
      'preco (r$)',
      'caoei',
    ]);
  });

  it('lets an alias table name the field each header means (an example of the importer’s use)', () => {
    const aliases = new Map([
      ['razao social', 'name'],
      ['nome', 'name'],
      ['cnpj', 'document'],
      ['cpf cnpj', 'document'],
      ['cpf/cnpj', 'document'],
      ['e mail', 'email'],
      ['email', 'email'],
    ]);
    const { header } = parseCsv('RAZÃO SOCIAL;CPF/CNPJ;CPF-CNPJ;E-mail;Fax\n');
    expect(header.map((name) => aliases.get(normalizeHeader(name)))).toEqual(['name', 'document', 'document', 'email', undefined]);
  });
});
