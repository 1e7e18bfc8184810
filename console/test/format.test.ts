import { describe, expect, it } from 'vitest';
import { decimalText, formatDecimal, formatMoney, parseDecimal } from '../src/format/decimal';
import { formatDate, formatDateTime } from '../src/format/date';
import { maskCep, maskDocument, maskPhone, rawCep, rawDocument } from '../src/format/masks';
import { preferredLocale } from '../src/i18n/messages';

describe('exact decimals', () => {
  it('gives back the digits the API wrote, never an exponent', () => {
    expect([0.1, 18.9, 1234.5, 0.125, -3, 1e21, 1e-7, 123456789012.345].map(decimalText)).toEqual([
      '0.1',
      '18.9',
      '1234.5',
      '0.125',
      '-3',
      '1000000000000000000000',
      '0.0000001',
      '123456789012.345',
    ]);
    // 0.1 + 0.2 is what float arithmetic would show; the console never computes, it formats.
    expect(decimalText('2.675')).toBe('2.675');
  });

  it('groups and separates by language, digit for digit', () => {
    expect(formatDecimal(1234.5, 'pt-BR')).toBe('1.234,5');
    expect(formatDecimal(1234.5, 'en')).toBe('1,234.5');
    expect(formatDecimal(1234567.125, 'pt-BR')).toBe('1.234.567,125');
    expect(formatDecimal(0, 'pt-BR')).toBe('0');
    expect(formatDecimal(-0.5, 'en')).toBe('-0.5');
    expect(formatDecimal(12, 'pt-BR', { minFractionDigits: 2 })).toBe('12,00');
  });

  it('shows money as reais with at least two places, and more when the API gives them', () => {
    expect(formatMoney(1234.56, 'pt-BR')).toBe('R$ 1.234,56');
    expect(formatMoney(1234.5, 'en')).toBe('R$ 1,234.50');
    expect(formatMoney(2.675, 'pt-BR')).toBe('R$ 2,675');
    expect(formatMoney(-10, 'pt-BR')).toBe('-R$ 10,00');
    expect(formatMoney(0.1, 'pt-BR')).toBe('R$ 0,10');
  });

  it('reads what people type in their language, checking places on the text', () => {
    expect(parseDecimal('1.234,5', 'pt-BR', 3)).toEqual({ ok: true, text: '1234.5', value: 1234.5 });
    expect(parseDecimal('1234,5', 'pt-BR', 3)).toEqual({ ok: true, text: '1234.5', value: 1234.5 });
    expect(parseDecimal('1,234.5', 'en', 3)).toEqual({ ok: true, text: '1234.5', value: 1234.5 });
    expect(parseDecimal(' 007 ', 'en', 0)).toEqual({ ok: true, text: '7', value: 7 });
    expect(parseDecimal('0,001', 'pt-BR', 3)).toEqual({ ok: true, text: '0.001', value: 0.001 });
    expect(parseDecimal('1,2345', 'pt-BR', 3)).toEqual({ ok: false, reason: 'places' });
    expect(parseDecimal('1.23,4', 'pt-BR', 3)).toEqual({ ok: false, reason: 'invalid' });
    // An English reader's decimal point in Portuguese is a grouping error, not a silent 1000x.
    expect(parseDecimal('1.5', 'pt-BR', 3)).toEqual({ ok: false, reason: 'invalid' });
    expect(parseDecimal('', 'pt-BR', 3)).toEqual({ ok: false, reason: 'empty' });
    expect(parseDecimal('abc', 'en', 3)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('dates', () => {
  it('are day/month/year in either language', () => {
    const instant = new Date(2026, 10, 25, 14, 3);
    expect(formatDate(instant)).toBe('25/11/2026');
    expect(formatDateTime(instant)).toBe('25/11/2026 14:03');
  });
});

describe('masks as people type', () => {
  it('formats a CPF while it can be one, then a CNPJ, letters included', () => {
    expect(['1', '1234', '123456789', '12345678909', '123.456.789-09'].map(maskDocument)).toEqual([
      '1',
      '123.4',
      '123.456.789',
      '123.456.789-09',
      '123.456.789-09',
    ]);
    expect(maskDocument('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskDocument('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(rawDocument('12.ABC.345/01DE-35')).toBe('12ABC34501DE35');
    expect(rawDocument('123.456.789-09 extra')).toBe('12345678909EXTRA'.slice(0, 14));
  });

  it('formats a CEP', () => {
    expect(['0', '01310', '013101', '01310100', '01310-100', '013101000'].map(maskCep)).toEqual([
      '0',
      '01310',
      '01310-1',
      '01310-100',
      '01310-100',
      '01310-100',
    ]);
    expect(rawCep('01310-100')).toBe('01310100');
  });

  it('formats a Brazilian phone in the international form, mobile or landline', () => {
    expect(maskPhone('11987654321')).toBe('+55 11 98765-4321');
    expect(maskPhone('1132654321')).toBe('+55 11 3265-4321');
    expect(maskPhone('+55 11 98765-4321')).toBe('+55 11 98765-4321');
    expect(maskPhone('+5511987')).toBe('+55 11 987');
    expect(maskPhone('+1 415 555 0100')).toBe('+14155550100');
    expect(maskPhone('')).toBe('');
    // Typing on from a formatted value keeps it formatted.
    expect(maskPhone(`${maskPhone('1198765')}4`)).toBe('+55 11 98765-4');
  });
});

describe('language', () => {
  it('is Portuguese unless the browser prefers English first', () => {
    expect(preferredLocale(['en-US', 'en'])).toBe('en');
    expect(preferredLocale(['pt-BR', 'en'])).toBe('pt-BR');
    expect(preferredLocale(['fr-FR', 'en-GB', 'pt'])).toBe('en');
    expect(preferredLocale(['de'])).toBe('pt-BR');
    expect(preferredLocale([])).toBe('pt-BR');
  });
});
