import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { COVERAGE_MARKER_SK, keys } from '../../lib/db/keys';
import { invalidateCoverage, readCoverageIndexPage, refreshTenantCoverage } from '../../lib/inventory/coverage-repository';
import { addDays, dayOf } from '../../lib/domain/days';
import { INDEXED_COVERAGE_DAYS } from '../../lib/inventory/model';
import { coverageItem, coveragePage, stockCoverage } from '../../lib/inventory/dashboards';
import type { CoverageItem } from '../../lib/inventory/schemas';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import { settings } from '../../lib/settings';
import { testPrincipal } from '../support/principal';
import { allPages, call, newTenantWithAdmin, type Account, useLocalStoreInProcess } from './api';

/**
 * The coverage index (lib/inventory/coverage-repository): the dashboard served from precomputed,
 * ordered entries must be exactly the full read's answer, in the same order, the moment a
 * movement or a product changes it, under concurrent movements, and across a page walk that
 * crosses from one read to the other.
 */
const DAY_MS = 86_400_000;
const ZONE = settings.businessTimeZone;
const today = () => dayOf(Date.now(), ZONE);

beforeAll(useLocalStoreInProcess);

const post = async (account: Account, path: string, body: Record<string, unknown>) => {
  const response = await call<{ id: string }>('POST', path, { cookies: account.cookies, body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
};

async function catalog(account: Account, stock: Record<string, number>) {
  const warehouseId = (await post(account, '/inventory/warehouses', { name: 'Central' })).id;
  const ids: Record<string, string> = {};
  for (const [sku, quantity] of Object.entries(stock)) {
    ids[sku] = (await post(account, '/inventory/products', { sku, name: `Produto ${sku}`, unit: 'KG' })).id;
    if (quantity > 0) await post(account, '/inventory/movements', { productId: ids[sku], warehouseId, type: 'IN', quantity, unitCost: 2 });
  }
  return { warehouseId, ids };
}

const sell = (account: Account, warehouseId: string, productId: string, quantity: number, daysAgo: number) =>
  post(account, '/inventory/movements', { productId, warehouseId, type: 'SALE', quantity, occurredAt: new Date(Date.now() - daysAgo * DAY_MS).toISOString() });

/** The full read's answer (what the dashboard shows without an index). */
const fullRead = async (account: Account, days: number, nowMs = Date.now()) =>
  (await stockCoverage(testPrincipal({ tenantId: account.tenantId }), days, nowMs)).map((entry) => entry.item);

/** The index's answer for the whole catalog, or null when it is not current. */
async function fromIndex(account: Account, days: number, day = today()): Promise<CoverageItem[] | null> {
  const page = await readCoverageIndexPage(account.tenantId, days, { today: day, limit: 1000 });
  return page && page.rows.map(({ product, sold }) => coverageItem(product, sold, days).item);
}

/** Every entry of one window's index (marker excluded), as stored. */
async function entries(account: Account, days: number) {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.coverageIndexOf(account.tenantId, days).pk },
      ConsistentRead: true,
    }),
  );
  return Items.filter((item) => item.sk !== COVERAGE_MARKER_SK);
}

/** A catalog with sales spread over the indexed windows, rolled up and indexed. */
async function indexedCatalog() {
  const admin = await newTenantWithAdmin();
  const { warehouseId, ids } = await catalog(admin, { FAST: 500, MID: 120, SLOW: 80, TIE: 120, IDLE: 9, NONE: 0 });
  for (const [sku, quantity, daysAgo] of [
    ['FAST', 10, 1],
    ['FAST', 30, 6],
    ['FAST', 25, 40],
    ['MID', 12, 3],
    ['TIE', 12, 3],
    ['SLOW', 5, 80],
  ] as const) {
    await sell(admin, warehouseId, ids[sku] as string, quantity, daysAgo);
  }
  await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
  return { admin, warehouseId, ids };
}

