import { GetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { scaledFrom } from '../../lib/db/decimals';
import { keys } from '../../lib/db/keys';
import { parseScaled, QUANTITY_PLACES, VALUE_PLACES } from '../../lib/domain/decimal';
import { call, newTenantWithAdmin, problem, uniqueName, useLocalStoreInProcess, type Account } from './api';

/**
 * Quantities and money are exact. Over HTTP on DynamoDB Local; the stored items are
 * read back in process (as decimal text where a float would round them) to check that every
 * maintained total is the exact sum of what is under it.
 */
beforeAll(useLocalStoreInProcess);

const post = (account: Account, path: string, body: unknown) => call<Record<string, unknown>>('POST', path, { cookies: account.cookies, body });

async function stockPlaces(account: Account, warehouses: number, products: number) {
  const warehouseIds: string[] = [];
  const productIds: string[] = [];
  for (let index = 0; index < warehouses; index += 1) warehouseIds.push(String((await post(account, '/inventory/warehouses', { name: `W${index}` })).body.id));
  for (let index = 0; index < products; index += 1)
    productIds.push(String((await post(account, '/inventory/products', { sku: uniqueName('P'), name: `P${index}`, unit: 'KG' })).body.id));
  return { warehouseIds, productIds };
}

const item = async (key: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item ?? {};

const byWarehouse = async (account: Account) =>
  (
    await call<{ warehouseId: string; totalItems: number; totalProducts: number; totalValue: number }[]>('GET', '/inventory/dashboard/by-warehouse', {
      cookies: account.cookies,
    })
  ).body;

describe('decimal quantities', () => {
  it('takes IN 0.3 out as OUT 0.1 and OUT 0.2, leaving exactly nothing', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseIds, productIds } = await stockPlaces(admin, 1, 1);
    const at = { productId: productIds[0], warehouseId: warehouseIds[0] };

    expect((await post(admin, '/inventory/movements', { ...at, type: 'IN', quantity: 0.3, unitCost: 0.1 })).status).toBe(201);
    const first = await post(admin, '/inventory/movements', { ...at, type: 'OUT', quantity: 0.1 });
    const second = await post(admin, '/inventory/movements', { ...at, type: 'OUT', quantity: 0.2 });

    expect(first.body.balance).toEqual({ quantity: 0.2, averageCost: 0.1, lastCost: 0.1 });
    expect(second.status).toBe(201);
    expect(second.body.balance).toEqual({ quantity: 0, averageCost: 0.1, lastCost: 0.1 });
    expect(await byWarehouse(admin)).toEqual([
      { warehouseId: at.warehouseId, warehouseName: 'W0', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 0, totalProducts: 0, totalValue: 0 },
    ]);
  });

  it('counts a warehouse left by IN 0.1, IN 0.2, OUT 0.3 as holding no product', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseIds, productIds } = await stockPlaces(admin, 1, 1);
    const at = { productId: productIds[0], warehouseId: warehouseIds[0] };
    await post(admin, '/inventory/movements', { ...at, type: 'IN', quantity: 0.1, unitCost: 3 });
    await post(admin, '/inventory/movements', { ...at, type: 'IN', quantity: 0.2, unitCost: 3 });
    expect((await post(admin, '/inventory/movements', { ...at, type: 'OUT', quantity: 0.3 })).status).toBe(201);

    expect(await byWarehouse(admin)).toEqual([
      { warehouseId: at.warehouseId, warehouseName: 'W0', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 0, totalProducts: 0, totalValue: 0 },
    ]);
  });

  it.each([
    ['a quantity with 4 decimal places', { quantity: 1.0001, unitCost: 1 }, 'quantity', 'must have at most 3 decimal places'],
    ['a unit cost with 5 decimal places', { quantity: 1, unitCost: 0.00001 }, 'unitCost', 'must have at most 4 decimal places'],
  ])('refuses %s with a 400 naming it, writing nothing', async (_name, amounts, field, message) => {
    const admin = await newTenantWithAdmin();
    const { warehouseIds, productIds } = await stockPlaces(admin, 1, 1);
    const refused = await post(admin, '/inventory/movements', { productId: productIds[0], warehouseId: warehouseIds[0], type: 'IN', ...amounts });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(problem(400, 'validation', { errors: [{ field, message }] }));
    expect(await byWarehouse(admin)).toEqual([expect.objectContaining({ totalItems: 0, totalProducts: 0, totalValue: 0 })]);
  });

  it('keeps a stock value past what a float holds exactly, to the last of its 7 decimals', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseIds, productIds } = await stockPlaces(admin, 1, 1);
    const at = { productId: productIds[0] ?? '', warehouseId: warehouseIds[0] ?? '' };
    await post(admin, '/inventory/movements', { ...at, type: 'IN', quantity: 999999.999, unitCost: 12345.6789 });
    await post(admin, '/inventory/movements', { ...at, type: 'IN', quantity: 0.001, unitCost: 0.0001 });

    // 999999.999 x 12345.6789 + 0.001 x 0.0001 = 12345678887.6543211 + 0.0000001, exactly
    // (18 significant digits: a float would round it).
    const expected = 999_999_999n * 123_456_789n + 1n;
    expect(expected).toBe(123_456_788_876_543_212n);
    const stock = await item(keys.stock(admin.tenantId, at.productId, at.warehouseId));
    const warehouse = await item(keys.warehouse(admin.tenantId, at.warehouseId));
    expect(scaledFrom(stock.totalCost, VALUE_PLACES)).toBe(expected);
    expect(scaledFrom(warehouse.totalValue, VALUE_PLACES)).toBe(expected);
    expect(scaledFrom(warehouse.totalItems, QUANTITY_PLACES)).toBe(1_000_000_000n);
  });
});

