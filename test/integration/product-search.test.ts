import { beforeAll, describe, expect, it } from 'vitest';
import { readSearchLog } from '../../lib/search/repository';
import { FOLD_AT } from '../../lib/search/engine';
import { allPages, call, newTenantWithAdmin, nextLink, problem, useLocalStoreInProcess, type Account } from './api';

/**
 * GET /inventory/products?search=: the products whose SKU or name holds the term, case- and
 * accent-insensitive, in the list's order (by SKU), paged like the list with cursors bound
 * to their search.
 */
interface ProductView {
  id: string;
  sku: string;
  name: string;
  createdAt: string;
}

async function createProducts(account: Account, products: [sku: string, name: string][]): Promise<Map<string, ProductView>> {
  const created = new Map<string, ProductView>();
  for (const [sku, name] of products) {
    const response = await call<ProductView>('POST', '/inventory/products', { cookies: account.cookies, body: { sku, name } });
    expect(response.status).toBe(201);
    created.set(sku, response.body);
  }
  return created;
}

beforeAll(useLocalStoreInProcess);

const search = (account: Account, term: string, extra = '') =>
  call<ProductView[]>('GET', `/inventory/products?search=${encodeURIComponent(term)}${extra}`, { cookies: account.cookies });

const CATALOG: [string, string][] = [
  ['CAF-500', 'Café torrado 500g'],
  ['CAF-1000', 'Café torrado 1kg'],
  ['ACU-1', 'Açúcar cristal 1kg'],
  ['ARR-5', 'Arroz agulhinha 5kg'],
  ['FEI-1', 'Feijão carioca 1kg'],
  ['LEI-1', 'Leite integral 1L'],
  ['PAO-FORMA', 'Pão de forma'],
  ['SAB-90', 'Sabonete 90g'],
];

