import { beforeAll, describe, expect, it } from 'vitest';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import { addDays, dayOf } from '../../lib/domain/days';
import type { CoverageItem } from '../../lib/inventory/schemas';
import { settings } from '../../lib/settings';
import { allPages, call, newTenantWithAdmin, nextLink, problem, useLocalStoreInProcess, type Account } from './api';

/**
 * The coverage dashboard over HTTP, with the roll-up job run in process against the same
 * store (as the schedule would run it), so each test decides when it runs.
 */
const DAY_MS = 86_400_000;
const ZONE = settings.businessTimeZone;

beforeAll(useLocalStoreInProcess);

async function setup(account: Account, stock: Record<string, number>) {
  const w = (await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: account.cookies, body: { name: 'W' } })).body.id;
  const ids: Record<string, string> = {};
  for (const [sku, quantity] of Object.entries(stock)) {
    ids[sku] = (
      await call<{ id: string }>('POST', '/inventory/products', { cookies: account.cookies, body: { sku, name: `Product ${sku}`, unit: 'KG' } })
    ).body.id;
    await call('POST', '/inventory/movements', { cookies: account.cookies, body: { productId: ids[sku], warehouseId: w, type: 'IN', quantity, unitCost: 1 } });
  }
  return { warehouseId: w, ids };
}

/** A sale `daysAgo` days before now (same clock time, so on business day today - daysAgo). */
async function sell(account: Account, warehouseId: string, productId: string, quantity: number, daysAgo: number) {
  const response = await call('POST', '/inventory/movements', {
    cookies: account.cookies,
    body: { productId, warehouseId, type: 'SALE', quantity, occurredAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString() },
  });
  expect(response.status).toBe(201);
}

const coverage = (account: Account, query = '') => call<CoverageItem[]>('GET', `/inventory/dashboard/coverage${query}`, { cookies: account.cookies });

