import { randomUUID } from 'node:crypto';
import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyTenant } from '../../lib/integrity/engine';
import type { SupplierProductView } from '../../lib/supplier-products/schemas';
import { call, newTenantWithAdmin, problem, settled, useLocalStoreInProcess, type Account } from './api';

/**
 * What each supplier sells, over HTTP: the link and its terms both ways, the supplier's code
 * unique per supplier (also under parallel requests), one preferred supplier per product, ETags,
 * and neither side deletable while linked.
 */

beforeAll(useLocalStoreInProcess);

const as = (account: Account, extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ cookies: account.cookies, ...extra });

async function post<T = { id: string }>(account: Account, path: string, body: unknown): Promise<T> {
  const response = await call<T>('POST', path, as(account, { body }));
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

const supplier = (account: Account, name = 'Distribuidora Sul') =>
  post(account, '/suppliers', { name, corporateName: `${name} Ltda`, document: cnpj.generate() });
const product = (account: Account, sku = `P-${randomUUID().slice(0, 6)}`) =>
  post<{ id: string; sku: string }>(account, '/inventory/products', { sku, name: `Café ${sku}` });
const link = (account: Account, supplierId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call<SupplierProductView>('POST', `/suppliers/${supplierId}/products`, as(account, { body, ...(headers ? { headers } : {}) }));
const pageOf = async (account: Account, path: string) =>
  (await call<{ items: SupplierProductView[]; nextCursor: string | null }>('GET', path, as(account))).body;

async function expectVerifyClean(tenantId: string) {
  const report = await verifyTenant(tenantId);
  expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
}

describe('/suppliers/{id}/products', () => {
  it('links a product with its terms, shown from both sides with the names as they are now', async () => {
    const admin = await newTenantWithAdmin();
    const seller = await supplier(admin);
    const coffee = await product(admin, 'CAF-1');
    const created = await link(admin, seller.id, {
      productId: coffee.id,
      supplierCode: 'cx-500',
      unit: 'CX',
      unitsPerPack: 12,
      lastCost: 8.5,
      leadTimeDays: 5,
      minimumOrder: 24,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    const expected = {
      supplierId: seller.id,
      supplierName: 'Distribuidora Sul',
      productId: coffee.id,
      sku: 'CAF-1',
      productName: 'Café CAF-1',
      supplierCode: 'cx-500',
      unit: 'CX',
      unitsPerPack: 12,
      lastCost: 8.5,
      leadTimeDays: 5,
      minimumOrder: 24,
      preferred: false,
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
      version: 1,
    };
    expect(created.body).toEqual(expected);
    // Defaults: a pack of 1, 7 days, no code, cost or minimum.
    const plain = await product(admin);
    expect((await link(admin, seller.id, { productId: plain.id })).body).toMatchObject({
      unitsPerPack: 1,
      leadTimeDays: 7,
      supplierCode: null,
      lastCost: null,
      minimumOrder: null,
    });
    expect((await pageOf(admin, `/suppliers/${seller.id}/products`)).items).toHaveLength(2);
    expect(await pageOf(admin, `/inventory/products/${coffee.id}/suppliers`)).toEqual({ items: [expected], nextCursor: null });
    const one = await call<SupplierProductView>('GET', `/suppliers/${seller.id}/products/${coffee.id}`, as(admin));
    expect(one).toMatchObject({ status: 200, body: expected });
    expect(one.headers.get('etag')).toBe('"1"');
    // A product renamed shows its new name.
    expect((await call('PATCH', `/inventory/products/${coffee.id}`, as(admin, { body: { name: 'Café torrado' } }))).status).toBe(200);
    expect((await pageOf(admin, `/suppliers/${seller.id}/products?limit=1`)).items).toHaveLength(1);
    expect((await call<SupplierProductView>('GET', `/suppliers/${seller.id}/products/${coffee.id}`, as(admin))).body.productName).toBe('Café torrado');
    await expectVerifyClean(admin.tenantId);
  });

  it('refuses what it cannot record with a clear problem, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const seller = await supplier(admin);
    const [first, second] = [await product(admin), await product(admin)];
    expect((await link(admin, seller.id, { productId: first.id, supplierCode: 'AB-1' })).status).toBe(201);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ productId: first.id }, 409, 'conflict'],
      [{ productId: second.id, supplierCode: 'ab-1' }, 409, 'conflict'],
      [{ productId: randomUUID() }, 404, 'not-found'],
      [{ productId: second.id, leadTimeDays: 366 }, 400, 'validation'],
      [{ productId: second.id, unitsPerPack: 0 }, 400, 'validation'],
      [{ productId: second.id, lastCost: 1.23456 }, 400, 'validation'],
      [{ productId: second.id, supplierCode: 'x'.repeat(61) }, 400, 'validation'],
    ];
    for (const [body, status, type] of cases)
      expect(await link(admin, seller.id, body), JSON.stringify(body)).toMatchObject({ status, body: problem(status, type) });
    expect((await link(admin, seller.id, { productId: second.id, supplierCode: 'ab-1' })).body).toMatchObject({
      detail: `The supplier code 'ab-1' is already the supplier's code for product ${first.id}`,
    });
    expect((await link(admin, randomUUID(), { productId: second.id })).status).toBe(404);
    // Another tenant's supplier or product is not found either.
    const other = await newTenantWithAdmin();
    expect((await link(other, seller.id, { productId: second.id })).status).toBe(404);
    expect((await link(admin, seller.id, { productId: (await product(other)).id })).status).toBe(404);
    expect((await pageOf(admin, `/inventory/products/${second.id}/suppliers`)).items).toEqual([]);
    expect((await call('GET', `/suppliers/${seller.id}/products`, as(other))).status).toBe(404);
    await expectVerifyClean(admin.tenantId);
  });

  it('keeps one preferred supplier per product, changes terms only at the version read, and frees a code that changed', async () => {
    const admin = await newTenantWithAdmin();
    const [north, south] = [await supplier(admin, 'Norte'), await supplier(admin, 'Sul')];
    const coffee = await product(admin);
    expect((await link(admin, north.id, { productId: coffee.id, preferred: true, supplierCode: 'N-1' })).status).toBe(201);
    expect((await link(admin, south.id, { productId: coffee.id, preferred: true })).status).toBe(201);
    const both = (await pageOf(admin, `/inventory/products/${coffee.id}/suppliers`)).items;
    expect(both.map((item) => [item.supplierName, item.preferred, item.version]).sort()).toEqual([
      ['Norte', false, 2],
      ['Sul', true, 1],
    ]);
    const path = `/suppliers/${north.id}/products/${coffee.id}`;
    expect(await call('PATCH', path, as(admin, { body: { leadTimeDays: 3 }, headers: { 'If-Match': '"1"' } }))).toMatchObject({
      status: 412,
      body: problem(412, 'precondition-failed'),
    });
    const changed = await call<SupplierProductView>(
      'PATCH',
      path,
      as(admin, { body: { leadTimeDays: 3, supplierCode: 'N-2', preferred: true }, headers: { 'If-Match': '"2"' } }),
    );
    expect(changed).toMatchObject({ status: 200, body: { leadTimeDays: 3, supplierCode: 'N-2', preferred: true, version: 3 } });
    expect(changed.headers.get('etag')).toBe('"3"');
    expect((await call<SupplierProductView>('GET', `/suppliers/${south.id}/products/${coffee.id}`, as(admin))).body).toMatchObject({
      preferred: false,
      version: 2,
    });
    // N-1 is free again for another of the supplier's products.
    expect((await link(admin, north.id, { productId: (await product(admin)).id, supplierCode: 'n-1' })).status).toBe(201);
    expect((await call('PATCH', path, as(admin, { body: {} }))).status).toBe(400);
    // A cost of 4 decimal places is shown as given.
    expect((await call<SupplierProductView>('PATCH', path, as(admin, { body: { lastCost: 3.3333 } }))).body.lastCost).toBe(3.3333);
    await expectVerifyClean(admin.tenantId);
  });

  it('of parallel links with one code, exactly one takes it; of parallel preferences, one product ends with one preferred', async () => {
    const admin = await newTenantWithAdmin();
    const seller = await supplier(admin);
    const products = await Promise.all(Array.from({ length: 8 }, () => product(admin)));
    const answers = await Promise.all(
      products.map((item) => {
        const key = { 'Idempotency-Key': randomUUID() };
        return settled(() => link(admin, seller.id, { productId: item.id, supplierCode: 'SAME' }, key));
      }),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(7);

    const coffee = products[0] as { id: string };
    const suppliers = await Promise.all(Array.from({ length: 6 }, (_, index) => supplier(admin, `Fornecedor ${index}`)));
    const linked = await Promise.all(
      suppliers.map((item) => {
        const key = { 'Idempotency-Key': randomUUID() };
        return settled(() => link(admin, item.id, { productId: coffee.id, preferred: true }, key));
      }),
    );
    expect(linked.every((answer) => answer.status === 201)).toBe(true);
    const all = (await pageOf(admin, `/inventory/products/${coffee.id}/suppliers`)).items;
    expect(all.filter((item) => item.preferred)).toHaveLength(1);
    await expectVerifyClean(admin.tenantId);
  });

  it('keeps a linked supplier or product from being deleted, and lets them go once unlinked', async () => {
    const admin = await newTenantWithAdmin();
    const seller = await supplier(admin);
    const coffee = await product(admin);
    expect((await link(admin, seller.id, { productId: coffee.id, preferred: true })).status).toBe(201);
    expect(await call('DELETE', `/suppliers/${seller.id}`, as(admin))).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect(await call('DELETE', `/inventory/products/${coffee.id}`, as(admin))).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    const path = `/suppliers/${seller.id}/products/${coffee.id}`;
    expect((await call('DELETE', path, as(admin, { headers: { 'If-Match': '"7"' } }))).status).toBe(412);
    expect((await call('DELETE', path, as(admin, { headers: { 'If-Match': '"1"' } }))).status).toBe(204);
    expect((await call('DELETE', path, as(admin))).status).toBe(404);
    expect((await call('DELETE', `/inventory/products/${coffee.id}`, as(admin))).status).toBe(204);
    expect((await call('DELETE', `/suppliers/${seller.id}`, as(admin))).status).toBe(204);
    await expectVerifyClean(admin.tenantId);
  });
});
