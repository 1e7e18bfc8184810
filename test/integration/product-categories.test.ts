import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CategoryView } from '../../lib/categories/schemas';
import type { ProductView } from '../../lib/inventory/schemas';
import { verifyTenant } from '../../lib/integrity/engine';
import { allPages, call, newTenantWithAdmin, nextLink, problem, useLocalStoreInProcess, type Account } from './api';

/**
 * Product categories over HTTP: a name unique in the tenant whatever its case and accents, a
 * rename guarded by its ETag, a delete refused while products are in it; products join,
 * leave and change category with their count kept in the same transaction, under
 * concurrency; `?categoryId=` pages one category, with a status and with a search.
 */

beforeAll(useLocalStoreInProcess);

const as = (account: Account, extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ cookies: account.cookies, ...extra });
const createCategory = (account: Account, name: string) => call<CategoryView>('POST', '/inventory/categories', as(account, { body: { name } }));
const getCategory = (account: Account, id: string) => call<CategoryView>('GET', `/inventory/categories/${id}`, as(account));
const rename = (account: Account, id: string, name: string, ifMatch?: string) =>
  call<CategoryView>(
    'PATCH',
    `/inventory/categories/${id}`,
    as(account, { body: { name }, ...(ifMatch === undefined ? {} : { headers: { 'If-Match': ifMatch } }) }),
  );
const remove = (account: Account, id: string) => call('DELETE', `/inventory/categories/${id}`, as(account));
const products = (account: Account, query: string) => call<ProductView[]>('GET', `/inventory/products${query}`, as(account));
const patchProduct = (account: Account, id: string, body: unknown) => call<ProductView>('PATCH', `/inventory/products/${id}`, as(account, { body }));

async function category(account: Account, name: string): Promise<CategoryView> {
  const response = await createCategory(account, name);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

async function product(account: Account, body: Record<string, unknown>): Promise<ProductView> {
  const response = await call<ProductView>('POST', '/inventory/products', as(account, { body }));
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

const count = async (account: Account, id: string) => (await getCategory(account, id)).body.productCount;

describe('a category', () => {
  it('is created with its ETag, listed by name, and its name is unique whatever its case and accents', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createCategory(admin, 'Bebidas');
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Bebidas',
      productCount: 0,
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
      version: 1,
    });
    expect(created.headers.get('etag')).toBe('"1"');
    for (const taken of ['bebidas', 'BEBÍDAS', '  Bébidas ']) {
      const again = await createCategory(admin, taken);
      expect(again, taken).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    }
    await category(admin, 'Açougue');
    await category(admin, 'mercearia');
    await category(admin, 'Limpeza');
    const listed = await call<CategoryView[]>('GET', '/inventory/categories?limit=2', as(admin));
    expect(listed.body.map((found) => found.name)).toEqual(['Açougue', 'Bebidas']);
    const all = await allPages<CategoryView>('/inventory/categories?limit=2', admin.cookies);
    expect(all.items.map((found) => found.name)).toEqual(['Açougue', 'Bebidas', 'Limpeza', 'mercearia']);
    expect(all.pages).toBe(2);
    const fetched = await getCategory(admin, created.body.id);
    expect(fetched.body).toEqual(created.body);
    expect(fetched.headers.get('etag')).toBe('"1"');
    // Another tenant sees none of it.
    const other = await newTenantWithAdmin();
    expect((await getCategory(other, created.body.id)).status).toBe(404);
    expect((await call<CategoryView[]>('GET', '/inventory/categories', as(other))).body).toEqual([]);
    expect((await createCategory(other, 'Bebidas')).status).toBe(201);
  });

  it('refuses a bad name with a 400 and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 'x'.repeat(121) }, { name: 'Bebidas', extra: 1 }]) {
      const response = await call('POST', '/inventory/categories', as(admin, { body }));
      expect(response, JSON.stringify(body)).toMatchObject({ status: 400, body: problem(400, 'validation') });
    }
    expect((await call<CategoryView[]>('GET', '/inventory/categories', as(admin))).body).toEqual([]);
  });

  it('is renamed under its ETag: a stale If-Match gets 412, a taken name 409, and its old name is free again', async () => {
    const admin = await newTenantWithAdmin();
    const drinks = await category(admin, 'Bebidas');
    const cleaning = await category(admin, 'Limpeza');
    const renamed = await rename(admin, drinks.id, 'Bebidas e sucos', '"1"');
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: drinks.id, name: 'Bebidas e sucos', version: 2, productCount: 0 });
    expect(renamed.headers.get('etag')).toBe('"2"');
    expect(await rename(admin, drinks.id, 'Sucos', '"1"')).toMatchObject({ status: 412, body: problem(412, 'precondition-failed') });
    expect(await rename(admin, drinks.id, 'LIMPEZA')).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect((await getCategory(admin, drinks.id)).body).toMatchObject({ name: 'Bebidas e sucos', version: 2 });
    // The same name in other letters is a rename of the display only.
    expect((await rename(admin, cleaning.id, 'LIMPEZA', '*')).body).toMatchObject({ name: 'LIMPEZA', version: 2 });
    expect((await createCategory(admin, 'bebidas')).status).toBe(201);
    expect((await rename(admin, randomUUID(), 'Nada')).status).toBe(404);
  });
});

