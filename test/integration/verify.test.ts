import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { verifyTenant } from '../../lib/integrity/engine';
import { driftOf, INVARIANTS, type TenantReport } from '../../lib/integrity/model';
import { searchDeltaPut } from '../../lib/search/repository';
import { readAuditPage } from '../../lib/audit/repository';
import { call, newTenantWithAdmin, plantsFaults, uniqueName, useLocalStoreInProcess, type Account } from './api';

/**
 * The integrity checker (lib/integrity) over a tenant written through the API: clean as the
 * service leaves it, even after movements at once; then each planted fault found and named by
 * its keys, the derived ones mended by `fix`, and a recorded one (a movement) left for a person.
 */
beforeAll(useLocalStoreInProcess);

const post = (account: Account, path: string, body: unknown) => call<Record<string, unknown>>('POST', path, { cookies: account.cookies, body });

/** A tenant with two warehouses, two products, movements of every type, and three suppliers. */
async function stockedTenant() {
  const admin = await newTenantWithAdmin();
  const warehouses = [
    String((await post(admin, '/inventory/warehouses', { name: 'Centro' })).body.id),
    String((await post(admin, '/inventory/warehouses', { name: 'Loja' })).body.id),
  ];
  const products = [
    String((await post(admin, '/inventory/products', { sku: uniqueName('A'), name: 'Arroz', unit: 'KG', gtin: '7891000315507' })).body.id),
    String((await post(admin, '/inventory/products', { sku: uniqueName('F'), name: 'Feijão', unit: 'KG' })).body.id),
  ];
  const at = (product: number, warehouse: number) => ({ productId: products[product], warehouseId: warehouses[warehouse] });
  for (const [place, movement] of [
    [at(0, 0), { type: 'IN', quantity: 10.5, unitCost: 3.3333 }],
    [at(0, 0), { type: 'OUT', quantity: 0.7 }],
    [at(0, 0), { type: 'SALE', quantity: 2 }],
    [at(0, 1), { type: 'IN', quantity: 3, unitCost: 1.1 }],
    [at(0, 1), { type: 'ADJUSTMENT', quantity: 5, unitCost: 1.2 }],
    [at(1, 0), { type: 'IN', quantity: 1, unitCost: 9.99 }],
    [at(1, 0), { type: 'ADJUSTMENT', quantity: 0 }],
  ] as const)
    expect((await post(admin, '/inventory/movements', { ...place, ...movement })).status).toBe(201);
  const suppliers: string[] = [];
  for (const name of ['Um', 'Dois', 'Três']) {
    const created = await post(admin, '/suppliers', { name, corporateName: `${name} LTDA`, document: cpf.generate() });
    expect(created.status).toBe(201);
    suppliers.push(String(created.body.id));
  }
  return { admin, tenantId: admin.tenantId, warehouses, products, suppliers };
}

const summary = (report: TenantReport) => driftOf(report).map((drift) => ({ invariant: drift.invariant, keys: drift.keys, fixable: drift.fixable }));

const update = (key: { pk: string; sk: string }, expression: string, values: Record<string, unknown>, names?: Record<string, string>) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: expression,
      ExpressionAttributeValues: values,
      ...(names ? { ExpressionAttributeNames: names } : {}),
    }),
  );

