import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText, searchHaystack, sortName, supplierMatcher, SORT_NAME_MAX_CHARACTERS, type SearchableSupplier } from '../../lib/suppliers/search';

const SUPPLIER: SearchableSupplier = {
  name: 'São Paulo Distribuidora',
  corporateName: 'Distribuidora Paulista de Alimentos LTDA',
  email: 'compras@saopaulo.example',
  document: '11222333000181',
  phone: '+5511987654321',
};

const haystack = searchHaystack(SUPPLIER);
const matches = (query: string, supplier = SUPPLIER) => supplierMatcher(query)?.(searchHaystack(supplier));

/** The index key's sort part as DynamoDB orders it (`<sortName>#<id>`); ids are fixed-length. */
const sortKey = (name: string, id = '00000000-0000-4000-8000-000000000000') => `${sortName(name)}#${id}`;
const byKey = (names: string[]) => [...names].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0));

describe('normalizeText', () => {
  it.each([
    ['São Paulo', 'sao paulo'],
    ['  ÁGUA   Mineral\tLTDA ', 'agua mineral ltda'],
    ['Çé ÎÕÜ à', 'ce iou a'],
    ['İstanbul', 'istanbul'],
    ['ﬁbra Ｆｕｌｌ', 'fibra full'],
    ['1ª Distribuidora Nº 2', '1a distribuidora no 2'],
    ['a\u0000b\nc', 'a b c'],
    ['', ''],
  ])('turns %j into %j', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });
});

describe('sortName', () => {
  it('is the normalized name, spaces and the few characters below # escaped', () => {
    expect(sortName('Acme')).toBe('acme');
    expect(sortName('Álvaro Peças')).toBe('alvaro$`pecas');
    expect(sortName('A!B"C#D$E')).toBe('a$ab$bc$cd$de');
  });

  it(`keeps at most ${SORT_NAME_MAX_CHARACTERS} characters of the normalized name, whole code points`, () => {
    expect(sortName('x'.repeat(300))).toBe('x'.repeat(SORT_NAME_MAX_CHARACTERS));
    expect(sortName('😀'.repeat(150))).toBe('😀'.repeat(SORT_NAME_MAX_CHARACTERS));
  });

  it('never leaves a character at or below the # that follows it in the key', () => {
    for (const name of ['a b', 'x!y', 'q"r', 'hash # tag', 'cost $ 5', 'tab\there']) {
      expect([...sortName(name)].every((character) => character > '#')).toBe(true);
    }
  });

  it('orders keys by name, case- and accent-insensitively, a name before its extensions', () => {
    const names = ['Zeta', 'éden', 'Acme Ltda', 'beta', 'Álvaro', 'acme', 'ALFA', 'Acme-Sul', 'Acme!', 'Acme  Ltda', '9 Irmãos'];
    expect(byKey(names)).toEqual(['9 Irmãos', 'acme', 'Acme Ltda', 'Acme  Ltda', 'Acme!', 'Acme-Sul', 'ALFA', 'Álvaro', 'beta', 'éden', 'Zeta']);
  });

  it('orders keys exactly as the normalized names (first 100 characters), then the ids', () => {
    const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    const alphabet = fc.constantFrom(' ', '!', '"', '#', '$', '%', '&', '-', '.', '0', '9', 'a', 'A', 'z', 'á', 'Ã', 'ç', '\t', '~', 'ß');
    const name = fc.array(alphabet, { maxLength: 110 }).map((characters) => characters.join(''));
    const id = fc.uuid();
    fc.assert(
      fc.property(name, id, name, id, (nameA, idA, nameB, idB) => {
        const cut = (value: string) => normalizeText(value).slice(0, SORT_NAME_MAX_CHARACTERS);
        const expected = compare(cut(nameA), cut(nameB)) || compare(idA, idB);
        expect(compare(sortKey(nameA, idA), sortKey(nameB, idB))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('ties equal names, which the id then orders', () => {
    expect(sortName('São Paulo')).toBe(sortName('SAO  PAULO'));
    expect(sortKey('Sao', 'a') < sortKey('São', 'b')).toBe(true);
  });
});

describe('searchHaystack', () => {
  it('holds the normalized texts, the document in lower case and the phone digits, apart', () => {
    expect(haystack.split('\u001f')).toEqual([
      'sao paulo distribuidora',
      'distribuidora paulista de alimentos ltda',
      'compras@saopaulo.example',
      '11222333000181',
      '5511987654321',
    ]);
  });

  it('leaves empty fields for a missing e-mail and phone', () => {
    expect(searchHaystack({ ...SUPPLIER, email: null, phone: null, document: '12ABC34501DE35' }).split('\u001f')).toEqual([
      'sao paulo distribuidora',
      'distribuidora paulista de alimentos ltda',
      '',
      '12abc34501de35',
      '',
    ]);
  });
});

describe('supplierMatcher', () => {
  it.each(['', '   ', '\t\n'])('is undefined for the blank query %j (no search)', (query) => {
    expect(supplierMatcher(query)).toBeUndefined();
  });

  it.each([
    ['sao', 'accents ignored'],
    ['SÃO', 'case and accents ignored'],
    ['são paulo', 'a phrase'],
    ['  SAO   paulo  ', 'spacing collapsed'],
    ['paulista de', 'the corporate name'],
    ['alimentos ltda', 'the end of the corporate name'],
    ['compras@', 'the e-mail'],
    ['SAOPAULO.EXAMPLE', 'the e-mail domain, any case'],
    ['11.222.333', 'the document, punctuated'],
    ['11222333', 'the document, bare'],
    ['11.222.333/0001-81', 'the whole formatted document'],
    ['0001-81', 'the end of the document'],
    ['+55 11 98765', 'the phone, international'],
    ['(11) 98765-4321', 'the phone, national punctuation'],
    ['11987654321', 'the phone, digits'],
    ['+5511987654321', 'the phone, E.164'],
  ])('matches %j (%s)', (query) => {
    expect(matches(query)).toBe(true);
  });

  it.each([
    ['rio', 'a word that is nowhere'],
    ['sao paulo distribuidora paulista', 'text across two fields'],
    ['000181 55', 'the end of the document and the start of the phone'],
    ['81 5511', 'digits across the document and the phone'],
    ['---', 'punctuation only, found nowhere as text'],
    ['12345678', 'digits in no document or phone'],
  ])('does not match %j (%s)', (query) => {
    expect(matches(query)).toBe(false);
  });

  it('matches an alphanumeric CNPJ with or without punctuation, any case', () => {
    const supplier = { ...SUPPLIER, document: '12ABC34501DE35' };
    for (const query of ['12.ABC.345/01DE-35', '12abc34501de35', 'abc.345', '01DE-35']) expect(matches(query, supplier), query).toBe(true);
  });

  it('tests a query without letters or digits as text only', () => {
    expect(matches('-', { ...SUPPLIER, name: 'Acme-Sul' })).toBe(true);
    expect(matches('-', SUPPLIER)).toBe(false);
    expect(matches('@', SUPPLIER)).toBe(true);
  });

  it('does not test digits of the name against the document and phone, nor the document as text', () => {
    const supplier = { ...SUPPLIER, name: 'Loja 1', corporateName: 'Loja Um', email: null, phone: null };
    expect(matches('loja 1', supplier)).toBe(true);
    expect(matches('Loja 11222', supplier)).toBe(false);
  });

  it('never matches a missing e-mail or phone', () => {
    const supplier = { ...SUPPLIER, email: null, phone: null };
    expect(matches('compras', supplier)).toBe(false);
    expect(matches('98765', supplier)).toBe(false);
  });
});
