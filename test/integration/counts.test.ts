import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CountDetailView, CountLineView, CountView } from '../../lib/counts/schemas';
import { continueClose } from '../../lib/counts/close';
import { closeCount } from '../../lib/counts/service';
import { verifyTenant } from '../../lib/integrity/engine';
import { gtinCheckDigit } from '../../lib/inventory/gtin';
import type { MovementView, WarehouseSummary } from '../../lib/inventory/schemas';
import { call, newTenantWithAdmin, problem, settled, useLocalStoreInProcess, type Account } from './api';

/**
 * Stock counts over HTTP: lines counted by hand and by scanner record the system's quantity at
 * the moment they were counted; the close applies each difference once as an ADJUSTMENT delta
 * (sales recorded after a shelf was counted are kept), whoever closes and however often; two
 * open counts of one warehouse and product are refused; the totals are re-derivable.
 */

beforeAll(useLocalStoreInProcess);

const as = (account: Account, extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ cookies: account.cookies, ...extra });

async function post<T = { id: string }>(account: Account, path: string, body: unknown, status = 201): Promise<T> {
  const response = await call<T>('POST', path, as(account, { body }));
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(status);
  return response.body;
}

const gtin = (): string => {
  const data = `789${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  return `${data}${gtinCheckDigit(data)}`;
};

async function stockedProduct(account: Account, warehouseId: string, quantity: number, unitCost: number, unit = 'UN') {
  const code = gtin();
  const product = await post(account, '/inventory/products', { sku: `P-${randomUUID().slice(0, 8)}`, name: `Produto ${code.slice(-4)}`, unit, gtin: code });
  if (quantity > 0) await post(account, '/inventory/movements', { productId: product.id, warehouseId, type: 'IN', quantity, unitCost });
  return { id: product.id, gtin: code };
}

const scan = (account: Account, countId: string, body: Record<string, unknown>) =>
  call<CountLineView>('POST', `/inventory/counts/${countId}/scans`, as(account, { body }));
const setLine = (account: Account, countId: string, productId: string, counted: number) =>
  call<CountLineView>('PUT', `/inventory/counts/${countId}/lines/${productId}`, as(account, { body: { counted } }));
const getCount = async (account: Account, countId: string, query = '') =>
  (await call<CountDetailView>('GET', `/inventory/counts/${countId}${query}`, as(account))).body;
const close = (account: Account, countId: string, uncounted: 'ignore' | 'zero') =>
  call<CountView>('POST', `/inventory/counts/${countId}/close`, as(account, { body: { uncounted } }));
const balanceOf = async (account: Account, productId: string, warehouseId: string) => {
  const { body } = await call<{ items: MovementView[] }>('GET', `/inventory/movements?productId=${productId}&warehouseId=${warehouseId}&limit=1`, as(account));
  return body.items[0]?.balance.quantity ?? 0;
};
const byWarehouse = async (account: Account) =>
  new Map((await call<WarehouseSummary[]>('GET', '/inventory/dashboard/by-warehouse', as(account))).body.map((summary) => [summary.warehouseId, summary]));

async function expectVerifyClean(tenantId: string) {
  const report = await verifyTenant(tenantId);
  expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
}

async function warehouse(account: Account) {
  return post(account, '/inventory/warehouses', { name: `Depósito ${randomUUID().slice(0, 6)}` });
}

describe('a stock count of a warehouse', () => {
  it('counts by scanner and by hand, keeps the sales made after a shelf was counted, and closes exactly', async () => {
    const admin = await newTenantWithAdmin();
    const { id: warehouseId } = await warehouse(admin);
    const coffee = await stockedProduct(admin, warehouseId, 10, 2.5);
    const sugar = await stockedProduct(admin, warehouseId, 4, 3);
    const rice = await stockedProduct(admin, warehouseId, 6, 1.25);

    const opened = await post<CountView>(admin, '/inventory/counts', { warehouseId, note: 'Balanço' });
    expect(opened).toEqual({
      id: expect.any(String),
      warehouseId,
      companyId: null,
      status: 'OPEN',
      scope: 'WAREHOUSE',
      productIds: null,
      costMethod: 'WEIGHTED_AVERAGE',
      note: 'Balanço',
      uncounted: null,
      totals: { lines: 0, linesWithDifference: 0, surplusValue: 0, shortageValue: 0, differenceValue: 0 },
      applied: 0,
      createdAt: expect.any(String),
      createdBy: expect.any(String),
      closedAt: null,
      cancelledAt: null,
    });

    // The coffee shelf: 8 units scanned one by one (system 10), then 2 sold after it was counted.
    for (let unit = 0; unit < 8; unit += 1) expect((await scan(admin, opened.id, { gtin: coffee.gtin })).status).toBe(200);
    const undone = await scan(admin, opened.id, { gtin: coffee.gtin, quantity: -1 });
    expect(undone.body).toMatchObject({ counted: 7, systemAtCount: 10 });
    const rescanned = await scan(admin, opened.id, { gtin: coffee.gtin });
    expect(rescanned.body).toEqual({
      productId: coffee.id,
      sku: expect.any(String),
      name: expect.any(String),
      gtin: coffee.gtin,
      unit: 'UN',
      counted: 8,
      systemAtCount: 10,
      difference: -2,
      unitCost: 2.5,
      differenceValue: -5,
      countedAt: expect.any(String),
      zeroed: false,
      appliedAt: null,
      movementId: null,
      appliedDifference: null,
    });
    await post(admin, '/inventory/movements', { productId: coffee.id, warehouseId, type: 'SALE', quantity: 2 });

    // Sugar typed by hand: 5 on the shelf (system 4), one found.
    expect((await setLine(admin, opened.id, sugar.id, 5)).body).toMatchObject({ counted: 5, systemAtCount: 4, difference: 1, differenceValue: 3 });

    const review = await getCount(admin, opened.id, '?order=difference');
    expect(review.totals).toEqual({ lines: 2, linesWithDifference: 2, surplusValue: 3, shortageValue: -5, differenceValue: -2 });
    expect(review.lines.map((line) => line.productId)).toEqual([coffee.id, sugar.id]);
    // Rice was not counted: it is what the close would leave (ignore) or zero.
    const uncounted = (await call<{ items: { productId: string; quantity: number }[] }>('GET', `/inventory/counts/${opened.id}/uncounted`, as(admin))).body;
    expect(uncounted.items).toEqual([expect.objectContaining({ productId: rice.id, quantity: 6 })]);

    const closed = await close(admin, opened.id, 'ignore');
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'CLOSED', uncounted: 'ignore', applied: 2, closedAt: expect.any(String) });
    // Coffee: counted 8 − 2 sold after it was counted = 6 (not the 8 an absolute adjustment would set).
    expect(await balanceOf(admin, coffee.id, warehouseId)).toBe(6);
    expect(await balanceOf(admin, sugar.id, warehouseId)).toBe(5);
    expect(await balanceOf(admin, rice.id, warehouseId)).toBe(6);
    const summary = (await byWarehouse(admin)).get(warehouseId);
    // 6 × 2.5 + 5 × 3 (the found unit at the average) + 6 × 1.25 = 37.5
    expect(summary).toMatchObject({ totalItems: 17, totalValue: 37.5 });
    const lines = (await getCount(admin, opened.id)).lines;
    expect(lines.find((line) => line.productId === coffee.id)).toMatchObject({
      appliedDifference: -2,
      movementId: expect.any(String),
      appliedAt: expect.any(String),
    });

    // Closing again answers the same count and applies nothing more.
    expect((await close(admin, opened.id, 'ignore')).body).toMatchObject({ status: 'CLOSED', applied: 2 });
    expect(await balanceOf(admin, coffee.id, warehouseId)).toBe(6);
    expect(await close(admin, opened.id, 'zero')).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    // A closed count takes no line.
    expect(await scan(admin, opened.id, { gtin: rice.gtin })).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    await expectVerifyClean(admin.tenantId);
  });

  it('counts the products nobody counted as 0 when closed with uncounted "zero"', async () => {
    const admin = await newTenantWithAdmin();
    const { id: warehouseId } = await warehouse(admin);
    const counted = await stockedProduct(admin, warehouseId, 3, 10);
    const forgotten = await stockedProduct(admin, warehouseId, 2, 7.5);
    const opened = await post<CountView>(admin, '/inventory/counts', { warehouseId });
    await setLine(admin, opened.id, counted.id, 3);
    const closed = await close(admin, opened.id, 'zero');
    expect(closed.body).toMatchObject({ status: 'CLOSED', applied: 2, totals: { lines: 2, linesWithDifference: 1, shortageValue: -15, surplusValue: 0 } });
    expect(await balanceOf(admin, forgotten.id, warehouseId)).toBe(0);
    expect(await balanceOf(admin, counted.id, warehouseId)).toBe(3);
    const zeroed = (await getCount(admin, opened.id)).lines.find((line) => line.productId === forgotten.id);
    expect(zeroed).toMatchObject({ zeroed: true, counted: 0, systemAtCount: 2, appliedDifference: -2 });
    expect((await byWarehouse(admin)).get(warehouseId)).toMatchObject({ totalItems: 3, totalValue: 30 });
    await expectVerifyClean(admin.tenantId);
  });

  it('refuses a second open count of the same warehouse and product, and frees them when cancelled', async () => {
    const admin = await newTenantWithAdmin();
    const { id: warehouseId } = await warehouse(admin);
    const a = await stockedProduct(admin, warehouseId, 1, 1);
    const b = await stockedProduct(admin, warehouseId, 1, 1);
    const scoped = await post<CountView>(admin, '/inventory/counts', { warehouseId, productIds: [a.id] });
    expect(scoped).toMatchObject({ scope: 'PRODUCTS', productIds: [a.id] });
    // Another product of the warehouse can be counted apart; the same one, or the whole warehouse, cannot.
    const other = await post<CountView>(admin, '/inventory/counts', { warehouseId, productIds: [b.id] });
    expect(await call('POST', '/inventory/counts', as(admin, { body: { warehouseId, productIds: [a.id] } }))).toMatchObject({
      status: 409,
      body: problem(409, 'conflict'),
    });
    expect(await call('POST', '/inventory/counts', as(admin, { body: { warehouseId } }))).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    // A product outside a count of products is refused in it.
    expect(await setLine(admin, scoped.id, b.id, 1)).toMatchObject({ status: 409, body: problem(409, 'conflict') });

    expect((await call<CountView>('POST', `/inventory/counts/${scoped.id}/cancel`, as(admin))).body).toMatchObject({
      status: 'CANCELLED',
      cancelledAt: expect.any(String),
    });
    expect(await call('POST', `/inventory/counts/${scoped.id}/cancel`, as(admin))).toMatchObject({ status: 409 });
    expect(await close(admin, scoped.id, 'ignore')).toMatchObject({ status: 409 });
    await post(admin, '/inventory/counts', { warehouseId, productIds: [a.id] });
    await post(admin, `/inventory/counts/${other.id}/cancel`, undefined, 200);

    // Ten opens of one whole warehouse at once: exactly one.
    const { id: fresh } = await warehouse(admin);
    const opens = await Promise.all(
      Array.from({ length: 10 }, () => {
        const headers = { 'Idempotency-Key': randomUUID() };
        return settled(() => call('POST', '/inventory/counts', as(admin, { body: { warehouseId: fresh }, headers })));
      }),
    );
    expect(opens.map((response) => response.status).sort()).toEqual([201, ...Array.from({ length: 9 }, () => 409)]);
    const open = await call<{ items: CountView[] }>('GET', '/inventory/counts?status=OPEN', as(admin));
    expect(open.body.items.map((count) => count.warehouseId).sort()).toEqual([warehouseId, fresh].sort());
    await expectVerifyClean(admin.tenantId);
  });

  it('answers a clear problem for what it does not take, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const { id: warehouseId } = await warehouse(admin);
    const product = await stockedProduct(admin, warehouseId, 2, 1);
    const opened = await post<CountView>(admin, '/inventory/counts', { warehouseId });
    const unknown = gtin();
    const missing = await scan(admin, opened.id, { gtin: unknown });
    expect(missing).toMatchObject({ status: 404, body: problem(404, 'not-found') });
    expect((missing.body as unknown as { detail: string }).detail).toContain(unknown);
    expect(await scan(admin, opened.id, { sku: 'NO-SUCH' })).toMatchObject({ status: 404 });
    expect(await scan(admin, opened.id, { gtin: product.gtin, sku: 'X' })).toMatchObject({ status: 400, body: problem(400, 'validation') });
    expect(await scan(admin, opened.id, { gtin: product.gtin, quantity: 0 })).toMatchObject({ status: 400 });
    expect(await scan(admin, opened.id, { gtin: product.gtin, quantity: -1 })).toMatchObject({ status: 409 });
    expect(await setLine(admin, opened.id, product.id, 1.5)).toMatchObject({ status: 400, body: problem(400, 'validation') });
    expect(await setLine(admin, opened.id, product.id, -1)).toMatchObject({ status: 400 });
    expect(await setLine(admin, opened.id, randomUUID(), 1)).toMatchObject({ status: 404 });
    expect(await call('POST', '/inventory/counts', as(admin, { body: { warehouseId: randomUUID() } }))).toMatchObject({ status: 404 });
    expect(await call('GET', `/inventory/counts/${randomUUID()}`, as(admin))).toMatchObject({ status: 404 });
    expect((await getCount(admin, opened.id)).totals.lines).toBe(0);
    // Another tenant does not see it.
    const stranger = await newTenantWithAdmin();
    expect(await call('GET', `/inventory/counts/${opened.id}`, as(stranger))).toMatchObject({ status: 404 });
  });
});

describe('a scan sent again', () => {
  it('with its Idempotency-Key counts once (a scanner on a flaky network), and without one counts again', async () => {
    const admin = await newTenantWithAdmin();
    const { id: warehouseId } = await warehouse(admin);
    const product = await stockedProduct(admin, warehouseId, 5, 1);
    const opened = await post<CountView>(admin, '/inventory/counts', { warehouseId });
    const key = randomUUID();
    const send = () =>
      call<CountLineView>('POST', `/inventory/counts/${opened.id}/scans`, as(admin, { body: { gtin: product.gtin }, headers: { 'Idempotency-Key': key } }));
    const first = await send();
    const again = await send();
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await getCount(admin, opened.id)).lines.map((line) => line.counted)).toEqual([1]);
    expect((await scan(admin, opened.id, { gtin: product.gtin })).body.counted).toBe(2);
  });
});

describe('the close', () => {
  it('applies each difference once when two closes run at once, and parallel scans all count', async () => {
    const admin = await newTenantWithAdmin();
    const { id: warehouseId } = await warehouse(admin);
    const products = await Promise.all(Array.from({ length: 12 }, (_, index) => stockedProduct(admin, warehouseId, 5 + index, 2)));
    const opened = await post<CountView>(admin, '/inventory/counts', { warehouseId });
    const first = products[0] as { id: string; gtin: string };
    // Each as a client sends it under load: a 503 (busy) again, a scan with its Idempotency-Key.
    const scans = await Promise.all(
      Array.from({ length: 6 }, () => {
        const headers = { 'Idempotency-Key': randomUUID() };
        return settled(() => call<CountLineView>('POST', `/inventory/counts/${opened.id}/scans`, as(admin, { body: { gtin: first.gtin }, headers })));
      }),
    );
    expect(scans.map((response) => response.status)).toEqual(Array.from({ length: 6 }, () => 200));
    const lines = await Promise.all(products.slice(1).map((product) => settled(() => setLine(admin, opened.id, product.id, 3))));
    expect(lines.map((response) => response.status)).toEqual(Array.from({ length: 11 }, () => 200));
    expect((await getCount(admin, opened.id)).lines.find((line) => line.productId === first.id)?.counted).toBe(6);

    const [one, two] = await Promise.all([close(admin, opened.id, 'ignore'), close(admin, opened.id, 'ignore')]);
    expect([one.status, two.status]).toEqual([200, 200]);
    const closed = await getCount(admin, opened.id);
    expect(closed).toMatchObject({ status: 'CLOSED', applied: 12 });
    expect(await balanceOf(admin, first.id, warehouseId)).toBe(6);
    for (const product of products.slice(1)) expect(await balanceOf(admin, product.id, warehouseId)).toBe(3);
    // One ADJUSTMENT per product, whoever applied it.
    const adjustments = (await call<{ items: MovementView[] }>('GET', `/inventory/movements?warehouseId=${warehouseId}&type=ADJUSTMENT&limit=100`, as(admin)))
      .body.items;
    expect(adjustments).toHaveLength(12);
    await expectVerifyClean(admin.tenantId);
  });

  it('goes on where it stopped: a close cut short is CLOSING, and the next run ends it without applying a line twice', async () => {
    const admin = await newTenantWithAdmin();
    const { id: warehouseId } = await warehouse(admin);
    const products = await Promise.all(Array.from({ length: 30 }, () => stockedProduct(admin, warehouseId, 4, 1.5)));
    const opened = await post<CountView>(admin, '/inventory/counts', { warehouseId });
    const lines = await Promise.all(products.map((product) => settled(() => setLine(admin, opened.id, product.id, 1))));
    expect(lines.map((response) => response.status)).toEqual(Array.from({ length: 30 }, () => 200));
    const principal = { kind: 'user', tenantId: admin.tenantId, userId: randomUUID(), role: 'ADMIN' } as Parameters<typeof closeCount>[0];

    // One transaction within the request: the rest is left for the background.
    const cut = await closeCount(principal, opened.id, { uncounted: 'ignore' }, Date.now(), 1);
    expect(cut.status).toBe('CLOSING');
    expect(cut.applied).toBeGreaterThan(0);
    expect(cut.applied).toBeLessThan(30);
    expect(await continueClose(admin.tenantId, opened.id, Date.now())).toBe(true);
    expect(await getCount(admin, opened.id)).toMatchObject({ status: 'CLOSED', applied: 30 });
    for (const product of products) expect(await balanceOf(admin, product.id, warehouseId)).toBe(1);
    expect((await byWarehouse(admin)).get(warehouseId)).toMatchObject({ totalItems: 30, totalValue: 45 });
    await expectVerifyClean(admin.tenantId);
  });
});
