import { describe, expect, it } from 'vitest';
import { checkDocument, documentSchema, formatDocument } from '../../lib/domain/documents';

const WRONG_SHAPE = 'must be a CPF (11 digits) or a CNPJ (14 characters, letters allowed in the first 12) without punctuation';
const BAD_DIGITS = 'check digits do not match';

describe('checkDocument', () => {
  it.each([
    ['52998224725', '529.982.247-25 unpunctuated'],
    ['11144477735', 'a second published CPF'],
  ])('accepts the valid CPF %s (%s)', (input) => {
    expect(checkDocument(input)).toEqual({ ok: true, kind: 'CPF', value: input });
  });

  it('accepts the numeric CNPJ 11222333000181', () => {
    expect(checkDocument('11222333000181')).toEqual({ ok: true, kind: 'CNPJ', value: '11222333000181' });
  });

  it('accepts the alphanumeric CNPJ 12ABC34501DE35 (IN RFB 2.229/2024)', () => {
    expect(checkDocument('12ABC34501DE35')).toEqual({ ok: true, kind: 'CNPJ', value: '12ABC34501DE35' });
  });

  it('upper-cases the letters of an alphanumeric CNPJ', () => {
    expect(checkDocument('12abc34501de35')).toEqual({ ok: true, kind: 'CNPJ', value: '12ABC34501DE35' });
  });

  it.each(['52998224726', '52998224715', '11144477736', '11222333000182', '11222333000191', '12ABC34501DE36', '12ABC34501DE45'])(
    'refuses %s whose check digits do not match',
    (input) => {
      expect(checkDocument(input)).toEqual({ ok: false, message: BAD_DIGITS });
    },
  );

  // Repeated-digit strings satisfy the mod-11 arithmetic, so only an explicit rule refuses them.
  it.each(['11111111111', '00000000000', '99999999999', '00000000000000', '11111111111111'])('refuses the repeated-digit string %s', (input) => {
    expect(checkDocument(input)).toEqual({ ok: false, message: BAD_DIGITS });
  });

  it.each(['529.982.247-25', '11.222.333/0001-81', '12.ABC.345/01DE-35', '529982247-25', '11222333/000181'])('refuses the punctuated %s', (input) => {
    expect(checkDocument(input)).toEqual({ ok: false, message: WRONG_SHAPE });
  });

  it.each([
    ['', 'empty'],
    ['5299822472', '10 digits'],
    ['529982247250', '12 digits'],
    ['1122233300018', '13 characters'],
    ['112223330001810', '15 characters'],
    ['1122233300018A', 'a letter among the check digits'],
    ['5299822472A', 'a CPF with a letter'],
    ['12ABC34501DE3!', 'a symbol'],
  ])('refuses %j (%s)', (input) => {
    expect(checkDocument(input)).toEqual({ ok: false, message: WRONG_SHAPE });
  });
});

describe('formatDocument', () => {
  it.each([
    ['52998224725', '529.982.247-25'],
    ['11144477735', '111.444.777-35'],
    ['11222333000181', '11.222.333/0001-81'],
    ['12ABC34501DE35', '12.ABC.345/01DE-35'],
  ])('formats %s as %s', (stored, formatted) => {
    expect(formatDocument(stored)).toBe(formatted);
  });
});

describe('documentSchema', () => {
  it('normalizes a valid document', () => {
    expect(documentSchema.parse('12abc34501de35')).toBe('12ABC34501DE35');
  });

  it('reports the reason of a refusal as the issue message', () => {
    const result = documentSchema.safeParse('52998224726');

    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([BAD_DIGITS]);
  });
});
