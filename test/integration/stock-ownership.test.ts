import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyMovement, EMPTY_BALANCE, lastCostAfter, valueAt, type ExactBalance, type ExactMovement } from '../../lib/inventory/costing';
import { divideRounded, parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES } from '../../lib/domain/decimal';
import { verifyTenant } from '../../lib/integrity/engine';
import type { WarehouseSummary } from '../../lib/inventory/schemas';
import { call, newTenantWithAdmin, problem, useLocalStoreInProcess, type Account } from './api';

/**
 * Stock belongs to a company, and its value follows the company's cost method: a warehouse
 * holds one company's stock, and the by-warehouse dashboard values it at average cost
 * (WEIGHTED_AVERAGE) or at each balance's last cost (REPLACEMENT), both kept exactly with every
 * movement, so a change of method revalues at once.
 */

beforeAll(useLocalStoreInProcess);

async function post<T = { id: string }>(account: Account, path: string, body: unknown): Promise<T> {
  const response = await call<T>('POST', path, { cookies: account.cookies, body });
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

const company = (account: Account, name: string) => post(account, '/companies', { name, document: cnpj.generate() });
const byWarehouse = async (account: Account, query = '') =>
  (await call<WarehouseSummary[]>('GET', `/inventory/dashboard/by-warehouse${query}`, { cookies: account.cookies })).body;

/** A deterministic sequence in [0, 1): the same 200 movements on every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** Cents of an exact value (10^-7), half to even, as the dashboard rounds it. */
const cents = (value: bigint): number => Number(divideRounded(value, 100_000n)) / 100;

describe('a warehouse belongs to a company', () => {
  it('takes an ACTIVE company of the tenant, by default the oldest ACTIVE one; none when the tenant has no company', async () => {
    const admin = await newTenantWithAdmin();
    const bare = await post<{ companyId: string | null }>(admin, '/inventory/warehouses', { name: 'Sem empresa' });
    expect(bare.companyId).toBeNull();

    const first = await company(admin, 'Matriz');
    const second = await company(admin, 'Filial');
    expect((await post<{ companyId: string }>(admin, '/inventory/warehouses', { name: 'Padrão' })).companyId).toBe(first.id);
    expect((await post<{ companyId: string }>(admin, '/inventory/warehouses', { name: 'Filial', companyId: second.id })).companyId).toBe(second.id);

    expect((await call('PATCH', `/companies/${second.id}/status`, { cookies: admin.cookies, body: { status: 'DISABLED' } })).status).toBe(200);
    expect(await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Não', companyId: second.id } })).toMatchObject({
      status: 409,
      body: problem(409, 'conflict', { detail: expect.stringContaining('DISABLED') }),
    });
    const foreign = await company(await newTenantWithAdmin(), 'Outra');
    expect(await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Não', companyId: foreign.id } })).toMatchObject({
      status: 404,
      body: problem(404, 'not-found'),
    });

    const summaries = await byWarehouse(admin);
    expect(summaries.map((summary) => [summary.warehouseName, summary.companyId, summary.costMethod])).toEqual([
      ['Filial', second.id, 'WEIGHTED_AVERAGE'],
      ['Padrão', first.id, 'WEIGHTED_AVERAGE'],
      ['Sem empresa', null, 'WEIGHTED_AVERAGE'],
    ]);
    expect((await byWarehouse(admin, `?companyId=${second.id}`)).map((summary) => summary.warehouseName)).toEqual(['Filial']);
  });
});

