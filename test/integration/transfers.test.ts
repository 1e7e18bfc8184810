import { randomUUID } from 'node:crypto';
import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyTenant } from '../../lib/integrity/engine';
import type { MovementView, WarehouseSummary } from '../../lib/inventory/schemas';
import type { TransferView } from '../../lib/transfers/schemas';
import { call, newTenantWithAdmin, problem, settled, useLocalStoreInProcess, type Account } from './api';

/**
 * Transfers between warehouses over HTTP: one transaction moves the units and their exact
 * value, both stock histories name the other side, a refused transfer writes nothing, and
 * retries and parallel transfers out of one balance hold.
 */

beforeAll(useLocalStoreInProcess);

const as = (account: Account, extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ cookies: account.cookies, ...extra });

async function post<T = { id: string }>(account: Account, path: string, body: unknown): Promise<T> {
  const response = await call<T>('POST', path, as(account, { body }));
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

const transfer = (account: Account, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call<TransferView>('POST', '/inventory/transfers', as(account, { body, ...(headers ? { headers } : {}) }));
const transfers = async (account: Account, query = '') =>
  (await call<{ items: TransferView[]; nextCursor: string | null }>('GET', `/inventory/transfers${query}`, as(account))).body;
const history = async (account: Account, query: string) =>
  (await call<{ items: MovementView[] }>('GET', `/inventory/movements${query}`, as(account))).body.items;
const byWarehouse = async (account: Account) =>
  new Map((await call<WarehouseSummary[]>('GET', '/inventory/dashboard/by-warehouse', as(account))).body.map((summary) => [summary.warehouseId, summary]));

async function place(account: Account, unit = 'UN') {
  const product = await post(account, '/inventory/products', { sku: `P-${randomUUID().slice(0, 6)}`, name: 'Café 500 g', unit });
  const from = await post(account, '/inventory/warehouses', { name: `Central ${randomUUID().slice(0, 4)}` });
  const to = await post(account, '/inventory/warehouses', { name: `Loja ${randomUUID().slice(0, 4)}` });
  return { productId: product.id, fromWarehouseId: from.id, toWarehouseId: to.id };
}

const stockIn = (account: Account, productId: string, warehouseId: string, quantity: number, unitCost: number) =>
  post(account, '/inventory/movements', { productId, warehouseId, type: 'IN', quantity, unitCost });

async function expectVerifyClean(tenantId: string) {
  const report = await verifyTenant(tenantId);
  expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
}

describe('POST /inventory/transfers', () => {
  it('moves the units and their exact value in one transaction, and both histories name the other side', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    await stockIn(admin, at.productId, at.fromWarehouseId, 10, 3.3333);
    await stockIn(admin, at.productId, at.toWarehouseId, 5, 2);
    const before = await byWarehouse(admin);

    const response = await transfer(admin, { ...at, quantity: 3, note: 'Reposição' });
    expect(response.status).toBe(201);
    // 33.333 for 10 units: 3 leave with 9.9999 (the exact share), which the destination takes.
    expect(response.body).toEqual({
      id: expect.any(String),
      ...at,
      fromCompanyId: null,
      toCompanyId: null,
      quantity: 3,
      value: 10,
      costMethod: 'WEIGHTED_AVERAGE',
      note: 'Reposição',
      batchId: null,
      occurredAt: expect.any(String),
      createdAt: response.body.occurredAt,
      from: { movementId: expect.any(String), balance: { quantity: 7, averageCost: 3.33, lastCost: 3.33 } },
      to: { movementId: expect.any(String), balance: { quantity: 8, averageCost: 2.5, lastCost: 3.33 } },
    });
    const after = await byWarehouse(admin);
    expect(after.get(at.fromWarehouseId)).toMatchObject({ totalItems: 7, totalValue: 23.33 });
    expect(after.get(at.toWarehouseId)).toMatchObject({ totalItems: 8, totalValue: 20 });
    // The value is moved, not made: the two warehouses together are worth what they were.
    const total = (summaries: Map<string, WarehouseSummary>) =>
      Math.round(((summaries.get(at.fromWarehouseId)?.totalValue ?? 0) + (summaries.get(at.toWarehouseId)?.totalValue ?? 0)) * 100);
    expect(total(after)).toBe(total(before));

    const [out] = await history(admin, `?warehouseId=${at.fromWarehouseId}&limit=1`);
    expect(out).toMatchObject({
      id: response.body.from.movementId,
      type: 'TRANSFER_OUT',
      quantity: 3,
      transferId: response.body.id,
      counterpartWarehouseId: at.toWarehouseId,
      balance: { quantity: 7 },
    });
    const [into] = await history(admin, `?warehouseId=${at.toWarehouseId}&type=TRANSFER_IN`);
    expect(into).toMatchObject({
      id: response.body.to.movementId,
      type: 'TRANSFER_IN',
      transferId: response.body.id,
      counterpartWarehouseId: at.fromWarehouseId,
    });
    // A manual movement names no transfer; the product's total on hand did not change.
    expect((await history(admin, `?warehouseId=${at.toWarehouseId}&type=IN`))[0]).toMatchObject({ transferId: null, counterpartWarehouseId: null });
    expect((await transfers(admin)).items).toEqual([response.body]);
    await expectVerifyClean(admin.tenantId);
  });

  it('refuses what it cannot do with a clear problem, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    await stockIn(admin, at.productId, at.fromWarehouseId, 2, 5);
    const historyBefore = await history(admin, `?productId=${at.productId}`);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...at, quantity: 3 }, 409, 'conflict'],
      [{ ...at, toWarehouseId: at.fromWarehouseId, quantity: 1 }, 400, 'validation'],
      [{ ...at, quantity: 0 }, 400, 'validation'],
      [{ ...at, quantity: 1.5 }, 400, 'validation'],
      [{ ...at, toWarehouseId: randomUUID(), quantity: 1 }, 404, 'not-found'],
      [{ ...at, productId: randomUUID(), quantity: 1 }, 404, 'not-found'],
      [{ ...at, quantity: 1, occurredAt: '2999-01-01T00:00:00.000Z' }, 400, 'validation'],
    ];
    for (const [body, status, type] of cases) {
      expect(await transfer(admin, body), JSON.stringify(body)).toMatchObject({ status, body: problem(status, type) });
    }
    expect((await transfer(admin, { ...at, quantity: 3 })).body).toMatchObject({ detail: 'Not enough stock: 2 on hand, 3 requested' });
    expect(await history(admin, `?productId=${at.productId}`)).toEqual(historyBefore);
    expect((await transfers(admin)).items).toEqual([]);
    // Another tenant's warehouse is not found either.
    const other = await place(await newTenantWithAdmin());
    expect((await transfer(admin, { ...at, toWarehouseId: other.toWarehouseId, quantity: 1 })).status).toBe(404);
    await expectVerifyClean(admin.tenantId);
  });

  it('records a retry with the same Idempotency-Key once, and of 20 parallel transfers out of 7 units moves exactly 7', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    await stockIn(admin, at.productId, at.fromWarehouseId, 7, 1.25);
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await transfer(admin, { ...at, quantity: 2 }, key);
    const again = await transfer(admin, { ...at, quantity: 2 }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await transfers(admin)).items).toHaveLength(1);
    // Back to 7 at the source, then 20 at once.
    expect((await transfer(admin, { ...at, fromWarehouseId: at.toWarehouseId, toWarehouseId: at.fromWarehouseId, quantity: 2 })).status).toBe(201);
    // Each as a client sends it: a 503 (busy under load) again with its Idempotency-Key.
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => {
        const key = { 'Idempotency-Key': randomUUID() };
        return settled(() => transfer(admin, { ...at, quantity: 1 }, key));
      }),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(7);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(13);
    const summaries = await byWarehouse(admin);
    expect(summaries.get(at.fromWarehouseId)).toMatchObject({ totalItems: 0, totalValue: 0 });
    expect(summaries.get(at.toWarehouseId)).toMatchObject({ totalItems: 7, totalValue: 8.75 });
    await expectVerifyClean(admin.tenantId);
  });

  it("carries the source's last cost when its company values at REPLACEMENT, and records both companies", async () => {
    const admin = await newTenantWithAdmin();
    const head = await post(admin, '/companies', { name: 'Matriz', document: cnpj.generate() });
    const branch = await post(admin, '/companies', { name: 'Filial', document: cnpj.generate() });
    expect((await call('PATCH', `/companies/${head.id}`, as(admin, { body: { costMethod: 'REPLACEMENT' } }))).status).toBe(200);
    const product = await post(admin, '/inventory/products', { sku: 'KG-1', name: 'Café a granel', unit: 'KG' });
    const from = await post(admin, '/inventory/warehouses', { name: 'Matriz', companyId: head.id });
    const to = await post(admin, '/inventory/warehouses', { name: 'Filial', companyId: branch.id });
    await stockIn(admin, product.id, from.id, 10, 2);
    await stockIn(admin, product.id, from.id, 10, 4);
    const moved = await transfer(admin, { productId: product.id, fromWarehouseId: from.id, toWarehouseId: to.id, quantity: 2.5 });
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({
      fromCompanyId: head.id,
      toCompanyId: branch.id,
      costMethod: 'REPLACEMENT',
      quantity: 2.5,
      value: 10,
      from: { balance: { quantity: 17.5, averageCost: 3, lastCost: 4 } },
      to: { balance: { quantity: 2.5, averageCost: 4, lastCost: 4 } },
    });
    const summaries = await byWarehouse(admin);
    expect(summaries.get(from.id)).toMatchObject({ costMethod: 'REPLACEMENT', totalValue: 70 });
    expect(summaries.get(to.id)).toMatchObject({ costMethod: 'WEIGHTED_AVERAGE', totalValue: 10 });
    await expectVerifyClean(admin.tenantId);
  });
});