type Step = { warehouse: number; product: number; type: 'IN' | 'OUT' | 'SALE' | 'ADJUSTMENT'; quantity: number; unitCost: number };

const step = fc.record({
  warehouse: fc.integer({ min: 0, max: 1 }),
  product: fc.integer({ min: 0, max: 1 }),
  type: fc.constantFrom<Step['type']>('IN', 'IN', 'OUT', 'SALE', 'ADJUSTMENT'),
  quantity: fc.integer({ min: 1, max: 5000 }).map((thousandths) => thousandths / 1000),
  unitCost: fc.integer({ min: 0, max: 100_000 }).map((tenThousandths) => tenThousandths / 10_000),
});

describe('every maintained number is the exact sum of what is under it', () => {
  it('for random decimal movements over two warehouses and two products', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const admin = await newTenantWithAdmin();
        const { warehouseIds, productIds } = await stockPlaces(admin, 2, 2);
        // The reference: each balance's quantity in thousandths, as BigInt sums of what was accepted.
        const expected = new Map<string, bigint>();
        for (const { warehouse, product, type, quantity, unitCost } of steps) {
          const at = { productId: productIds[product], warehouseId: warehouseIds[warehouse] };
          const placeKey = `${product}:${warehouse}`;
          const before = expected.get(placeKey) ?? 0n;
          const amount = parseScaled(quantity, QUANTITY_PLACES) ?? 0n;
          const answer = await post(admin, '/inventory/movements', { ...at, type, quantity, ...(type === 'IN' ? { unitCost } : {}) });
          const after = type === 'IN' ? before + amount : type === 'ADJUSTMENT' ? amount : before - amount;
          if (after < 0n) {
            expect(answer.status).toBe(409);
            continue;
          }
          expect(answer.status).toBe(201);
          expected.set(placeKey, after);
        }

        for (const [warehouse, warehouseId] of warehouseIds.entries()) {
          const stored = await item(keys.warehouse(admin.tenantId, warehouseId));
          const balances = await Promise.all(productIds.map((productId) => item(keys.stock(admin.tenantId, productId, warehouseId))));
          const quantities = balances.map((balance) => scaledFrom(balance.quantity, QUANTITY_PLACES));
          expect(quantities).toEqual(productIds.map((_id, product) => expected.get(`${product}:${warehouse}`) ?? 0n));
          expect(scaledFrom(stored.totalItems, QUANTITY_PLACES)).toBe(quantities.reduce((sum, quantity) => sum + quantity, 0n));
          expect(scaledFrom(stored.totalValue, VALUE_PLACES)).toBe(balances.reduce((sum, balance) => sum + scaledFrom(balance.totalCost, VALUE_PLACES), 0n));
          expect(Number(stored.totalProducts ?? 0)).toBe(quantities.filter((quantity) => quantity !== 0n).length);
          for (const balance of balances)
            if (scaledFrom(balance.quantity, QUANTITY_PLACES) === 0n) expect(scaledFrom(balance.totalCost, VALUE_PLACES)).toBe(0n);
        }
        for (const [product, productId] of productIds.entries()) {
          const stored = await item(keys.product(admin.tenantId, productId));
          const sum = warehouseIds.reduce((total, _id, warehouse) => total + (expected.get(`${product}:${warehouse}`) ?? 0n), 0n);
          expect(scaledFrom(stored.onHand, QUANTITY_PLACES)).toBe(sum);
        }
      }),
      { numRuns: 6 },
    );
    // Six tenants of up to ten movements each: 15 s in process, over 30 s in bundle mode on a busy machine.
  }, 120_000);
});
