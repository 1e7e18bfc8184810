import { describe, expect, it } from 'vitest';
import { checkMovement, movementTypesFor, unitCostRule, type MovementInput } from '../src/pages/inventory/movement';

const PRODUCT = '11111111-1111-4111-8111-111111111111';
const WAREHOUSE = '22222222-2222-4222-8222-222222222222';
const input = (over: Partial<MovementInput>): MovementInput => ({ type: 'IN', warehouseId: WAREHOUSE, quantity: '', unitCost: '', occurredAt: '', ...over });

describe('the movement form: fields per type', () => {
  it('offers every type to an active product, only OUT and ADJUSTMENT to an inactive one', () => {
    expect(movementTypesFor('ACTIVE')).toEqual(['IN', 'OUT', 'SALE', 'ADJUSTMENT']);
    expect(movementTypesFor('INACTIVE')).toEqual(['OUT', 'ADJUSTMENT']);
  });

  it('asks a unit cost for IN, refuses it for OUT and SALE, takes it optionally for ADJUSTMENT', () => {
    expect(unitCostRule('IN')).toBe('required');
    expect(unitCostRule('OUT')).toBe('refused');
    expect(unitCostRule('SALE')).toBe('refused');
    expect(unitCostRule('ADJUSTMENT')).toBe('optional');
  });

  it('an IN without a unit cost is incomplete', () => {
    expect(checkMovement(PRODUCT, input({ quantity: '5' }), 'en')).toEqual({ ok: false, errors: { unitCost: 'required' } });
  });

  it('OUT and SALE never send a unit cost, even one left typed from an IN', () => {
    for (const type of ['OUT', 'SALE'] as const) {
      expect(checkMovement(PRODUCT, input({ type, quantity: '2', unitCost: '9.99' }), 'en')).toEqual({
        ok: true,
        body: { productId: PRODUCT, warehouseId: WAREHOUSE, type, quantity: 2 },
      });
    }
  });

  it('an ADJUSTMENT takes 0 and sends a unit cost only when given', () => {
    expect(checkMovement(PRODUCT, input({ type: 'ADJUSTMENT', quantity: '0' }), 'en')).toEqual({
      ok: true,
      body: { productId: PRODUCT, warehouseId: WAREHOUSE, type: 'ADJUSTMENT', quantity: 0 },
    });
    expect(checkMovement(PRODUCT, input({ type: 'ADJUSTMENT', quantity: '3', unitCost: '1.5' }), 'en')).toEqual({
      ok: true,
      body: { productId: PRODUCT, warehouseId: WAREHOUSE, type: 'ADJUSTMENT', quantity: 3, unitCost: 1.5 },
    });
  });

  it('needs a warehouse and a quantity above 0 (except ADJUSTMENT)', () => {
    expect(checkMovement(PRODUCT, input({ type: 'SALE', warehouseId: '', quantity: '' }), 'en')).toEqual({
      ok: false,
      errors: { warehouseId: 'required', quantity: 'required' },
    });
    expect(checkMovement(PRODUCT, input({ type: 'OUT', quantity: '0' }), 'en')).toEqual({ ok: false, errors: { quantity: 'positive' } });
    expect(checkMovement(PRODUCT, input({ type: 'OUT', quantity: '-1' }), 'en')).toEqual({ ok: false, errors: { quantity: 'positive' } });
    expect(checkMovement(PRODUCT, input({ type: 'ADJUSTMENT', quantity: '-1' }), 'en')).toEqual({ ok: false, errors: { quantity: 'negative' } });
  });

  it('sends occurredAt as an instant when given', () => {
    const checked = checkMovement(PRODUCT, input({ type: 'SALE', quantity: '1', occurredAt: '2026-11-20T14:30' }), 'en');
    expect(checked.ok && checked.body.occurredAt).toBe(new Date('2026-11-20T14:30').toISOString());
  });
});

describe('the movement form: numbers in the user’s language', () => {
  it('reads 1.234,5 in Portuguese and 1,234.5 in English as the same quantity, exactly', () => {
    const pt = checkMovement(PRODUCT, input({ quantity: '1.234,5', unitCost: '10,25' }), 'pt-BR');
    const en = checkMovement(PRODUCT, input({ quantity: '1,234.5', unitCost: '10.25' }), 'en');
    expect(pt).toEqual({ ok: true, body: { productId: PRODUCT, warehouseId: WAREHOUSE, type: 'IN', quantity: 1234.5, unitCost: 10.25 } });
    expect(en).toEqual(pt);
  });

  it('refuses the other language’s separators where they cannot be read', () => {
    expect(checkMovement(PRODUCT, input({ quantity: '1,234.5', unitCost: '1' }), 'pt-BR')).toEqual({ ok: false, errors: { quantity: 'invalid' } });
    expect(checkMovement(PRODUCT, input({ quantity: '1.234,5', unitCost: '1' }), 'en')).toEqual({ ok: false, errors: { quantity: 'invalid' } });
  });

  it('takes quantities to 3 places and unit costs to 4 (the API’s limits), never rounding', () => {
    expect(checkMovement(PRODUCT, input({ quantity: '0,001', unitCost: '0,0001' }), 'pt-BR')).toMatchObject({
      ok: true,
      body: { quantity: 0.001, unitCost: 0.0001 },
    });
    expect(checkMovement(PRODUCT, input({ quantity: '1,2345', unitCost: '1,00001' }), 'pt-BR')).toEqual({
      ok: false,
      errors: { quantity: 'places', unitCost: 'places' },
    });
  });

  it('refuses more than 1,000,000,000', () => {
    expect(checkMovement(PRODUCT, input({ quantity: '1.000.000.000', unitCost: '1' }), 'pt-BR')).toMatchObject({ ok: true, body: { quantity: 1_000_000_000 } });
    expect(checkMovement(PRODUCT, input({ quantity: '1.000.000.001', unitCost: '1' }), 'pt-BR')).toEqual({ ok: false, errors: { quantity: 'invalid' } });
    expect(checkMovement(PRODUCT, input({ quantity: '10000000000', unitCost: '1' }), 'pt-BR')).toEqual({ ok: false, errors: { quantity: 'invalid' } });
  });
});
