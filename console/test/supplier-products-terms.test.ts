import { describe, expect, it } from 'vitest';
import type { SupplierProduct } from '../src/api/supplier-products';
import { changeTermsBody, checkTerms, createTermsBody, emptyTerms, termsFormOf, type TermsForm } from '../src/pages/supplier-products/terms';

const link: SupplierProduct = {
  supplierId: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f',
  supplierName: 'Café do Sul',
  productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
  sku: 'CAF-500',
  productName: 'Café torrado 500 g',
  supplierCode: 'CX-CAF-12',
  unit: 'CX',
  unitsPerPack: 12,
  lastCost: 1234.5,
  leadTimeDays: 10,
  minimumOrder: null,
  preferred: true,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  version: 3,
};

const terms = (form: TermsForm, locale: 'pt-BR' | 'en' = 'pt-BR') => {
  const checked = checkTerms(form, locale);
  if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
  return checked.terms;
};

describe('the terms form', () => {
  it('starts a new link from the API’s defaults, and sends only what was given', () => {
    expect(createTermsBody(terms(emptyTerms))).toEqual({ unitsPerPack: 1, leadTimeDays: 7, preferred: false });
    const typed = { ...emptyTerms, supplierCode: ' CX-1 ', unit: 'CX', unitsPerPack: '1.000', lastCost: '8,5', minimumOrder: '24,5', preferred: true };
    expect(createTermsBody(terms(typed))).toEqual({
      supplierCode: 'CX-1',
      unit: 'CX',
      unitsPerPack: 1000,
      lastCost: 8.5,
      leadTimeDays: 7,
      minimumOrder: 24.5,
      preferred: true,
    });
  });

  it('reads a link back in the user’s language', () => {
    expect(termsFormOf(link, 'pt-BR')).toEqual({
      supplierCode: 'CX-CAF-12',
      unit: 'CX',
      unitsPerPack: '12',
      lastCost: '1.234,5',
      leadTimeDays: '10',
      minimumOrder: '',
      preferred: true,
    });
    expect(termsFormOf(link, 'en').lastCost).toBe('1,234.5');
  });

  it('changes only what differs, an emptied optional term cleared with null', () => {
    expect(changeTermsBody(terms(termsFormOf(link, 'en'), 'en'), link)).toBeUndefined();
    const form = { ...termsFormOf(link, 'pt-BR'), supplierCode: '', lastCost: '1.234,55', minimumOrder: '6', preferred: false };
    expect(changeTermsBody(terms(form), link)).toEqual({ supplierCode: null, lastCost: 1234.55, minimumOrder: 6, preferred: false });
  });

  it('says what is wrong with each field before anything is sent', () => {
    const checked = checkTerms({ ...emptyTerms, unitsPerPack: '0', lastCost: '8,12345', leadTimeDays: '366', minimumOrder: '-1' }, 'pt-BR');
    expect(checked).toEqual({ ok: false, problems: { unitsPerPack: 'positive', lastCost: 'places', leadTimeDays: 'days', minimumOrder: 'negative' } });
    expect(checkTerms({ ...emptyTerms, unitsPerPack: '', leadTimeDays: '' }, 'en')).toEqual({
      ok: false,
      problems: { unitsPerPack: 'required', leadTimeDays: 'required' },
    });
    expect(checkTerms({ ...emptyTerms, leadTimeDays: '2,5' }, 'pt-BR')).toEqual({ ok: false, problems: { leadTimeDays: 'days' } });
    expect(checkTerms({ ...emptyTerms, leadTimeDays: '0' }, 'pt-BR').ok).toBe(true);
  });
});