describe('GET /inventory/products?search=', () => {
  it('finds products by a fragment of the SKU or the name, case- and accent-insensitive, in SKU order', async () => {
    const admin = await newTenantWithAdmin();
    const products = await createProducts(admin, CATALOG);
    const pick = (...skus: string[]) => skus.map((sku) => products.get(sku));
    for (const term of ['cafe', 'CAFÉ', 'torrado', 'caf-']) {
      const response = await search(admin, term);
      expect(response.status, term).toBe(200);
      expect(response.body, term).toEqual(pick('CAF-1000', 'CAF-500'));
      expect(nextLink(response), term).toBeNull();
    }
    expect((await search(admin, 'acucar')).body).toEqual(pick('ACU-1'));
    expect((await search(admin, 'feijão')).body).toEqual(pick('FEI-1'));
    expect((await search(admin, '1kg')).body).toEqual(pick('ACU-1', 'CAF-1000', 'FEI-1'));
    expect((await search(admin, 'pao-f')).body).toEqual(pick('PAO-FORMA'));
    expect((await search(admin, 'nothing like it')).body).toEqual([]);
  });

  it('sees a product created just before the search', async () => {
    const admin = await newTenantWithAdmin();
    await createProducts(admin, CATALOG.slice(0, 2));
    expect((await search(admin, 'leite')).body).toEqual([]);
    const created = await createProducts(admin, [['LEI-2', 'Leite desnatado 1L']]);
    expect((await search(admin, 'leite')).body).toEqual([created.get('LEI-2')]);
  });

  it('pages the matches with cursors that keep the search, and refuses a cursor of another search or of the plain list', async () => {
    const admin = await newTenantWithAdmin();
    const products = await createProducts(admin, CATALOG);
    const first = await search(admin, 'k', '&limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toEqual(['ACU-1', 'ARR-5'].map((sku) => products.get(sku)));
    const link = nextLink(first);
    expect(link).toMatch(/^\/inventory\/products\?search=k&limit=2&cursor=/);
    const walked = await allPages<ProductView>('/inventory/products?search=k&limit=2', admin.cookies);
    expect(walked).toEqual({ items: ['ACU-1', 'ARR-5', 'CAF-1000', 'FEI-1'].map((sku) => products.get(sku)), pages: 2 });

    const cursor = new URL(link as string, 'http://x').searchParams.get('cursor') as string;
    const otherSearch = await search(admin, 'a', `&limit=2&cursor=${encodeURIComponent(cursor)}`);
    expect(otherSearch.status).toBe(400);
    expect(otherSearch.body).toEqual(
      problem(400, 'validation', { errors: [{ field: 'cursor', message: 'is not a cursor of this list: start again without it' }] }),
    );
    const plainList = await call('GET', `/inventory/products?limit=2&cursor=${encodeURIComponent(cursor)}`, { cookies: admin.cookies });
    expect(plainList.status).toBe(400);

    const plainFirst = await call('GET', '/inventory/products?limit=2', { cookies: admin.cookies });
    const plainCursor = new URL(nextLink(plainFirst) as string, 'http://x').searchParams.get('cursor') as string;
    expect((await search(admin, 'k', `&limit=2&cursor=${encodeURIComponent(plainCursor)}`)).status).toBe(400);
  });

  it("treats a blank search as none, refuses one over 100 characters, and never shows another tenant's products", async () => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const products = await createProducts(admin, CATALOG.slice(0, 3));
    await createProducts(other, [['CAF-9', 'Café do vizinho']]);
    const everything = (await call<ProductView[]>('GET', '/inventory/products', { cookies: admin.cookies })).body;
    expect((await search(admin, '   ')).body).toEqual(everything);
    expect((await search(admin, 'x'.repeat(100))).status).toBe(200);
    const tooLong = await search(admin, 'x'.repeat(101));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual(problem(400, 'validation', { errors: [{ field: 'search', message: 'must be at most 100 characters' }] }));
    expect((await search(admin, 'vizinho')).body).toEqual([]);
    expect((await search(admin, 'café')).body).toEqual(['CAF-1000', 'CAF-500'].map((sku) => products.get(sku)));
  });

  it('shows every field of a found product, a long description whole, and filters on the status in memory', async () => {
    const admin = await newTenantWithAdmin();
    const long = `${'Café especial de origem única, torra média. '.repeat(40)}Fim.`;
    const body = (sku: string, description: string) => ({ sku, name: `Café ${sku}`, description, brand: 'Serra', unit: 'KG', salePrice: 12.5 });
    const made = [];
    for (const [sku, description] of [
      ['CAF-LONGO', long],
      ['CAF-CURTO', 'Torra média.'],
    ] as const) {
      const response = await call<ProductView>('POST', '/inventory/products', { cookies: admin.cookies, body: body(sku, description) });
      expect(response.status).toBe(201);
      made.push(response.body);
    }
    const [longOne, shortOne] = made as [ProductView, ProductView];
    expect(longOne).toMatchObject({ description: long, salePrice: 12.5, brand: 'Serra', unit: 'KG' });
    const inactive = [];
    for (let index = 0; index < 30; index += 1) {
      const sku = `CAF-X${String(index).padStart(2, '0')}`;
      const response = await call<ProductView>('POST', '/inventory/products', {
        cookies: admin.cookies,
        body: { sku, name: `Café ${sku}`, status: index % 10 === 0 ? 'INACTIVE' : 'ACTIVE' },
      });
      expect(response.status).toBe(201);
      if (index % 10 === 0) inactive.push(response.body);
    }
    // Before and after a fold (the records hold the listing in both the log and the chunks).
    for (let round = 0; round < 2; round += 1) {
      const found = await search(admin, 'serra');
      expect(found.body).toEqual([shortOne, longOne]);
      expect((await search(admin, 'cafe', '&status=INACTIVE&limit=2')).body).toEqual(inactive.slice(0, 2));
      const next = nextLink(await search(admin, 'cafe', '&status=INACTIVE&limit=2'));
      expect(next).not.toBeNull();
      expect((await call<ProductView[]>('GET', next as string, { cookies: admin.cookies })).body).toEqual(inactive.slice(2));
      expect((await search(admin, 'cafe', '&status=ALL&limit=100')).body).toHaveLength(32);
    }
  });

  it("folds the log into its chunks once it holds enough writes, within the function's grant, and answers the same", async () => {
    const admin = await newTenantWithAdmin();
    await createProducts(admin, CATALOG.slice(0, 1));
    expect((await search(admin, 'café')).status).toBe(200);
    const created = await createProducts(
      admin,
      Array.from({ length: FOLD_AT }, (_, index): [string, string] => [`BULK-${String(index).padStart(2, '0')}`, `Granel ${index}`]),
    );
    expect((await readSearchLog(admin.tenantId, 'products')).deltas.length).toBeGreaterThanOrEqual(FOLD_AT);
    // This search folds (PutItem and BatchWriteItem on the search partitions: in bundle mode, under the function's own grants).
    const response = await search(admin, 'granel', '&limit=100');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([...created.values()]);
    const log = await readSearchLog(admin.tenantId, 'products');
    expect(log.deltas).toEqual([]);
    expect(log.manifest?.rev).toBe(2);
    expect((await search(admin, 'granel', '&limit=100')).body).toEqual([...created.values()]);
  });
});
