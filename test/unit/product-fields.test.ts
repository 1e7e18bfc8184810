import { describe, expect, it } from 'vitest';
import { gtinCheckDigit, gtinProblem } from '../../lib/inventory/gtin';
import { quantityFitsUnit } from '../../lib/inventory/model';
import { productBody, updateProductBody } from '../../lib/inventory/schemas';
import { bareDigits, brazilianDecimal, productStatus } from '../../lib/imports/columns';

describe('GTIN', () => {
  it('computes the check digit of each length (GS1 weights 3, 1 from the right)', () => {
    expect(gtinCheckDigit('789100031550')).toBe(7); // GTIN-13
    expect(gtinCheckDigit('9638507')).toBe(4); // GTIN-8
    expect(gtinCheckDigit('03600029145')).toBe(2); // GTIN-12 (UPC-A)
    expect(gtinCheckDigit('1789100031550')).toBe(4); // GTIN-14
  });

  it('accepts digits of a GTIN length with the right check digit, and says what is wrong otherwise', () => {
    for (const valid of ['7891000315507', '96385074', '036000291452', '17891000315504']) expect(gtinProblem(valid), valid).toBeUndefined();
    expect(gtinProblem('7891000315508')).toBe('has a wrong check digit: 8 where 7 was expected');
    for (const wrong of ['', '1234567', '78910003155', '789100031550A', ' 7891000315507', '123456789012345']) {
      expect(gtinProblem(wrong), wrong).toBe('must be a GTIN: 8, 12, 13 or 14 digits, nothing else');
    }
  });
});

describe('units', () => {
  it('counts whole units unless the unit is fractional', () => {
    expect(quantityFitsUnit(2_000n, 'UN')).toBe(true);
    expect(quantityFitsUnit(1_500n, 'UN')).toBe(false);
    expect(quantityFitsUnit(1_500n, 'CX')).toBe(false);
    for (const unit of ['KG', 'G', 'L', 'ML', 'M', 'M2', 'M3'] as const) expect(quantityFitsUnit(1n, unit), unit).toBe(true);
  });
});

describe('the product schemas', () => {
  it('takes a price of at most 2 decimals, never negative, exactly as written', () => {
    expect(productBody.safeParse({ sku: 'A', name: 'A', salePrice: 0.1 }).success).toBe(true);
    expect(productBody.safeParse({ sku: 'A', name: 'A', salePrice: 1234567.89 }).success).toBe(true);
    expect(productBody.safeParse({ sku: 'A', name: 'A', salePrice: 0.001 }).success).toBe(false);
    expect(productBody.safeParse({ sku: 'A', name: 'A', salePrice: -0.01 }).success).toBe(false);
  });

  it('keeps line breaks in a description and refuses other control characters', () => {
    expect(productBody.safeParse({ sku: 'A', name: 'A', description: 'Linha 1\nLinha 2\tfim' }).success).toBe(true);
    expect(productBody.safeParse({ sku: 'A', name: 'A', description: 'bell\u0007' }).success).toBe(false);
  });

  it('lets a change clear the optional fields but not the SKU, the name, the unit or the status', () => {
    expect(updateProductBody.safeParse({ gtin: null, ncm: null, cest: null, brand: null, description: null, salePrice: null }).success).toBe(true);
    for (const field of ['sku', 'name', 'unit', 'status']) expect(updateProductBody.safeParse({ [field]: null }).success, field).toBe(false);
    expect(updateProductBody.safeParse({}).success).toBe(false);
  });
});

describe('product cells of an import', () => {
  it('reads Brazilian decimals, punctuated codes and statuses, leaving anything else for the API to refuse', () => {
    expect(['1.234,56', '18,9', '18.90', 'R$ 7,00', '1.000'].map(brazilianDecimal)).toEqual([1234.56, 18.9, 18.9, 7, 1000]);
    expect(brazilianDecimal('dez')).toBe('dez');
    expect(['0901.21.00', '789 1000 31550 7', '17.096.00'].map(bareDigits)).toEqual(['09012100', '7891000315507', '1709600']);
    expect(bareDigits('78A1')).toBe('78A1');
    expect(['Ativo', 'inativo', 'sim', 'não', 'talvez'].map(productStatus)).toEqual(['ACTIVE', 'INACTIVE', 'ACTIVE', 'INACTIVE', 'TALVEZ']);
  });
});