describe('a halted company', () => {
  it('refuses every movement in its warehouses while BLOCKED or SUSPENDED, and takes them again once ACTIVE', async () => {
    const admin = await newTenantWithAdmin();
    const owner = await company(admin, 'Loja');
    const other = await company(admin, 'Outra loja');
    const warehouseId = (await post(admin, '/inventory/warehouses', { name: 'Loja', companyId: owner.id })).id;
    const elsewhere = (await post(admin, '/inventory/warehouses', { name: 'Outra', companyId: other.id })).id;
    const productId = (await post(admin, '/inventory/products', { sku: 'CAFE', name: 'Café' })).id;
    const move = (at: string, body: Record<string, unknown>) =>
      call('POST', '/inventory/movements', { cookies: admin.cookies, body: { productId, warehouseId: at, ...body } });
    expect((await move(warehouseId, { type: 'IN', quantity: 10, unitCost: 5 })).status).toBe(201);

    for (const status of ['SUSPENDED', 'BLOCKED'] as const) {
      expect((await call('PATCH', `/companies/${owner.id}/status`, { cookies: admin.cookies, body: { status } })).status).toBe(200);
      for (const body of [
        { type: 'IN', quantity: 1, unitCost: 5 },
        { type: 'SALE', quantity: 1 },
        { type: 'ADJUSTMENT', quantity: 0 },
      ]) {
        expect(await move(warehouseId, body), `${status} ${body.type}`).toMatchObject({
          status: 409,
          body: problem(409, 'conflict', { detail: expect.stringContaining(status) }),
        });
      }
      // Another company's warehouse is not concerned.
      expect((await move(elsewhere, { type: 'IN', quantity: 1, unitCost: 5 })).status).toBe(201);
      if (status === 'SUSPENDED')
        expect((await call('PATCH', `/companies/${owner.id}/status`, { cookies: admin.cookies, body: { status: 'ACTIVE' } })).status).toBe(200);
    }
    // Nothing was recorded while it was halted.
    const history = await call<{ items: unknown[] }>('GET', `/inventory/movements?warehouseId=${warehouseId}`, { cookies: admin.cookies });
    expect(history.body.items).toHaveLength(1);
    // An unknown warehouse is still a 404, not a 409.
    expect((await move('00000000-0000-4000-8000-000000000000', { type: 'SALE', quantity: 1 })).status).toBe(404);
  });

  it('of a warehouse made while its company is blocked at once, never leaves one that takes movements', async () => {
    const admin = await newTenantWithAdmin();
    const owner = await company(admin, 'Loja');
    const [made, blocked] = await Promise.all([
      call<{ id: string }>('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Nova', companyId: owner.id } }),
      call('PATCH', `/companies/${owner.id}/status`, { cookies: admin.cookies, body: { status: 'BLOCKED' } }),
    ]);
    expect(blocked.status).toBe(200);
    if (made.status === 201) {
      const productId = (await post(admin, '/inventory/products', { sku: 'X', name: 'X' })).id;
      const answer = await call('POST', '/inventory/movements', {
        cookies: admin.cookies,
        body: { productId, warehouseId: made.body.id, type: 'IN', quantity: 1, unitCost: 1 },
      });
      expect(answer.status).toBe(409);
    } else {
      expect(made.status).toBe(409);
    }
  });
});

