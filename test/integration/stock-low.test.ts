import { beforeAll, describe, expect, it } from 'vitest';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import { call, newTenantWithAdmin, type Account, useLocalStoreInProcess } from './api';

/**
 * `product.stock_low` over HTTP: a tenant administrator sets the threshold (PATCH
 * /tenants/{id}), sales take a product's coverage (the dashboard's, over 30 days) below it,
 * and GET /events lists exactly one event per crossing: none while it stays below, none for a
 * refused movement, one again after stock came back above the threshold.
 */
const DAY_MS = 86_400_000;

interface EventPage {
  items: { id: string; type: string; timestamp: string; data: Record<string, unknown> }[];
  nextCursor: string | null;
}

beforeAll(useLocalStoreInProcess);

const post = async (account: Account, path: string, body: Record<string, unknown>) => {
  const response = await call<{ id: string }>('POST', path, { cookies: account.cookies, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
};

/**
 * A tenant with one product: 100 units in, 30 sold two days ago (1 a day over 30 days),
 * rolled up so the coverage index holds the sales; 70 left, 70 days of coverage.
 */
async function productSellingOneADay() {
  const admin = await newTenantWithAdmin();
  const warehouseId = (await post(admin, '/inventory/warehouses', { name: 'Centro' })).id;
  const productId = (await post(admin, '/inventory/products', { sku: 'CAFE-500', name: 'Café 500 g', unit: 'KG' })).id;
  await post(admin, '/inventory/movements', { productId, warehouseId, type: 'IN', quantity: 100, unitCost: 2 });
  await post(admin, '/inventory/movements', {
    productId,
    warehouseId,
    type: 'SALE',
    quantity: 30,
    occurredAt: new Date(Date.now() - 2 * DAY_MS).toISOString(),
  });
  await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
  const coverage = await call<{ productId: string; estimatedCoverageDays: number | null }[]>('GET', '/inventory/dashboard/coverage', {
    cookies: admin.cookies,
  });
  expect(coverage.body.find((item) => item.productId === productId)?.estimatedCoverageDays).toBe(70);
  return { admin, warehouseId, productId };
}

const setThreshold = async (admin: Account, days: number | null) => {
  const answer = await call<{ stockLowThresholdDays: number | null }>('PATCH', `/tenants/${admin.tenantId}`, {
    cookies: admin.cookies,
    body: { stockLowThresholdDays: days },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.stockLowThresholdDays).toBe(days);
};

const stockLowEvents = async (admin: Account) => {
  const page = await call<EventPage>('GET', '/events?type=product.stock_low', { cookies: admin.cookies });
  expect(page.status).toBe(200);
  return page.body.items;
};

describe('product.stock_low', () => {
  it('is published once when sales take coverage below the threshold, not again while it stays below, and again after a restock', async () => {
    const { admin, warehouseId, productId } = await productSellingOneADay();
    const sell = (quantity: number) => post(admin, '/inventory/movements', { productId, warehouseId, type: 'SALE', quantity });

    // Off by default: selling down to 15 days publishes nothing.
    await sell(55);
    expect(await stockLowEvents(admin)).toEqual([]);

    await setThreshold(admin, 10);
    await sell(5); // 10 days: at the threshold, not below
    expect(await stockLowEvents(admin)).toEqual([]);
    const crossing = await sell(0.5); // 9.5 days: below
    await sell(1); // 8.5: already below
    await sell(2.25); // 6.25: already below

    const [event, ...more] = await stockLowEvents(admin);
    expect(more).toEqual([]);
    expect(event).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      type: 'product.stock_low',
      timestamp: expect.stringMatching(/Z$/) as unknown,
      data: { id: productId, tenantId: admin.tenantId, sku: 'CAFE-500', warehouseId, coverageDays: '9.5', thresholdDays: '10' },
    });
    // The same instant as the crossing sale's own event: one transaction.
    const movements = await call<EventPage>('GET', '/events?type=stock_movement.created', { cookies: admin.cookies });
    expect(movements.body.items.find((item) => item.data.id === crossing.id)?.timestamp).toBe(event?.timestamp);

    // Restocked to 20 days, then sold below again: a second crossing, a second event.
    await post(admin, '/inventory/movements', { productId, warehouseId, type: 'IN', quantity: 13.75, unitCost: 2 });
    await sell(10.001); // 9.999 days, shown as 10.00: not below
    expect(await stockLowEvents(admin)).toHaveLength(1);
    await sell(0.005); // 9.994: 9.99
    const after = await stockLowEvents(admin);
    expect(after.map((item) => item.data.coverageDays)).toEqual(['9.5', '9.99']);
  });

  it('is not published by a refused movement (409), nor once the threshold is turned off', async () => {
    const { admin, warehouseId, productId } = await productSellingOneADay();
    await setThreshold(admin, 10);
    await post(admin, '/inventory/movements', { productId, warehouseId, type: 'SALE', quantity: 60 }); // 10 days: at

    // More than the 10 on hand: refused, nothing written.
    const refused = await call('POST', '/inventory/movements', { cookies: admin.cookies, body: { productId, warehouseId, type: 'OUT', quantity: 10.5 } });
    expect(refused.status).toBe(409);
    expect(await stockLowEvents(admin)).toEqual([]);

    await setThreshold(admin, null);
    await post(admin, '/inventory/movements', { productId, warehouseId, type: 'ADJUSTMENT', quantity: 2 });
    expect(await stockLowEvents(admin)).toEqual([]);
  });
});
