import { ProblemError } from '@backoffice/client';
import { describe, expect, it } from 'vitest';
import { checkTransfer, haltedCompany, notEnoughStock, takesFractions, type TransferInput } from '../src/pages/inventory/transfer';

const PRODUCT = '11111111-1111-4111-8111-111111111111';
const CENTRAL = '22222222-2222-4222-8222-222222222222';
const LOJA = '33333333-3333-4333-8333-333333333333';
const input = (over: Partial<TransferInput>): TransferInput => ({
  productId: PRODUCT,
  fromWarehouseId: CENTRAL,
  toWarehouseId: LOJA,
  quantity: '',
  note: '',
  ...over,
});
const conflict = (detail: string) =>
  new ProblemError({ type: 'https://problems.backoffice.dev/conflict', title: 'Conflict', status: 409, detail }, new Response(null, { status: 409 }));

describe('the transfer form: what it sends', () => {
  it('sends the quantity typed in the user’s language, and the note only when given, trimmed', () => {
    expect(checkTransfer(input({ quantity: '1.234,5', note: '  Reposição da loja ' }), 'KG', 'pt-BR')).toEqual({
      ok: true,
      body: { productId: PRODUCT, fromWarehouseId: CENTRAL, toWarehouseId: LOJA, quantity: 1234.5, note: 'Reposição da loja' },
    });
    expect(checkTransfer(input({ quantity: '3', note: '   ' }), 'UN', 'en')).toEqual({
      ok: true,
      body: { productId: PRODUCT, fromWarehouseId: CENTRAL, toWarehouseId: LOJA, quantity: 3 },
    });
  });

  it('needs a product, both warehouses and a quantity', () => {
    expect(checkTransfer(input({ productId: '', fromWarehouseId: '', toWarehouseId: '' }), undefined, 'en')).toEqual({
      ok: false,
      errors: { productId: 'required', fromWarehouseId: 'required', toWarehouseId: 'required', quantity: 'required' },
    });
  });

  it('refuses the same warehouse on both sides, as the API does (toWarehouseId)', () => {
    expect(checkTransfer(input({ toWarehouseId: CENTRAL, quantity: '1' }), 'UN', 'en')).toEqual({ ok: false, errors: { toWarehouseId: 'sameWarehouse' } });
  });

  it('takes a quantity above 0 with at most 3 places, whole for a product of whole units', () => {
    expect(checkTransfer(input({ quantity: '0' }), 'KG', 'en')).toEqual({ ok: false, errors: { quantity: 'positive' } });
    expect(checkTransfer(input({ quantity: '1.2345' }), 'KG', 'en')).toEqual({ ok: false, errors: { quantity: 'places' } });
    expect(checkTransfer(input({ quantity: '1.5' }), 'UN', 'en')).toEqual({ ok: false, errors: { quantity: 'whole' } });
    expect(checkTransfer(input({ quantity: '1.000' }), 'UN', 'en')).toMatchObject({ ok: true, body: { quantity: 1 } });
    expect(checkTransfer(input({ quantity: '0.125' }), 'KG', 'en')).toMatchObject({ ok: true, body: { quantity: 0.125 } });
    expect(takesFractions('M2')).toBe(true);
    expect(takesFractions('CX')).toBe(false);
  });

  it('refuses a note over 500 characters', () => {
    expect(checkTransfer(input({ quantity: '1', note: 'x'.repeat(501) }), 'UN', 'en')).toEqual({ ok: false, errors: { note: 'tooLong' } });
  });
});

describe('the transfer form: what a refusal means', () => {
  it('reads the quantities of a refusal for want of stock, without the trailing zeros', () => {
    expect(notEnoughStock(conflict('Not enough stock: 2.000 on hand, 3.000 requested'))).toEqual({ onHand: '2', requested: '3' });
    expect(notEnoughStock(conflict('Not enough stock: 0.500 on hand, 1.250 requested'))).toEqual({ onHand: '0.5', requested: '1.25' });
    expect(notEnoughStock(conflict('The warehouse’s company is BLOCKED'))).toBeUndefined();
    expect(notEnoughStock(undefined)).toBeUndefined();
  });

  it('tells a halted company from a want of stock', () => {
    expect(haltedCompany(conflict("The warehouse's company is SUSPENDED: its stock takes no movements until the company is ACTIVE again"))).toBe('SUSPENDED');
    expect(haltedCompany(conflict('Not enough stock: 2.000 on hand, 3.000 requested'))).toBeUndefined();
  });
});