describe('the coverage index', () => {
  it('answers exactly what the full read answers, for every indexed window, once the job ran', async () => {
    const { admin, ids } = await indexedCatalog();
    for (const days of INDEXED_COVERAGE_DAYS) {
      const expected = await fullRead(admin, days);
      expect(expected.map((item) => item.productId).sort()).toEqual(Object.values(ids).sort());
      expect(await fromIndex(admin, days), `days=${days}`).toEqual(expected);
      expect((await call<CoverageItem[]>('GET', `/inventory/dashboard/coverage?days=${days}`, { cookies: admin.cookies })).body).toEqual(expected);
      // One entry per product, nothing left behind.
      expect((await entries(admin, days)).length).toBe(Object.keys(ids).length);
    }
    // The hand computation for one of them: FAST sold 10 + 30 in the last 7 days; 435 left.
    expect((await fromIndex(admin, 7))?.find((item) => item.sku === 'FAST')).toEqual({
      productId: ids.FAST,
      sku: 'FAST',
      name: 'Produto FAST',
      availableQuantity: 435,
      averageDailySales: 5.71,
      // 435 x 7 / 40 = 76.125: half to even.
      estimatedCoverageDays: 76.12,
    });
  });

  it('moves a product the moment a movement changes its available quantity, under concurrent movements in several warehouses', async () => {
    const { admin, warehouseId, ids } = await indexedCatalog();
    const others = [(await post(admin, '/inventory/warehouses', { name: 'Filial' })).id, (await post(admin, '/inventory/warehouses', { name: 'Depósito' })).id];
    const movements = Array.from({ length: 30 }, (_, index) => {
      const productId = (index % 3 === 0 ? ids.MID : index % 3 === 1 ? ids.FAST : ids.NONE) as string;
      const where = [warehouseId, ...others][index % 3] as string;
      return index % 4 === 3 && productId !== ids.NONE
        ? { productId, warehouseId: warehouseId, type: 'SALE', quantity: 1.5 }
        : { productId, warehouseId: where, type: 'IN', quantity: 2.25, unitCost: 3 };
    });
    // As a point of sale sends them: each with its Idempotency-Key, sent again after a 503 (the
    // store's back-pressure under contention, nothing written), so each is recorded exactly once.
    const send = async (body: (typeof movements)[number]) => {
      const headers = { 'idempotency-key': randomUUID() };
      let answer = await call('POST', '/inventory/movements', { cookies: admin.cookies, body, headers });
      for (let retry = 0; answer.status === 503 && retry < 5; retry += 1)
        answer = await call('POST', '/inventory/movements', { cookies: admin.cookies, body, headers });
      return answer;
    };
    const answers = await Promise.all(movements.map(send));
    expect(answers.map((answer) => answer.status)).toEqual(movements.map(() => 201));

    for (const days of INDEXED_COVERAGE_DAYS) {
      const expected = await fullRead(admin, days);
      expect(await fromIndex(admin, days), `days=${days}`).toEqual(expected);
      expect((await entries(admin, days)).length).toBe(Object.keys(ids).length);
    }
  });

  it('lists a product created after the job at once, and a product created before it is never indexed twice', async () => {
    const { admin, ids } = await indexedCatalog();
    const late = await post(admin, '/inventory/products', { sku: 'LATE', name: 'Produto LATE' });
    const expected = await fullRead(admin, 30);
    expect(expected.map((item) => item.productId)).toContain(late.id);
    expect(await fromIndex(admin, 30)).toEqual(expected);
    await refreshTenantCoverage(admin.tenantId, today());
    expect(await fromIndex(admin, 30)).toEqual(expected);
    expect((await entries(admin, 30)).length).toBe(Object.keys(ids).length + 1);
  });

  it('is not used until a run of the job completes it; past that, the last one completed serves, marked stale with its day, until the next completes', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseId, ids } = await catalog(admin, { A: 10, B: 10 });
    await sell(admin, warehouseId, ids.A as string, 2, 1);
    // Entries exist from the creates, but no run has completed them: the full read answers.
    expect(await fromIndex(admin, 30)).toBeNull();
    const principal = testPrincipal({ tenantId: admin.tenantId });
    const beforeAnyRun = await coveragePage(principal, { days: 30, limit: 500 }, Date.now(), undefined);
    expect({ ...beforeAnyRun, items: beforeAnyRun.items.length }).toEqual({ items: 2, nextCursor: null, figuresOf: today(), stale: false });

    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    const current = await readCoverageIndexPage(admin.tenantId, 30, { today: today(), limit: 1000 });
    expect(current && { figuresOf: current.figuresOf, stale: current.stale }).toEqual({ figuresOf: today(), stale: false });
    expect(await fromIndex(admin, 30)).toEqual(await fullRead(admin, 30));

    // Tomorrow, before the job completes: today's figures, marked stale, in one Query, never the full read.
    const tomorrow = await readCoverageIndexPage(admin.tenantId, 30, { today: addDays(today(), 1), limit: 1000 });
    expect(tomorrow && { figuresOf: tomorrow.figuresOf, stale: tomorrow.stale }).toEqual({ figuresOf: today(), stale: true });
    expect(await fromIndex(admin, 30, addDays(today(), 1))).toEqual(await fullRead(admin, 30));

    // A roll-up that started and failed leaves the index invalidated: still the last completed
    // day's figures, with the stock as it is now (a movement moves its entries at once).
    await invalidateCoverage(admin.tenantId);
    await post(admin, '/inventory/movements', { productId: ids.B, warehouseId, type: 'IN', quantity: 5, unitCost: 2 });
    const stale = await coveragePage(principal, { days: 30, limit: 500 }, Date.now(), undefined);
    expect({ ...stale, items: stale.items.map((item) => [item.sku, item.availableQuantity]) }).toEqual({
      items: [
        ['A', 8],
        ['B', 15],
      ],
      nextCursor: null,
      figuresOf: today(),
      stale: true,
    });
    expect(stale.items).toEqual(await fullRead(admin, 30));
    const overHttp = await call<CoverageItem[]>('GET', '/inventory/dashboard/coverage?days=30', { cookies: admin.cookies });
    expect(overHttp.status).toBe(200);
    expect(overHttp.body).toEqual(stale.items);
    expect([overHttp.headers.get('coverage-stale'), overHttp.headers.get('coverage-figures-date')]).toEqual(['true', today()]);

    await refreshTenantCoverage(admin.tenantId, today());
    const again = await call<CoverageItem[]>('GET', '/inventory/dashboard/coverage?days=30', { cookies: admin.cookies });
    expect([again.headers.get('coverage-stale'), again.headers.get('coverage-figures-date')]).toEqual(['false', today()]);
  });

  it('counts a back-dated sale once the next run rolled it up, and not before', async () => {
    const { admin, warehouseId, ids } = await indexedCatalog();
    const before = await fromIndex(admin, 30);
    await sell(admin, warehouseId, ids.IDLE as string, 3, 2);
    const now = await fromIndex(admin, 30);
    expect(now?.find((item) => item.sku === 'IDLE')).toEqual(
      expect.objectContaining({ availableQuantity: 6, averageDailySales: 0, estimatedCoverageDays: null }),
    );
    expect(now?.filter((item) => item.sku !== 'IDLE')).toEqual(before?.filter((item) => item.sku !== 'IDLE'));

    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    const after = await fromIndex(admin, 30);
    expect(after?.find((item) => item.sku === 'IDLE')).toEqual(
      expect.objectContaining({ availableQuantity: 6, averageDailySales: 0.1, estimatedCoverageDays: 60 }),
    );
    expect(after).toEqual(await fullRead(admin, 30));
  });

  it('walks pages across the full read and the index without losing or repeating a product', async () => {
    const admin = await newTenantWithAdmin();
    const stock = Object.fromEntries(Array.from({ length: 7 }, (_, index) => [`P${index}`, 10 + index]));
    const { warehouseId, ids } = await catalog(admin, stock);
    for (const [index, productId] of Object.values(ids).entries()) if (index % 2 === 0) await sell(admin, warehouseId, productId, 1 + index, 1);
    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    const whole = await fullRead(admin, 30);
    const principal = testPrincipal({ tenantId: admin.tenantId });
    const walk = async (first: Awaited<ReturnType<typeof coveragePage>>, between: () => Promise<void>) => {
      await between();
      const items = [...first.items];
      for (let cursor = first.nextCursor; cursor;) {
        const page = await coveragePage(principal, { days: 30, limit: 3, cursor }, Date.now(), undefined);
        items.push(...page.items);
        cursor = page.nextCursor;
      }
      return items;
    };

    // First page from the last completed index (invalidated: stale), the rest from the refreshed one.
    await invalidateCoverage(admin.tenantId);
    const fromFull = await coveragePage(principal, { days: 30, limit: 3 }, Date.now(), undefined);
    expect(await walk(fromFull, async () => void (await refreshTenantCoverage(admin.tenantId, today())))).toEqual(whole);
    // And the other way round.
    const fromIndexFirst = await coveragePage(principal, { days: 30, limit: 3 }, Date.now(), undefined);
    expect(await walk(fromIndexFirst, async () => expect(await invalidateCoverage(admin.tenantId)).toBe(true))).toEqual(whole);

    await refreshTenantCoverage(admin.tenantId, today());
    const overHttp = await allPages<CoverageItem>('/inventory/dashboard/coverage?days=30&limit=2', admin.cookies);
    expect(overHttp).toEqual({ items: whole, pages: 4 });
  });
});