describe('GET /inventory/dashboard/coverage', () => {
  it('matches a hand computation for several days values once the roll-up ran', async () => {
    const admin = await newTenantWithAdmin();
    // Enough stock for the sales below, and what remains is the available quantity.
    const { warehouseId, ids } = await setup(admin, { FAST: 1000, SLOW: 50, IDLE: 7 });
    const sales: [number, number][] = [
      [1, 10],
      [1, 5],
      [2, 12],
      [7, 20],
      [8, 9],
      [30, 30],
      [31, 100],
      [200, 40],
      [364, 11],
    ];
    for (const [daysAgo, quantity] of sales) await sell(admin, warehouseId, ids.FAST as string, quantity, daysAgo);
    await sell(admin, warehouseId, ids.SLOW as string, 3, 3);
    // A sale today does not count until its day is complete.
    await sell(admin, warehouseId, ids.FAST as string, 1, 0);

    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });

    const sold = 10 + 5 + 12 + 20 + 9 + 30 + 100 + 40 + 11 + 1;
    const soldWithin = (days: number) => sales.filter(([daysAgo]) => daysAgo >= 1 && daysAgo <= days).reduce((total, [, quantity]) => total + quantity, 0);
    const round2 = (value: number) => Math.round(value * 100) / 100;
    for (const days of [1, 2, 7, 30, 31, 365]) {
      const response = await coverage(admin, `?days=${days}`);
      expect(response.status).toBe(200);
      const fastAverage = soldWithin(days) / days;
      const slowAverage = days >= 3 ? 3 / days : 0;
      const expected = [
        {
          productId: ids.FAST,
          sku: 'FAST',
          name: 'Product FAST',
          availableQuantity: 1000 - sold,
          averageDailySales: round2(fastAverage),
          estimatedCoverageDays: fastAverage > 0 ? round2((1000 - sold) / fastAverage) : null,
        },
        {
          productId: ids.SLOW,
          sku: 'SLOW',
          name: 'Product SLOW',
          availableQuantity: 47,
          averageDailySales: round2(slowAverage),
          estimatedCoverageDays: slowAverage > 0 ? round2(47 / slowAverage) : null,
        },
        { productId: ids.IDLE, sku: 'IDLE', name: 'Product IDLE', availableQuantity: 7, averageDailySales: 0, estimatedCoverageDays: null },
      ].sort((a, b) => (a.estimatedCoverageDays ?? Infinity) - (b.estimatedCoverageDays ?? Infinity) || (a.sku < b.sku ? -1 : 1));
      expect(response.body, `days=${days}`).toEqual(expected);
    }
  });

  it('uses 30 days by default', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseId, ids } = await setup(admin, { A: 100 });
    await sell(admin, warehouseId, ids.A as string, 30, 5);
    await sell(admin, warehouseId, ids.A as string, 30, 40);
    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    const response = await coverage(admin);
    expect(response.body).toEqual([{ productId: ids.A, sku: 'A', name: 'Product A', availableQuantity: 40, averageDailySales: 1, estimatedCoverageDays: 40 }]);
  });

  it('is idempotent, catches up on several days at once, and counts late sales at the next run', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseId, ids } = await setup(admin, { A: 1000 });
    for (const daysAgo of [1, 2, 3, 4]) await sell(admin, warehouseId, ids.A as string, 10, daysAgo);
    const before = (await coverage(admin, '?days=10')).body[0];
    expect(before?.averageDailySales).toBe(0);

    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    const once = (await coverage(admin, '?days=10')).body;
    expect(once[0]?.averageDailySales).toBe(4);
    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    expect((await coverage(admin, '?days=10')).body).toEqual(once);

    // A sale back-dated into a day that was already rolled up.
    await sell(admin, warehouseId, ids.A as string, 20, 2);
    expect((await coverage(admin, '?days=10')).body[0]?.averageDailySales).toBe(4);
    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    expect((await coverage(admin, '?days=10')).body[0]).toEqual(expect.objectContaining({ averageDailySales: 6, availableQuantity: 940 }));
  });

  it('rolls up only the day asked for with a date', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseId, ids } = await setup(admin, { A: 1000 });
    await sell(admin, warehouseId, ids.A as string, 10, 3);
    await sell(admin, warehouseId, ids.A as string, 20, 2);
    const twoDaysAgo = addDays(dayOf(Date.now(), ZONE), -2);
    await runSalesRollup({ nowMs: Date.now(), day: twoDaysAgo, only: [admin.tenantId] });
    expect((await coverage(admin, '?days=10')).body[0]?.averageDailySales).toBe(2);
    await expect(runSalesRollup({ nowMs: Date.now(), day: dayOf(Date.now(), ZONE) })).rejects.toThrow(/not a complete business day/);
  });

  it.each(['?days=0', '?days=366', '?days=abc', '?days=1.5', '?days=-3', '?days=', '?period=30', '?days=7&days=8'])('answers 400 for %s', async (query) => {
    const admin = await newTenantWithAdmin();
    const response = await coverage(admin, query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation'));
  });

  it("shows only the caller's tenant's products", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    await setup(a, { MINE: 1 });
    await setup(b, { THEIRS: 1 });
    expect((await coverage(a)).body.map((item) => item.sku)).toEqual(['MINE']);
  });

  it('computes from exact decimal sales: each figure rounded once, half to even, from the records under it', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseId, ids } = await setup(admin, { TENTHS: 10, EIGHTHS: 10 });
    await sell(admin, warehouseId, ids.TENTHS as string, 0.1, 1);
    await sell(admin, warehouseId, ids.TENTHS as string, 0.2, 1);
    await sell(admin, warehouseId, ids.EIGHTHS as string, 0.1, 1);
    await sell(admin, warehouseId, ids.EIGHTHS as string, 0.025, 1);

    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });

    const response = await coverage(admin, '?days=1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      // 9.7 left at 0.3 a day (0.1 + 0.2, exactly): 32.333... days.
      { productId: ids.TENTHS, sku: 'TENTHS', name: 'Product TENTHS', availableQuantity: 9.7, averageDailySales: 0.3, estimatedCoverageDays: 32.33 },
      // 9.875 left (shown 9.88) at 0.125 a day (shown 0.12, the tie to even): exactly 79 days.
      { productId: ids.EIGHTHS, sku: 'EIGHTHS', name: 'Product EIGHTHS', availableQuantity: 9.88, averageDailySales: 0.12, estimatedCoverageDays: 79 },
    ]);
  });

  it('pages in the dashboard order through Link, with the same days, and refuses a cursor of another days', async () => {
    const admin = await newTenantWithAdmin();
    // Coverage: B 0 days (sold out), A and C 10 (a tie: by SKU), D and E no sales (last, by SKU).
    const { warehouseId, ids } = await setup(admin, { A: 100, B: 50, C: 100, D: 5, E: 5 });
    await sell(admin, warehouseId, ids.A as string, 50, 1);
    await sell(admin, warehouseId, ids.B as string, 50, 1);
    await sell(admin, warehouseId, ids.C as string, 50, 1);
    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });

    const whole = await coverage(admin, '?days=10');
    expect(whole.body.map((item) => [item.sku, item.estimatedCoverageDays])).toEqual([
      ['B', 0],
      ['A', 10],
      ['C', 10],
      ['D', null],
      ['E', null],
    ]);
    expect(whole.headers.get('link')).toBeNull();

    for (const limit of [1, 2, 4]) {
      const paged = await allPages<CoverageItem>(`/inventory/dashboard/coverage?days=10&limit=${limit}`, admin.cookies);
      expect(paged.items, `limit ${limit}`).toEqual(whole.body);
      expect(paged.pages, `limit ${limit}`).toBe(Math.ceil(whole.body.length / limit));
    }
    const first = await coverage(admin, '?days=10&limit=2');
    const next = nextLink(first) ?? '';
    expect(next).toMatch(/^\/inventory\/dashboard\/coverage\?days=10&limit=2&cursor=/);
    const cursor = new URL(`http://x${next}`).searchParams.get('cursor') ?? '';
    const otherDays = await coverage(admin, `?days=11&limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(otherDays.status).toBe(400);
    expect(otherDays.body).toEqual(
      problem(400, 'validation', { errors: [{ field: 'cursor', message: 'is not a cursor of this list: start again without it' }] }),
    );
  });
});
