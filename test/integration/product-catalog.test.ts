import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import type { CoverageItem, ProductView } from '../../lib/inventory/schemas';
import { apiUrl, call, newTenantWithAdmin, problem, useLocalStoreInProcess, type Account } from './api';

/**
 * The product as master data, over HTTP: every field round-trips through create, get, the
 * lists, the GTIN lookup and the search; a change is guarded by its ETag, keeps the SKU and
 * the GTIN unique under concurrency, and shows at once wherever the product is shown; the
 * unit and the status rule the movements; a product without movements can be deleted.
 */

beforeAll(useLocalStoreInProcess);

const as = (account: Account, extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ cookies: account.cookies, ...extra });

async function createProduct(account: Account, body: Record<string, unknown>) {
  const response = await call<ProductView>('POST', '/inventory/products', as(account, { body }));
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function warehouse(account: Account): Promise<string> {
  const response = await call<{ id: string }>('POST', '/inventory/warehouses', as(account, { body: { name: `Central ${randomUUID().slice(0, 4)}` } }));
  expect(response.status).toBe(201);
  return response.body.id;
}

const move = (account: Account, body: Record<string, unknown>) => call('POST', '/inventory/movements', as(account, { body }));
const patch = (account: Account, id: string, body: unknown, ifMatch?: string) =>
  call<ProductView>('PATCH', `/inventory/products/${id}`, as(account, { body, ...(ifMatch === undefined ? {} : { headers: { 'If-Match': ifMatch } }) }));
const list = (account: Account, query = '') => call<ProductView[]>('GET', `/inventory/products${query}`, as(account));
const get = (account: Account, id: string) => call<ProductView>('GET', `/inventory/products/${id}`, as(account));

const FULL = {
  sku: 'CAFE-500G',
  name: 'Café torrado 500 g',
  description: 'Torra média.\nPacote almofadado.',
  brand: 'Pilão',
  unit: 'UN',
  gtin: '7891000315507',
  ncm: '09012100',
  cest: '1709600',
  salePrice: 18.9,
  status: 'ACTIVE',
};

describe('a product with every field', () => {
  it('round-trips every field through the create, the get (with its ETag), the list, the GTIN lookup and the search', async () => {
    const admin = await newTenantWithAdmin();
    const category = await call<{ id: string }>('POST', '/inventory/categories', as(admin, { body: { name: 'Mercearia' } }));
    const full = { ...FULL, categoryId: category.body.id };
    const created = await createProduct(admin, full);
    expect(created).toEqual({ ...full, id: expect.any(String), createdAt: expect.any(String), updatedAt: created.createdAt, version: 1 });

    const read = await get(admin, created.id);
    expect(read).toMatchObject({ status: 200, body: created });
    expect(read.headers.get('etag')).toBe('"1"');
    expect((await list(admin)).body).toEqual([created]);
    expect((await list(admin, '?gtin=7891000315507')).body).toEqual([created]);
    expect((await list(admin, '?search=pilao')).body).toEqual([created]);
    expect((await list(admin, '?search=0315507')).body).toEqual([created]);
    expect((await list(admin, '?gtin=7891000315507&search=pilao')).body).toEqual([created]);
    expect((await list(admin, '?gtin=7891000315507&search=arroz')).body).toEqual([]);
    expect((await list(admin, '?gtin=7891000315507&status=INACTIVE')).body).toEqual([]);
  });

  it('gives the optional fields their defaults: no value, unit UN, ACTIVE', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createProduct(admin, { sku: 'P-1', name: 'Parafuso' });
    expect(created).toEqual({
      id: expect.any(String),
      sku: 'P-1',
      name: 'Parafuso',
      description: null,
      brand: null,
      unit: 'UN',
      gtin: null,
      ncm: null,
      cest: null,
      salePrice: null,
      status: 'ACTIVE',
      categoryId: null,
      createdAt: expect.any(String),
      updatedAt: created.createdAt,
      version: 1,
    });
  });

  it('refuses each bad field with a 400 naming it, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ gtin: '7891000315508' }, 'gtin', /check digit: 8 where 7 was expected/],
      [{ gtin: '78910003155' }, 'gtin', /8, 12, 13 or 14 digits/],
      [{ unit: 'LATA' }, 'unit', /must be one of UN, CX/],
      [{ salePrice: -1 }, 'salePrice', /must not be negative/],
      [{ salePrice: 1.999 }, 'salePrice', /at most 2 decimal places/],
      [{ ncm: '0901210' }, 'ncm', /8 digits/],
      [{ cest: '17096' }, 'cest', /7 digits/],
      [{ status: 'DELETED' }, 'status', /ACTIVE, INACTIVE/],
      [{ description: 'x'.repeat(2_001) }, 'description', /at most 2000 characters/],
    ];
    for (const [field, name, message] of cases) {
      const response = await call('POST', '/inventory/products', as(admin, { body: { sku: 'BAD-1', name: 'Bad', ...field } }));
      expect(response, JSON.stringify(field)).toMatchObject({
        status: 400,
        body: problem(400, 'validation', { errors: [{ field: name, message: expect.stringMatching(message) }] }),
      });
    }
    expect((await list(admin, '?status=ALL')).body).toEqual([]);
  });

  it('keeps a GTIN unique in the tenant, naming the product that has it', async () => {
    const admin = await newTenantWithAdmin();
    const first = await createProduct(admin, { sku: 'A', name: 'A', gtin: '7891000315507' });
    const second = await call('POST', '/inventory/products', as(admin, { body: { sku: 'B', name: 'B', gtin: '7891000315507' } }));
    expect(second).toMatchObject({ status: 409, body: problem(409, 'conflict', { detail: expect.stringContaining(`product 'A' (${first.id})`) }) });
    // Another tenant may have it.
    await createProduct(await newTenantWithAdmin(), { sku: 'B', name: 'B', gtin: '7891000315507' });
  });
});