describe("the warehouse's value follows its company's cost method", () => {
  it('is Σ quantity x last cost for REPLACEMENT and the weighted total for WEIGHTED_AVERAGE after 200 mixed movements, to the cent', async () => {
    const admin = await newTenantWithAdmin();
    const weighted = await company(admin, 'Média');
    const replacement = await company(admin, 'Reposição');
    expect((await call('PATCH', `/companies/${replacement.id}`, { cookies: admin.cookies, body: { costMethod: 'REPLACEMENT' } })).status).toBe(200);
    const warehouses = {
      [weighted.id]: (await post(admin, '/inventory/warehouses', { name: 'A Média', companyId: weighted.id })).id,
      [replacement.id]: (await post(admin, '/inventory/warehouses', { name: 'B Reposição', companyId: replacement.id })).id,
    };
    const products = [
      (await post(admin, '/inventory/products', { sku: 'GRAO', name: 'Grão a granel', unit: 'KG' })).id,
      (await post(admin, '/inventory/products', { sku: 'OLEO', name: 'Óleo a granel', unit: 'L' })).id,
    ];

    // The expected state of each balance, from the same exact rules (lib/inventory/costing) the service applies.
    const balances = new Map<string, { balance: ExactBalance; lastCost: bigint }>();
    const random = sequence(46);
    let refused = 0;
    for (let index = 0; index < 200; index += 1) {
      const warehouseId = Object.values(warehouses)[index % 2] as string;
      const productId = products[Math.floor(random() * 2)] as string;
      const key = `${productId}#${warehouseId}`;
      const state = balances.get(key) ?? { balance: EMPTY_BALANCE, lastCost: 0n };
      const roll = random();
      const type = roll < 0.4 ? 'IN' : roll < 0.6 ? 'SALE' : roll < 0.8 ? 'OUT' : 'ADJUSTMENT';
      // Whole thousandths and ten-thousandths over their scale: the decimals as typed, never float sums.
      const quantity = (Math.floor(random() * (type === 'IN' || type === 'ADJUSTMENT' ? 40_000 : 12_000)) + (type === 'ADJUSTMENT' ? 0 : 1)) / 1_000;
      const unitCost = type === 'IN' || (type === 'ADJUSTMENT' && random() < 0.5) ? (10_000 + Math.floor(random() * 500_000)) / 10_000 : undefined;
      const answer = await call('POST', '/inventory/movements', {
        cookies: admin.cookies,
        body: { productId, warehouseId, type, quantity, ...(unitCost === undefined ? {} : { unitCost }) },
      });
      const exact: ExactMovement = {
        type,
        quantity: parseScaled(quantity, QUANTITY_PLACES) as bigint,
        ...(unitCost === undefined ? {} : { unitCost: parseScaled(unitCost, UNIT_COST_PLACES) }),
      };
      let next: ExactBalance | undefined;
      try {
        next = applyMovement(state.balance, exact);
      } catch {
        next = undefined;
      }
      if (next === undefined) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        refused += 1;
        continue;
      }
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      balances.set(key, { balance: next, lastCost: lastCostAfter(state.lastCost, exact) });
    }
    expect(refused).toBeLessThan(100);

    const expected = (warehouseId: string) => {
      let average = 0n;
      let last = 0n;
      for (const [key, { balance, lastCost }] of balances) {
        if (!key.endsWith(`#${warehouseId}`)) continue;
        average += balance.value;
        last += valueAt(balance.quantity, lastCost);
      }
      return { average: cents(average), last: cents(last) };
    };
    const values = Object.fromEntries((await byWarehouse(admin)).map((summary) => [summary.warehouseId, [summary.costMethod, summary.totalValue]]));
    const weightedWarehouse = warehouses[weighted.id] as string;
    const replacementWarehouse = warehouses[replacement.id] as string;
    expect(values).toEqual({
      [weightedWarehouse]: ['WEIGHTED_AVERAGE', expected(weightedWarehouse).average],
      [replacementWarehouse]: ['REPLACEMENT', expected(replacementWarehouse).last],
    });

    // A change of method revalues the company's warehouses at once: both values are kept.
    expect((await call('PATCH', `/companies/${weighted.id}`, { cookies: admin.cookies, body: { costMethod: 'REPLACEMENT' } })).status).toBe(200);
    expect((await byWarehouse(admin, `?companyId=${weighted.id}`)).map((summary) => [summary.costMethod, summary.totalValue])).toEqual([
      ['REPLACEMENT', expected(weightedWarehouse).last],
    ]);

    // What the warehouses maintain is what their balances and movements say.
    const report = await verifyTenant(admin.tenantId);
    expect(report.invariants.filter((entry) => entry.drift.length > 0)).toEqual([]);
  });

  it("shows each movement's last cost beside its average in the stock history", async () => {
    const admin = await newTenantWithAdmin();
    const warehouseId = (await post(admin, '/inventory/warehouses', { name: 'Central' })).id;
    const productId = (await post(admin, '/inventory/products', { sku: 'CAFE', name: 'Café' })).id;
    for (const body of [
      { type: 'IN', quantity: 10, unitCost: 10 },
      { type: 'IN', quantity: 10, unitCost: 20 },
      { type: 'SALE', quantity: 5 },
    ]) {
      expect((await call('POST', '/inventory/movements', { cookies: admin.cookies, body: { productId, warehouseId, ...body } })).status).toBe(201);
    }
    const history = await call<{ items: { type: string; balance: unknown }[] }>('GET', `/inventory/movements?productId=${productId}`, {
      cookies: admin.cookies,
    });
    expect(history.body.items.map((item) => [item.type, item.balance])).toEqual([
      ['SALE', { quantity: 15, averageCost: 15, lastCost: 20 }],
      ['IN', { quantity: 20, averageCost: 15, lastCost: 20 }],
      ['IN', { quantity: 10, averageCost: 10, lastCost: 10 }],
    ]);
  });
});