describe('products in a category', () => {
  it('join it on create (404 for an unknown category, nothing written), move and leave it, and its count follows', async () => {
    const admin = await newTenantWithAdmin();
    const drinks = await category(admin, 'Bebidas');
    const food = await category(admin, 'Mercearia');
    const unknown = await call('POST', '/inventory/products', as(admin, { body: { sku: 'X-1', name: 'Nada', categoryId: randomUUID() } }));
    expect(unknown).toMatchObject({ status: 404, body: problem(404, 'not-found') });
    expect((await products(admin, '?status=ALL')).body).toEqual([]);
    expect((await call('POST', '/inventory/products', as(admin, { body: { sku: 'X-1', name: 'Nada' } }))).status).toBe(201);

    const juice = await product(admin, { sku: 'SUCO-1', name: 'Suco de uva', categoryId: drinks.id });
    expect(juice.categoryId).toBe(drinks.id);
    const water = await product(admin, { sku: 'AGUA-1', name: 'Água mineral', categoryId: drinks.id, status: 'INACTIVE' });
    const rice = await product(admin, { sku: 'ARROZ-5', name: 'Arroz 5 kg', categoryId: food.id });
    expect(await count(admin, drinks.id)).toBe(2);
    expect(await count(admin, food.id)).toBe(1);

    expect((await products(admin, `?categoryId=${drinks.id}`)).body).toEqual([juice]);
    expect((await products(admin, `?categoryId=${drinks.id}&status=ALL`)).body).toEqual([water, juice]);
    expect((await products(admin, `?categoryId=${drinks.id}&status=INACTIVE`)).body).toEqual([water]);
    expect((await products(admin, `?categoryId=${food.id}&gtin=7891000315507`)).body).toEqual([]);

    // Move the water to food, reactivate it, then take the juice out of any category.
    const moved = await patchProduct(admin, water.id, { categoryId: food.id, status: 'ACTIVE' });
    expect(moved.body).toMatchObject({ categoryId: food.id, status: 'ACTIVE' });
    expect((await patchProduct(admin, juice.id, { categoryId: null })).body.categoryId).toBeNull();
    expect(await count(admin, drinks.id)).toBe(0);
    expect(await count(admin, food.id)).toBe(2);
    expect((await products(admin, `?categoryId=${drinks.id}&status=ALL`)).body).toEqual([]);
    expect((await products(admin, `?categoryId=${food.id}`)).body.map((found) => found.sku)).toEqual(['AGUA-1', 'ARROZ-5']);
    // A rename of the SKU moves its entries too.
    expect((await patchProduct(admin, rice.id, { sku: 'ARROZ-5KG' })).status).toBe(200);
    expect((await products(admin, `?categoryId=${food.id}`)).body.map((found) => found.sku)).toEqual(['AGUA-1', 'ARROZ-5KG']);
    // A change to an unknown category is a 404 and changes nothing.
    expect((await patchProduct(admin, rice.id, { categoryId: randomUUID() })).status).toBe(404);
    expect((await products(admin, `?categoryId=${food.id}`)).body.map((found) => found.sku)).toEqual(['AGUA-1', 'ARROZ-5KG']);

    // A category in use cannot be deleted; once empty, it can, and its name is free again.
    expect(await remove(admin, food.id)).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect((await remove(admin, drinks.id)).status).toBe(204);
    expect((await getCategory(admin, drinks.id)).status).toBe(404);
    expect((await remove(admin, drinks.id)).status).toBe(404);
    expect((await createCategory(admin, 'Bebidas')).status).toBe(201);
    // Deleting a product takes it out of its category's count.
    expect((await call('DELETE', `/inventory/products/${rice.id}`, as(admin))).status).toBe(204);
    expect(await count(admin, food.id)).toBe(1);
    const report = await verifyTenant(admin.tenantId);
    expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
    expect(report.invariants.find((invariant) => invariant.invariant === 'category-counts')?.checked).toBe(3);
  });

  it('pages one category with cursors bound to it, and a search keeps to it in memory', async () => {
    const admin = await newTenantWithAdmin();
    const drinks = await category(admin, 'Bebidas');
    const made: ProductView[] = [];
    for (let index = 0; index < 5; index += 1) made.push(await product(admin, { sku: `SUCO-${index}`, name: `Suco ${index}`, categoryId: drinks.id }));
    await product(admin, { sku: 'SUCO-X', name: 'Suco sem categoria' });
    const first = await products(admin, `?categoryId=${drinks.id}&limit=2`);
    expect(first.body).toEqual(made.slice(0, 2));
    const next = nextLink(first);
    expect(next).toContain(`categoryId=${drinks.id}`);
    expect((await call<ProductView[]>('GET', next as string, as(admin))).body).toEqual(made.slice(2, 4));
    // The cursor belongs to that category's list: not to the plain list's.
    const cursor = new URL(next as string, 'http://x').searchParams.get('cursor') as string;
    expect((await products(admin, `?cursor=${encodeURIComponent(cursor)}`)).status).toBe(400);
    expect((await products(admin, `?search=suco&categoryId=${drinks.id}`)).body).toEqual(made);
    expect((await products(admin, '?search=suco')).body).toHaveLength(6);
    expect((await products(admin, `?categoryId=not-a-uuid`)).status).toBe(400);
  });

  it('of 20 products put in one category at once, all are counted; a delete racing a product joining never leaves it orphaned', async () => {
    const admin = await newTenantWithAdmin();
    const drinks = await category(admin, 'Bebidas');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call('POST', '/inventory/products', as(admin, { body: { sku: `P-${index}`, name: `Produto ${index}`, categoryId: drinks.id } })),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 201));
    expect(await count(admin, drinks.id)).toBe(20);

    for (let round = 0; round < 5; round += 1) {
      const target = await category(admin, `Alvo ${round}`);
      const loner = await product(admin, { sku: `L-${round}`, name: `Avulso ${round}` });
      const [joined, deleted] = await Promise.all([patchProduct(admin, loner.id, { categoryId: target.id }), remove(admin, target.id)]);
      // Either the product joined first (the delete is refused) or the delete did (the product finds no category).
      expect([
        [200, 409],
        [404, 204],
      ]).toContainEqual([joined.status, deleted.status]);
      const now = (await call<ProductView>('GET', `/inventory/products/${loner.id}`, as(admin))).body;
      expect(now.categoryId).toBe(joined.status === 200 ? target.id : null);
    }
    const report = await verifyTenant(admin.tenantId);
    expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
  });
});