describe('PATCH /inventory/products/{id}', () => {
  it('changes the fields given, clears those given as null, and moves the ETag', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createProduct(admin, FULL);
    const changed = await patch(admin, created.id, { name: 'Café extraforte 500 g', salePrice: 21.5, brand: null, gtin: null }, '"1"');
    expect(changed).toMatchObject({ status: 200 });
    expect(changed.headers.get('etag')).toBe('"2"');
    expect(changed.body).toEqual({
      ...created,
      name: 'Café extraforte 500 g',
      salePrice: 21.5,
      brand: null,
      gtin: null,
      version: 2,
      updatedAt: expect.any(String),
    });
    expect((await get(admin, created.id)).body).toEqual(changed.body);
    // The freed GTIN finds nothing and can be given to another product.
    expect((await list(admin, '?gtin=7891000315507')).body).toEqual([]);
    await createProduct(admin, { sku: 'OTHER', name: 'Other', gtin: '7891000315507' });

    // Its audit entry says each changed field, before and after.
    const trail = await call<{ items: { action: string; changes: unknown }[] }>('GET', '/audit-events?resourceType=product', as(admin));
    expect(trail.body.items.find((entry) => entry.action === 'product.updated')?.changes).toEqual(
      expect.arrayContaining([
        { field: 'name', before: 'Café torrado 500 g', after: 'Café extraforte 500 g' },
        { field: 'salePrice', before: 18.9, after: 21.5 },
        { field: 'brand', before: 'Pilão', after: null },
        { field: 'gtin', before: '7891000315507', after: null },
      ]),
    );
  });

  it('refuses a stale If-Match with 412 and changes nothing; without If-Match the change applies', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createProduct(admin, { sku: 'S-1', name: 'Sabão' });
    expect((await patch(admin, created.id, { name: 'Sabão em pó' }, '"1"')).status).toBe(200);
    const stale = await patch(admin, created.id, { name: 'Sabão líquido' }, '"1"');
    expect(stale).toMatchObject({ status: 412, body: problem(412, 'precondition-failed') });
    expect((await get(admin, created.id)).body).toMatchObject({ name: 'Sabão em pó', version: 2 });
    expect((await patch(admin, created.id, { name: 'Sabão' }, 'not an etag')).status).toBe(400);
    expect((await patch(admin, created.id, { name: 'Sabão líquido' })).body).toMatchObject({ name: 'Sabão líquido', version: 3 });
    // `*` is any current version (it applies as without If-Match); a list matches any of its tags.
    expect((await patch(admin, created.id, { brand: 'Limpo' }, '*')).body).toMatchObject({ brand: 'Limpo', version: 4 });
    expect((await patch(admin, created.id, { brand: 'Brilho' }, '"1", W/"4"')).body).toMatchObject({ brand: 'Brilho', version: 5 });
    expect((await patch(admin, created.id, { brand: 'Nada' }, '"3", "4"')).status).toBe(412);
    expect((await get(admin, created.id)).body).toMatchObject({ brand: 'Brilho', version: 5 });
  });

  it('moves the SKU: the old one is free and the lists show the new one', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createProduct(admin, { sku: 'OLD-1', name: 'Caneta' });
    await createProduct(admin, { sku: 'TAKEN', name: 'Lápis' });
    expect(await patch(admin, created.id, { sku: 'TAKEN' })).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect((await patch(admin, created.id, { sku: 'NEW-1' })).status).toBe(200);
    expect((await list(admin)).body.map((product) => product.sku)).toEqual(['NEW-1', 'TAKEN']);
    await createProduct(admin, { sku: 'OLD-1', name: 'Caneta azul' });
  });

  it('of 20 parallel changes giving 20 products the same GTIN, exactly one wins', async () => {
    const admin = await newTenantWithAdmin();
    const products = await Promise.all(Array.from({ length: 20 }, (_, index) => createProduct(admin, { sku: `G-${index}`, name: `Produto ${index}` })));
    const answers = await Promise.all(products.map((product) => patch(admin, product.id, { gtin: '96385074' })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(19);
    const holders = (await list(admin, '?limit=100')).body.filter((product) => product.gtin === '96385074');
    expect(holders).toHaveLength(1);
    expect((await list(admin, '?gtin=96385074')).body).toEqual(holders);
  });

  it('shows a new name at once in the coverage dashboard (from its index), the search and the next export', async () => {
    const admin = await newTenantWithAdmin();
    const warehouseId = await warehouse(admin);
    const product = await createProduct(admin, { sku: 'ARROZ-5', name: 'Arroz 5 kg' });
    expect((await move(admin, { productId: product.id, warehouseId, type: 'IN', quantity: 10, unitCost: 20 })).status).toBe(201);
    await runSalesRollup({ nowMs: Date.now(), only: [admin.tenantId] });
    expect((await patch(admin, product.id, { name: 'Arroz agulhinha 5 kg', sku: 'ARROZ-AG-5' })).status).toBe(200);

    const coverage = await call<CoverageItem[]>('GET', '/inventory/dashboard/coverage?days=30', as(admin));
    expect(coverage.headers.get('coverage-stale')).toBe('false');
    expect(coverage.body).toEqual([
      { productId: product.id, sku: 'ARROZ-AG-5', name: 'Arroz agulhinha 5 kg', availableQuantity: 10, averageDailySales: 0, estimatedCoverageDays: null },
    ]);
    expect((await list(admin, '?search=agulhinha')).body.map((found) => found.id)).toEqual([product.id]);
    expect((await list(admin, '?search=arroz-5')).body).toEqual([]);

    const started = await call<{ id: string }>('POST', '/exports', as(admin, { body: { kind: 'products' } }));
    expect(started.status).toBe(201);
    let job: { status: string; download: { url: string } | null } = { status: 'queued', download: null };
    for (let attempt = 0; attempt < 300 && job.status !== 'done' && job.status !== 'failed'; attempt += 1) {
      job = (await call<typeof job>('GET', `/exports/${started.body.id}`, as(admin))).body;
      if (job.status !== 'done') await new Promise((wake) => setTimeout(wake, 100));
    }
    expect(job.status).toBe('done');
    const file = await (await fetch(`${apiUrl()}${job.download?.url ?? ''}`)).text();
    expect(file).toContain('ARROZ-AG-5;Arroz agulhinha 5 kg;UN;;;;;;;Ativo;;10;10');
  });
});

