import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyTenant } from '../../lib/integrity/engine';
import type { MovementView, WarehouseSummary } from '../../lib/inventory/schemas';
import { auditRecord } from '../../lib/audit/record';
import { arriveAll } from '../../lib/transfers/arrival';
import { departBatch, findBatch } from '../../lib/transfers/batch-repository';
import type { TransferBatchView, TransferView } from '../../lib/transfers/schemas';
import { call, newTenantWithAdmin, problem, settled, useLocalStoreInProcess, type Account } from './api';

/**
 * Transfers of several products over HTTP: all or none, each line a transfer of its own, a
 * retry with its key recorded once, parallel ones out of short balances exact, and an arrival
 * left half done (its request died) carried on once, with verify clean in between.
 */

beforeAll(useLocalStoreInProcess);

const as = (account: Account, extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ cookies: account.cookies, ...extra });

async function post<T = { id: string }>(account: Account, path: string, body: unknown): Promise<T> {
  const response = await call<T>('POST', path, as(account, { body }));
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

const transfer = (account: Account, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call<TransferBatchView>('POST', '/inventory/transfers', as(account, { body, ...(headers ? { headers } : {}) }));
const transfers = async (account: Account, query = '') =>
  (await call<{ items: TransferView[]; nextCursor: string | null }>('GET', `/inventory/transfers${query}`, as(account))).body;
const history = async (account: Account, query: string) =>
  (await call<{ items: MovementView[] }>('GET', `/inventory/movements${query}`, as(account))).body.items;
const byWarehouse = async (account: Account) =>
  new Map((await call<WarehouseSummary[]>('GET', '/inventory/dashboard/by-warehouse', as(account))).body.map((summary) => [summary.warehouseId, summary]));

/** Two warehouses, and products in the first: `stock` gives each one's units and unit cost. */
async function place(account: Account, stock: { unit?: string; quantity: number; unitCost: number }[]) {
  const fromWarehouseId = (await post(account, '/inventory/warehouses', { name: `Central ${randomUUID().slice(0, 4)}` })).id;
  const toWarehouseId = (await post(account, '/inventory/warehouses', { name: `Loja ${randomUUID().slice(0, 4)}` })).id;
  const productIds: string[] = [];
  for (const { unit = 'UN', quantity, unitCost } of stock) {
    const product = await post(account, '/inventory/products', { sku: `P-${randomUUID().slice(0, 6)}`, name: 'Café', unit });
    await post(account, '/inventory/movements', { productId: product.id, warehouseId: fromWarehouseId, type: 'IN', quantity, unitCost });
    productIds.push(product.id);
  }
  return { fromWarehouseId, toWarehouseId, productIds };
}

async function expectVerifyClean(tenantId: string) {
  const report = await verifyTenant(tenantId);
  expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
}

describe('POST /inventory/transfers with items', () => {
  it('moves every product at its exact value, each line a transfer of its own, with one audit entry', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin, [
      { quantity: 10, unitCost: 3.3333 },
      { unit: 'KG', quantity: 5.5, unitCost: 20 },
      ...Array.from({ length: 7 }, () => ({ quantity: 4, unitCost: 1.5 })),
    ]);
    const [coffee, bulk, ...others] = at.productIds as [string, string, ...string[]];
    const items = [{ productId: coffee, quantity: 3 }, { productId: bulk, quantity: 1.25 }, ...others.map((productId) => ({ productId, quantity: 4 }))];
    const response = await transfer(admin, { fromWarehouseId: at.fromWarehouseId, toWarehouseId: at.toWarehouseId, items, note: 'Reposição' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const line = (productId: string, quantity: number, value: number, from: object, to: object) => ({
      id: expect.any(String),
      productId,
      fromWarehouseId: at.fromWarehouseId,
      toWarehouseId: at.toWarehouseId,
      fromCompanyId: null,
      toCompanyId: null,
      quantity,
      value,
      costMethod: 'WEIGHTED_AVERAGE',
      note: 'Reposição',
      batchId: response.body.id,
      occurredAt: response.body.occurredAt,
      createdAt: response.body.createdAt,
      from: { movementId: expect.any(String), balance: from },
      to: { movementId: expect.any(String), balance: to },
    });
    expect(response.body).toEqual({
      id: expect.any(String),
      status: 'COMPLETED',
      fromWarehouseId: at.fromWarehouseId,
      toWarehouseId: at.toWarehouseId,
      fromCompanyId: null,
      toCompanyId: null,
      costMethod: 'WEIGHTED_AVERAGE',
      // 9.9999 + 25 + 7 × 6, summed exactly and rounded once.
      value: 77,
      note: 'Reposição',
      occurredAt: expect.any(String),
      createdAt: response.body.occurredAt,
      completedAt: response.body.createdAt,
      items: [
        line(coffee, 3, 10, { quantity: 7, averageCost: 3.33, lastCost: 3.33 }, { quantity: 3, averageCost: 3.33, lastCost: 3.33 }),
        line(bulk, 1.25, 25, { quantity: 4.25, averageCost: 20, lastCost: 20 }, { quantity: 1.25, averageCost: 20, lastCost: 20 }),
        ...others.map((productId) => line(productId, 4, 6, { quantity: 0, averageCost: 1.5, lastCost: 1.5 }, { quantity: 4, averageCost: 1.5, lastCost: 1.5 })),
      ],
    });
    const summaries = await byWarehouse(admin);
    expect(summaries.get(at.fromWarehouseId)).toMatchObject({ totalItems: 11.25, totalValue: 108.33, totalProducts: 2 });
    expect(summaries.get(at.toWarehouseId)).toMatchObject({ totalItems: 32.25, totalValue: 77, totalProducts: 9 });
    // Both histories name the other side; the lines are listed as transfers.
    const [arrived] = await history(admin, `?productId=${bulk}&warehouseId=${at.toWarehouseId}`);
    expect(arrived).toMatchObject({ type: 'TRANSFER_IN', quantity: 1.25, counterpartWarehouseId: at.fromWarehouseId, transferId: response.body.items[1]?.id });
    const [left] = await history(admin, `?productId=${bulk}&warehouseId=${at.fromWarehouseId}&type=TRANSFER_OUT`);
    expect(left).toMatchObject({ type: 'TRANSFER_OUT', quantity: 1.25, counterpartWarehouseId: at.toWarehouseId });
    const listed = await transfers(admin, `?warehouseId=${at.toWarehouseId}`);
    expect(new Set(listed.items.map((item) => item.id))).toEqual(new Set(response.body.items.map((item) => item.id)));
    const trail = await call<{ items: { action: string; resource: { id: string } }[] }>('GET', `/audit-events?resourceId=${response.body.id}`, as(admin));
    expect(trail.body.items.map((entry) => entry.resource.id)).toEqual([response.body.id]);
    await expectVerifyClean(admin.tenantId);
  });

  it('refuses all when one line cannot move, naming it, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin, [
      { quantity: 5, unitCost: 2 },
      { quantity: 2, unitCost: 2 },
    ]);
    const [first, second] = at.productIds as [string, string];
    const base = { fromWarehouseId: at.fromWarehouseId, toWarehouseId: at.toWarehouseId };
    const before = await byWarehouse(admin);
    const short = await transfer(admin, {
      ...base,
      items: [
        { productId: first, quantity: 5 },
        { productId: second, quantity: 3 },
      ],
    });
    expect(short).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect(short.body).toMatchObject({ detail: `items[1] (product ${second}): Not enough stock: 2 on hand, 3 requested` });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, items: [] }, 400, 'validation'],
      [
        {
          ...base,
          items: [
            { productId: first, quantity: 1 },
            { productId: first, quantity: 1 },
          ],
        },
        400,
        'validation',
      ],
      [{ ...base, items: [{ productId: first, quantity: 1.5 }] }, 400, 'validation'],
      [{ ...base, productId: first, quantity: 1, items: [{ productId: second, quantity: 1 }] }, 400, 'validation'],
      [{ ...base, items: Array.from({ length: 51 }, () => ({ productId: randomUUID(), quantity: 1 })) }, 400, 'validation'],
      [
        {
          ...base,
          items: [
            { productId: first, quantity: 1 },
            { productId: randomUUID(), quantity: 1 },
          ],
        },
        404,
        'not-found',
      ],
      [{ ...base, toWarehouseId: randomUUID(), items: [{ productId: first, quantity: 1 }] }, 404, 'not-found'],
    ];
    for (const [body, status, type] of cases) expect(await transfer(admin, body), JSON.stringify(body)).toMatchObject({ status, body: problem(status, type) });
    expect(await byWarehouse(admin)).toEqual(before);
    expect((await transfers(admin)).items).toEqual([]);
    expect(await history(admin, `?productId=${first}&type=TRANSFER_OUT`)).toEqual([]);
    await expectVerifyClean(admin.tenantId);
  });

  it('records a retry with its Idempotency-Key once, and of 10 parallel transfers out of 7 units moves exactly 7', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin, [
      { quantity: 7, unitCost: 1.25 },
      { quantity: 100, unitCost: 2 },
    ]);
    const [scarce, plenty] = at.productIds as [string, string];
    const base = { fromWarehouseId: at.fromWarehouseId, toWarehouseId: at.toWarehouseId };
    const key = { 'Idempotency-Key': randomUUID() };
    const body = { ...base, items: [{ productId: plenty, quantity: 2 }] };
    const first = await transfer(admin, body, key);
    const again = await transfer(admin, body, key);
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect((await transfers(admin)).items).toHaveLength(1);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => {
        const key = { 'Idempotency-Key': randomUUID() };
        return settled(() =>
          transfer(
            admin,
            {
              ...base,
              items: [
                { productId: plenty, quantity: 1 },
                { productId: scarce, quantity: 1 },
              ],
            },
            key,
          ),
        );
      }),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(7);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(3);
    // All or none: the plentiful product moved exactly as often as the scarce one.
    expect((await transfers(admin, `?productId=${plenty}`)).items).toHaveLength(8);
    expect((await transfers(admin, `?productId=${scarce}`)).items).toHaveLength(7);
    const summaries = await byWarehouse(admin);
    expect(summaries.get(at.fromWarehouseId)).toMatchObject({ totalItems: 91, totalValue: 182 });
    expect(summaries.get(at.toWarehouseId)).toMatchObject({ totalItems: 16, totalValue: 26.75 });
    await expectVerifyClean(admin.tenantId);
  });

  it('carries on an arrival its request left half done, each line once, and verify counts the units in transit meanwhile', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(
      admin,
      Array.from({ length: 9 }, (_, index) => ({ quantity: 10 + index, unitCost: 2 })),
    );
    const batchId = randomUUID();
    const nowMs = Date.now();
    const audit = auditRecord(
      { scope: { tenantId: admin.tenantId }, action: 'transfer.created', resource: { type: 'transfer', id: batchId }, eventFields: { items: 9 } },
      nowMs,
    );
    const createdAt = new Date(nowMs).toISOString();
    // The departure alone, as a request that died right after it leaves it.
    await departBatch(
      admin.tenantId,
      { batchId, ...at, lines: at.productIds.map((productId) => ({ productId, quantity: 4000n })) },
      {
        admit: () => undefined,
        build: ({ costMethod, lines }) => ({
          id: batchId,
          fromWarehouseId: at.fromWarehouseId,
          toWarehouseId: at.toWarehouseId,
          fromCompanyId: null,
          toCompanyId: null,
          costMethod,
          note: null,
          occurredAt: createdAt,
          createdAt,
          day: createdAt.slice(0, 10),
          status: 'IN_TRANSIT',
          arrived: 0,
          completedAt: null,
          lines: at.productIds.map((productId, index) => ({
            id: randomUUID(),
            productId,
            fromWarehouseId: at.fromWarehouseId,
            toWarehouseId: at.toWarehouseId,
            fromCompanyId: null,
            toCompanyId: null,
            quantity: 4000n,
            value: lines[index]!.value,
            costMethod,
            note: null,
            batchId,
            occurredAt: createdAt,
            createdAt,
            outMovementId: randomUUID(),
            inMovementId: randomUUID(),
            fromAfter: {
              quantity: lines[index]!.fromAfter.quantity,
              averageCost: lines[index]!.fromAfter.averageCost,
              lastCost: lines[index]!.fromAfter.lastCost,
            },
            toAfter: null,
          })),
        }),
      },
      audit,
    );
    expect((await byWarehouse(admin)).get(at.fromWarehouseId)).toMatchObject({ totalItems: 9 * 14 - 36 });
    await expectVerifyClean(admin.tenantId);
    // Two runners at once (the queue's step and a retry): every line arrives once.
    const [one, other] = await Promise.all([arriveAll(admin.tenantId, batchId, Date.now()), arriveAll(admin.tenantId, batchId, Date.now())]);
    expect(one).toEqual(other);
    expect(one).toMatchObject({ status: 'COMPLETED', arrived: 9 });
    expect(await findBatch(admin.tenantId, batchId)).toEqual(one);
    const summaries = await byWarehouse(admin);
    expect(summaries.get(at.toWarehouseId)).toMatchObject({ totalItems: 36, totalValue: 72, totalProducts: 9 });
    expect((await transfers(admin)).items).toHaveLength(9);
    expect(await history(admin, `?warehouseId=${at.toWarehouseId}`)).toHaveLength(9);
    await expectVerifyClean(admin.tenantId);
  });
});