describe('verify', () => {
  it('finds a tenant clean as the API leaves it, every invariant checked', async () => {
    const { admin, tenantId, warehouses, products, suppliers } = await stockedTenant();
    // A supplier that sells a product (its preferred one, with a code), so the links have something to check.
    const linked = await post(admin, `/suppliers/${String(suppliers[0])}/products`, { productId: products[0], supplierCode: 'UM-1', preferred: true });
    expect(linked.status).toBe(201);
    // A purchase order sent (its company's sequence, what it has on order), so purchasing has something to check.
    const company = await post(admin, '/companies', { name: 'Loja Verificada', document: cnpj.generate() });
    const order = await post(admin, '/purchase-orders', {
      supplierId: suppliers[0],
      companyId: company.body.id,
      warehouseId: warehouses[0],
      items: [{ productId: products[0], quantity: 12, unitCost: 2.5 }],
    });
    expect((await post(admin, `/purchase-orders/${String(order.body.id)}/send`, { to: 'compras@verificada.example' })).status).toBe(200);
    // A category with a product in it, so its invariants have something to check.
    const category = await post(admin, '/inventory/categories', { name: 'Mercearia' });
    expect(category.status).toBe(201);
    const joined = await call('PATCH', `/inventory/products/${String(products[0])}`, { cookies: admin.cookies, body: { categoryId: category.body.id } });
    expect(joined.status).toBe(200);
    // A search builds each list's index (before it, a search reads the records themselves, and nothing can drift).
    expect((await call('GET', '/suppliers?search=um', { cookies: admin.cookies })).status).toBe(200);
    expect((await call('GET', '/inventory/products?search=arroz', { cookies: admin.cookies })).status).toBe(200);
    // A stock count, one line counted and closed, so the counts' totals have something to check.
    const count = await post(admin, '/inventory/counts', { warehouseId: warehouses[0] });
    expect(count.status).toBe(201);
    const line = await call('PUT', `/inventory/counts/${String(count.body.id)}/lines/${String(products[0])}`, { cookies: admin.cookies, body: { counted: 7 } });
    expect(line.status).toBe(200);
    expect((await post(admin, `/inventory/counts/${String(count.body.id)}/close`, { uncounted: 'ignore' })).status).toBe(200);
    const report = await verifyTenant(tenantId);
    expect(report.invariants.map((entry) => [entry.invariant, entry.checked > 0, entry.drift])).toEqual(INVARIANTS.map((name) => [name, true, []]));
    expect(report.fixed).toEqual([]);
  });

  it('finds it clean after movements and supplier writes at once', async () => {
    const { admin, tenantId, warehouses, products } = await stockedTenant();
    const at = { productId: products[1], warehouseId: warehouses[1] };
    expect((await post(admin, '/inventory/movements', { ...at, type: 'IN', quantity: 100, unitCost: 2.5 })).status).toBe(201);
    const statuses = await Promise.all([
      ...Array.from({ length: 6 }, (_, index) => post(admin, '/inventory/movements', { ...at, type: index % 2 ? 'SALE' : 'OUT', quantity: 1.5 })),
      ...Array.from({ length: 4 }, (_, index) =>
        post(admin, '/suppliers', { name: `Paralelo ${index}`, corporateName: `Paralelo ${index} LTDA`, document: cpf.generate() }),
      ),
    ]);
    // Ten writes on one balance and one count at once: each either succeeds, or fails whole with
    // a problem (under load a contended write may run out of retries or time); none leaves drift.
    for (const response of statuses) if (response.status !== 201) expect([response.status >= 500, response.body.type]).toEqual([true, expect.any(String)]);
    expect(statuses.slice(0, 6).some((response) => response.status === 201)).toBe(true);
    expect(statuses.slice(6).some((response) => response.status === 201)).toBe(true);
    expect(driftOf(await verifyTenant(tenantId))).toEqual([]);
  });

  it('names each planted fault by its keys, mends the derived ones, and leaves a recorded movement to a person', async () => {
    const { admin, tenantId, warehouses, products, suppliers } = await stockedTenant();
    // Its last fault is a recorded movement, which nothing mends: the store's final verification leaves it out.
    plantsFaults(tenantId);
    expect((await call('GET', '/suppliers?search=um', { cookies: admin.cookies })).status).toBe(200);
    // A search entry left for a supplier that is gone: a delta of an id no supplier has.
    const ghost = randomUUID();
    await db().send(
      new TransactWriteCommand({
        TransactItems: [searchDeltaPut(tenantId, 'suppliers', { id: ghost, version: 1, key: `fantasma#${ghost}`, words: 'fantasma', digits: '', view: '{}' })],
      }),
    );
    const balance = keys.stock(tenantId, products[0] as string, warehouses[1] as string);
    const warehouse = keys.warehouse(tenantId, warehouses[0] as string);
    const product = keys.product(tenantId, products[1] as string);
    const counter = keys.supplierStats(tenantId);
    const orphan = keys.supplierDocument(tenantId, cpf.generate());
    // A coverage entry deleted: the 30-day window's entry of the first product.
    const window = keys.coverageIndexOf(tenantId, 30).pk;
    const entries =
      (
        await db().send(
          new QueryCommand({ TableName: tableName(), KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': window }, ConsistentRead: true }),
        )
      ).Items ?? [];
    const entry = entries.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })).find((found) => found.sk.endsWith(`#${products[0]}`));
    expect(entry).toBeDefined();
    await db().send(new DeleteCommand({ TableName: tableName(), Key: entry }));
    // A balance changed, a warehouse total off by one cent, an on-hand off, a counter off by one, a sentinel orphaned.
    await update(balance, 'SET quantity = quantity + :delta', { ':delta': 1 });
    await update(warehouse, 'SET totalValue = totalValue + :cent', { ':cent': 0.01 });
    await update(product, 'SET onHand = onHand + :delta', { ':delta': 0.001 });
    await update(counter, 'SET #count = #count + :one', { ':one': 1 }, { '#count': 'count' });
    const admins = keys.tenantAdmins(tenantId);
    await update(admins, 'SET n = n + :one', { ':one': 1 });
    // The day's sales counter of the product sold (2 units), one unit off.
    const counters =
      (
        await db().send(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.salesDaysOf(tenantId).pk },
            ConsistentRead: true,
          }),
        )
      ).Items ?? [];
    expect(counters.map((item) => [item.productId, item.units])).toEqual([[products[0], 2]]);
    const salesDay = { pk: String(counters[0]?.pk), sk: String(counters[0]?.sk) };
    await update(salesDay, 'SET units = units + :one', { ':one': 1 });
    // The administrator holds a session (it signed in): a session count below that lets the cap be passed.
    const user = keys.user(tenantId, admin.userId);
    await update(user, 'SET sessionCount = :zero', { ':zero': 0 });
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...orphan, type: 'SupplierDocument', supplierId: randomUUID() } }));

    const found = await verifyTenant(tenantId);
    expect(summary(found)).toEqual([
      { invariant: 'balance-replay', keys: [balance], fixable: true },
      { invariant: 'warehouse-totals', keys: [warehouse], fixable: true },
      { invariant: 'product-on-hand', keys: [product], fixable: true },
      { invariant: 'coverage-index', keys: [entry], fixable: true },
      { invariant: 'sales-days', keys: [salesDay], fixable: true },
      { invariant: 'supplier-count', keys: [counter], fixable: true },
      { invariant: 'admin-count', keys: [admins], fixable: true },
      { invariant: 'session-count', keys: [user], fixable: true },
      { invariant: 'supplier-documents', keys: [orphan], fixable: true },
      { invariant: 'supplier-search', keys: [keys.searchManifest(tenantId, 'suppliers')], fixable: true },
    ]);
    expect(driftOf(found).at(-1)?.detail).toBe(`finds 1 suppliers that no longer exist (${ghost})`);
    expect(driftOf(found).find((drift) => drift.invariant === 'warehouse-totals')?.detail).toBe(
      `warehouse ${warehouses[0]} holds 7.8 units of 1 products worth 26.00974 (25.99974 at last cost); its balances sum to 7.8 units of 1 products worth 25.99974 (25.99974 at last cost)`,
    );
    expect(driftOf(found).find((drift) => drift.invariant === 'supplier-count')?.detail).toBe('the supplier count is 4; there are 3');

    const fixed = await verifyTenant(tenantId, { fix: true });
    expect(fixed.fixed.map((drift) => drift.invariant)).toEqual([
      'balance-replay',
      'warehouse-totals',
      'product-on-hand',
      'coverage-index',
      'sales-days',
      'supplier-count',
      'admin-count',
      'session-count',
      'supplier-documents',
      'supplier-search',
    ]);
    expect(driftOf(await verifyTenant(tenantId))).toEqual([]);
    // Each repair committed with its audit entry, by the system, naming what it mended.
    const repairs = (await readAuditPage({ tenantId }, { filter: { action: 'tenant.repaired' }, fromSk: '0', toSk: '~', limit: 50 })).entries;
    expect(repairs.map((entry) => String(entry.changes?.[0]?.after)).sort()).toEqual(fixed.fixed.map((drift) => drift.invariant).sort());
    for (const entry of repairs)
      expect([entry.actor, entry.resource]).toEqual([
        { type: 'system', id: null, name: null },
        { type: 'tenant', id: tenantId },
      ]);
    expect(repairs.find((entry) => entry.changes?.[0]?.after === 'supplier-count')?.changes).toEqual([
      { field: 'invariant', before: null, after: 'supplier-count' },
      { field: 'items', before: null, after: `${counter.pk} / ${counter.sk}` },
      { field: 'drift', before: 'the supplier count is 4; there are 3', after: null },
    ]);

    // A movement's record is what is recorded: found, never rewritten.
    const history =
      (
        await db().send(
          new (await import('@aws-sdk/lib-dynamodb')).QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.historyOf(tenantId, { productId: products[0], warehouseId: warehouses[0] }).pk },
            ConsistentRead: true,
          }),
        )
      ).Items ?? [];
    const movement = { pk: String(history[0]?.pk), sk: String(history[0]?.sk) };
    await update(movement, 'SET balanceAfter = balanceAfter + :delta', { ':delta': 1 });
    const recorded = await verifyTenant(tenantId, { fix: true });
    expect(summary(recorded)).toEqual([{ invariant: 'balance-replay', keys: [movement], fixable: false }]);
    expect(recorded.fixed).toEqual([]);
    expect(suppliers).toHaveLength(3);
  });

  it('runs as `npm run verify`: exit 0 when clean, 1 on drift, and 0 again once --fix mended it', async () => {
    const { tenantId, warehouses } = await stockedTenant();
    const verify = async (...args: string[]) => {
      const child = spawn(join('node_modules', '.bin', 'tsx'), ['scripts/verify.ts', '--tenant', tenantId, '--json', ...args], {
        env: { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve, reject) => {
        child.on('error', reject);
        child.on('close', resolve);
      });
      return { code, report: JSON.parse(stdout) as { drifted: number; tenants: TenantReport[] } };
    };
    expect(await verify()).toMatchObject({ code: 0, report: { drifted: 0, tenants: [{ tenantId, fixed: [] }] } });
    const warehouse = keys.warehouse(tenantId, warehouses[1] as string);
    await update(warehouse, 'SET totalProducts = totalProducts + :one', { ':one': 1 });
    const drifted = await verify();
    expect([drifted.code, drifted.report.drifted, driftOf(drifted.report.tenants[0] as TenantReport).map((drift) => drift.keys)]).toEqual([
      1,
      1,
      [[warehouse]],
    ]);
    const fixed = await verify('--fix');
    expect([fixed.code, fixed.report.drifted, fixed.report.tenants[0]?.fixed.map((drift) => drift.invariant)]).toEqual([0, 0, ['warehouse-totals']]);
  });
});