describe('what a product takes', () => {
  it('counts UN in whole units and KG to 3 decimals, naming the unit; a unit change that would strand a fraction is refused', async () => {
    const admin = await newTenantWithAdmin();
    const warehouseId = await warehouse(admin);
    const bottle = await createProduct(admin, { sku: 'GARRAFA', name: 'Garrafa' });
    const rice = await createProduct(admin, { sku: 'ARROZ-GRANEL', name: 'Arroz a granel', unit: 'KG' });
    const fraction = await move(admin, { productId: bottle.id, warehouseId, type: 'IN', quantity: 1.5, unitCost: 2 });
    expect(fraction).toMatchObject({
      status: 400,
      body: problem(400, 'validation', { errors: [{ field: 'quantity', message: expect.stringContaining('UN') }] }),
    });
    expect((await call('GET', `/inventory/movements?productId=${bottle.id}`, as(admin))).body).toEqual({ items: [], nextCursor: null });
    expect((await move(admin, { productId: rice.id, warehouseId, type: 'IN', quantity: 1.5, unitCost: 2 })).status).toBe(201);
    expect(await patch(admin, rice.id, { unit: 'UN' })).toMatchObject({
      status: 409,
      body: problem(409, 'conflict', { detail: expect.stringContaining('1.5') }),
    });
    expect((await move(admin, { productId: rice.id, warehouseId, type: 'ADJUSTMENT', quantity: 2 })).status).toBe(201);
    expect((await patch(admin, rice.id, { unit: 'SC' })).body).toMatchObject({ unit: 'SC' });
  });

  it('an INACTIVE product takes no IN or SALE, still lets its stock leave, and leaves the default list', async () => {
    const admin = await newTenantWithAdmin();
    const warehouseId = await warehouse(admin);
    const product = await createProduct(admin, { sku: 'VELHO', name: 'Produto antigo' });
    const other = await createProduct(admin, { sku: 'NOVO', name: 'Produto novo' });
    expect((await move(admin, { productId: product.id, warehouseId, type: 'IN', quantity: 5, unitCost: 1 })).status).toBe(201);
    const inactive = (await patch(admin, product.id, { status: 'INACTIVE' })).body;
    for (const type of ['IN', 'SALE']) {
      const refused = await move(admin, { productId: product.id, warehouseId, type, quantity: 1, ...(type === 'IN' ? { unitCost: 1 } : {}) });
      expect(refused, type).toMatchObject({ status: 409, body: problem(409, 'conflict', { detail: expect.stringContaining('inactive') }) });
    }
    expect((await move(admin, { productId: product.id, warehouseId, type: 'OUT', quantity: 2 })).status).toBe(201);
    expect((await move(admin, { productId: product.id, warehouseId, type: 'ADJUSTMENT', quantity: 0 })).status).toBe(201);

    expect((await list(admin)).body).toEqual([other]);
    expect((await list(admin, '?status=INACTIVE')).body).toEqual([inactive]);
    expect((await list(admin, '?status=ALL')).body).toEqual([other, inactive]);
    expect((await list(admin, '?search=produto')).body).toEqual([other]);
    expect((await list(admin, '?search=produto&status=INACTIVE')).body).toEqual([inactive]);
    // A GTIN lookup is one page: a cursor is never its own, and a search narrows it further.
    expect((await list(admin, '?gtin=96385074&cursor=abc')).status).toBe(400);
  });
});

