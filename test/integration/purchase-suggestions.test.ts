import { randomUUID } from 'node:crypto';
import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import type { SuggestionView } from '../../lib/purchasing/schemas';
import { call, newTenantWithAdmin, problem, useLocalStoreInProcess, type Account } from './api';

/**
 * Purchase suggestions over HTTP: the example (3 a day, 10 on hand, 7 days of lead, 3 of
 * safety, 30 of target, boxes of 12: 84, 7 boxes), nothing once it is on order, the reorder
 * point of a product without sales, and refusals.
 */

beforeAll(useLocalStoreInProcess);

const DAY_MS = 24 * 60 * 60 * 1000;
const as = (account: Account, extra: { body?: unknown } = {}) => ({ cookies: account.cookies, ...extra });

async function post<T = { id: string }>(account: Account, path: string, body: unknown): Promise<T> {
  const response = await call<T>('POST', path, as(account, { body }));
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

const suggestions = async (account: Account, query: string) =>
  (await call<{ items: SuggestionView[]; salesThrough: string | null; nextCursor: string | null }>('GET', `/purchasing/suggestions${query}`, as(account))).body;

/** A product selling 3 a day over the last 30 days with 10 left, sold by a supplier in boxes of 12 with 7 days of lead time. */
async function sellingThreeADay(admin: Account) {
  const warehouse = await post(admin, '/inventory/warehouses', { name: 'Loja' });
  const coffee = await post(admin, '/inventory/products', { sku: `CAF-${randomUUID().slice(0, 6)}`, name: 'Café 500 g' });
  await post(admin, '/inventory/movements', { productId: coffee.id, warehouseId: warehouse.id, type: 'IN', quantity: 100, unitCost: 8 });
  for (const daysAgo of [20, 5])
    await post(admin, '/inventory/movements', {
      productId: coffee.id,
      warehouseId: warehouse.id,
      type: 'SALE',
      quantity: 45,
      occurredAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString(),
    });
  const supplier = await post(admin, '/suppliers', { name: 'Torrefação Sul', corporateName: 'Torrefação Sul Ltda', document: cnpj.generate() });
  await post(admin, `/suppliers/${supplier.id}/products`, { productId: coffee.id, unitsPerPack: 12, leadTimeDays: 7, lastCost: 8.5, preferred: true });
  const settings = await call('PUT', `/inventory/products/${coffee.id}/reorder`, as(admin, { body: { targetDays: 30, safetyDays: 3 } }));
  expect(settings).toMatchObject({ status: 200, body: { productId: coffee.id, warehouseId: null, reorderPoint: null, targetDays: 30, safetyDays: 3 } });
  await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
  return { warehouseId: warehouse.id, productId: coffee.id, supplierId: supplier.id };
}

describe('GET /purchasing/suggestions', () => {
  it('suggests 84 (7 boxes) for 3 a day with 10 on hand, and nothing once an order of 84 is sent', async () => {
    const admin = await newTenantWithAdmin();
    const at = await sellingThreeADay(admin);
    const expected = {
      productId: at.productId,
      sku: expect.any(String),
      name: 'Café 500 g',
      supplierId: at.supplierId,
      suggestedQuantity: 84,
      packs: 7,
      averageDailySales: 3,
      available: 10,
      onOrder: 0,
      leadTimeDays: 7,
      safetyDays: 3,
      targetDays: 30,
      reorderPoint: null,
      unitsPerPack: 12,
      minimumOrder: null,
      lastCost: 8.5,
    };
    const bySupplier = await suggestions(admin, `?supplierId=${at.supplierId}`);
    expect(bySupplier).toEqual({ items: [expected], salesThrough: expect.any(String), nextCursor: null });
    // The same from the warehouse's stock, and from every product's preferred supplier.
    expect((await suggestions(admin, `?supplierId=${at.supplierId}&warehouseId=${at.warehouseId}`)).items).toEqual([expected]);
    expect((await suggestions(admin, '')).items).toEqual([expected]);

    const company = await post(admin, '/companies', { name: 'Loja Centro', document: cnpj.generate() });
    const order = await post(admin, '/purchase-orders', {
      supplierId: at.supplierId,
      companyId: company.id,
      warehouseId: at.warehouseId,
      items: [{ productId: at.productId, quantity: 84, unitCost: 8.5 }],
    });
    // A DRAFT is not on order yet.
    expect((await suggestions(admin, `?supplierId=${at.supplierId}`)).items).toEqual([expected]);
    expect((await call('POST', `/purchase-orders/${order.id}/send`, as(admin, { body: { to: 'compras@sul.example' } }))).status).toBe(200);
    expect((await suggestions(admin, `?supplierId=${at.supplierId}`)).items).toEqual([]);
    // Cancelled, it is suggested again.
    expect((await call('POST', `/purchase-orders/${order.id}/cancel`, as(admin))).status).toBe(200);
    expect((await suggestions(admin, `?supplierId=${at.supplierId}`)).items).toEqual([expected]);
  });

  it("buys back to a warehouse's reorder point a product without sales, and refuses what it cannot read", async () => {
    const admin = await newTenantWithAdmin();
    const warehouse = await post(admin, '/inventory/warehouses', { name: 'Depósito' });
    const idle = await post(admin, '/inventory/products', { sku: 'PARADO', name: 'Produto parado' });
    await post(admin, '/inventory/movements', { productId: idle.id, warehouseId: warehouse.id, type: 'IN', quantity: 2, unitCost: 5 });
    const supplier = await post(admin, '/suppliers', { name: 'Norte', corporateName: 'Norte Ltda', document: cnpj.generate() });
    await post(admin, `/suppliers/${supplier.id}/products`, { productId: idle.id, unitsPerPack: 6, minimumOrder: 12 });
    expect((await call('PUT', `/inventory/products/${idle.id}/reorder`, as(admin, { body: { warehouseId: warehouse.id, reorderPoint: 10 } }))).status).toBe(
      200,
    );
    expect((await suggestions(admin, `?supplierId=${supplier.id}&warehouseId=${warehouse.id}`)).items).toMatchObject([
      { productId: idle.id, suggestedQuantity: 12, packs: 2, available: 2, reorderPoint: 10, averageDailySales: 0 },
    ]);
    for (const [query, status] of [
      [`?supplierId=${randomUUID()}`, 404],
      [`?warehouseId=${randomUUID()}`, 404],
      ['?days=14', 400],
      ['?limit=0', 400],
    ] as const)
      expect(await call('GET', `/purchasing/suggestions${query}`, as(admin)), query).toMatchObject({
        status,
        body: problem(status, status === 404 ? 'not-found' : 'validation'),
      });
    expect(await call('PUT', `/inventory/products/${randomUUID()}/reorder`, as(admin, { body: { targetDays: 30 } }))).toMatchObject({ status: 404 });
    expect(await call('PUT', `/inventory/products/${idle.id}/reorder`, as(admin, { body: { targetDays: 0 } }))).toMatchObject({ status: 400 });
  });
});