describe('GET /inventory/transfers', () => {
  it('pages newest first, by product and by warehouse on either side', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const third = await post(admin, '/inventory/warehouses', { name: 'Terceiro' });
    await stockIn(admin, at.productId, at.fromWarehouseId, 10, 1);
    const made: TransferView[] = [];
    for (const [toWarehouseId, day] of [
      [at.toWarehouseId, '2026-11-01'],
      [third.id, '2026-11-02'],
      [at.toWarehouseId, '2026-11-03'],
    ] as const) {
      made.push((await transfer(admin, { ...at, toWarehouseId, quantity: 1, occurredAt: `${day}T12:00:00.000Z` })).body);
    }
    const newest = [...made].reverse();
    const first = await transfers(admin, '?limit=2');
    expect(first.items).toEqual(newest.slice(0, 2));
    expect((await transfers(admin, `?limit=2&cursor=${encodeURIComponent(first.nextCursor as string)}`)).items).toEqual(newest.slice(2));
    expect((await transfers(admin, `?warehouseId=${third.id}`)).items).toEqual([made[1]]);
    expect((await transfers(admin, `?warehouseId=${at.fromWarehouseId}`)).items).toEqual(newest);
    expect((await transfers(admin, `?productId=${at.productId}&warehouseId=${at.toWarehouseId}`)).items).toEqual([made[2], made[0]]);
    expect((await transfers(admin, '?from=2026-11-02&to=2026-11-02')).items).toEqual([made[1]]);
    expect(
      (await call('GET', `/inventory/transfers?cursor=${encodeURIComponent(first.nextCursor as string)}&productId=${at.productId}`, as(admin))).status,
    ).toBe(400);
    expect((await call('GET', '/inventory/transfers?type=IN', as(admin))).status).toBe(400);
  });
});