describe('DELETE /inventory/products/{id}', () => {
  it('deletes a product without movements (its SKU and GTIN free again) and refuses one with movements', async () => {
    const admin = await newTenantWithAdmin();
    const warehouseId = await warehouse(admin);
    const mistake = await createProduct(admin, { sku: 'ERRO', name: 'Criado por engano', gtin: '96385074' });
    const used = await createProduct(admin, { sku: 'USADO', name: 'Usado' });
    expect((await move(admin, { productId: used.id, warehouseId, type: 'IN', quantity: 1, unitCost: 1 })).status).toBe(201);

    expect((await call('DELETE', `/inventory/products/${mistake.id}`, as(admin))).status).toBe(204);
    expect((await get(admin, mistake.id)).status).toBe(404);
    expect((await call('DELETE', `/inventory/products/${mistake.id}`, as(admin))).status).toBe(404);
    expect((await list(admin, '?gtin=96385074')).body).toEqual([]);
    await createProduct(admin, { sku: 'ERRO', name: 'Agora certo', gtin: '96385074' });

    const refused = await call('DELETE', `/inventory/products/${used.id}`, as(admin));
    expect(refused).toMatchObject({ status: 409, body: problem(409, 'conflict', { detail: expect.stringContaining('INACTIVE') }) });
    expect((await get(admin, used.id)).status).toBe(200);
  });
});
