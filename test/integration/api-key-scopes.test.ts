import { randomUUID } from 'node:crypto';
import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../lib/api-keys/format';
import { API_KEY_RESOURCES, READ_ONLY_RESOURCES, type ApiKeyAccess, type ApiKeyLevel, type ApiKeyResource } from '../../lib/domain/key-scopes';
import { routeList, type HttpMethod, type Route, type RouteId } from '../../lib/routes';
import { call, newTenantWithAdmin, problem, uniqueName, type Account, type ApiResponse } from './api';

/**
 * The scope matrix of API keys over every route of the manifest, over HTTP (lib/api-keys,
 * lib/routes `apiKey`): a key with exactly what a route declares passes the authorizer, a key
 * one level short of it gets the 403 that names what is missing, a key never opens a route
 * declared `apiKey: false`, and a key limited to one company reaches no other.
 *
 * Public routes have no authorizer, so keys do not apply to them: an `Authorization: Bearer`
 * header is not read there, and the request is answered as without it (last block).
 *
 * Key requests carry `Authorization: Bearer <key>` and no cookie (both at once is a 400) and no
 * Origin (a browser's request with a key is a 401). Each administrator may make 20 keys an hour
 * (POST /api-keys), so the keys are spread over two tenants: the one that holds the fixtures,
 * and one whose keys are refused before any function reads a thing.
 */

type KeyRoute = Route & { id: RouteId; apiKey: { resource: ApiKeyResource; access: ApiKeyAccess } };

/** The grants sent to POST /api-keys: `none` is a level the body takes, and stores as absent. */
type Grants = Partial<Record<ApiKeyResource, ApiKeyLevel>>;

/** Every resource at the most a key may hold of it. */
const EVERYTHING: Grants = Object.fromEntries(API_KEY_RESOURCES.map((resource) => [resource, READ_ONLY_RESOURCES.includes(resource) ? 'read' : 'write']));

/** What each fixture-reading request needs: made with the administrator's cookie before any key is used. */
interface Fixtures {
  /** Changed by PATCH /companies/{id}, and named by the company-limited key as the other company. */
  companyId: string;
  /** Moved to DISABLED by PATCH /companies/{id}/status. */
  lifecycleCompanyId: string;
  /** The one company the limited key may reach. */
  limitedCompanyId: string;
  supplierId: string;
  /** Deleted by DELETE /suppliers/{id}. */
  doomedSupplierId: string;
  warehouseId: string;
  productId: string;
  /** Deleted by DELETE /inventory/products/{id}. */
  doomedProductId: string;
  categoryId: string;
  /** Deleted by DELETE /inventory/categories/{id}. */
  doomedCategoryId: string;
  /** Where POST /inventory/transfers moves `productId`'s stock from `warehouseId` (stocked with plenty). */
  otherWarehouseId: string;
  /** A warehouse without a count, which POST /inventory/counts opens one of. */
  countWarehouseId: string;
  /** An OPEN count of `otherWarehouseId` (read, counted by hand and by scan). */
  openCountId: string;
  /** An OPEN count that POST .../close closes, and one that POST .../cancel cancels. */
  closableCountId: string;
  cancellableCountId: string;
  /** A product `supplierId` sells (read and changed), and one whose link DELETE removes; POST links `productId` to it. */
  linkedProductId: string;
  unlinkedProductId: string;
  /** A DRAFT purchase order (read and changed), one POST .../cancel cancels, and one POST .../send sends. */
  draftOrderId: string;
  cancellableOrderId: string;
  sendableOrderId: string;
}

/** A valid request of a route, and what it answers on success. */
interface Probe {
  method: HttpMethod;
  path: string;
  body?: unknown;
  status: 200 | 201 | 204;
}

/**
 * One valid request per route a key may use. Each call builds a fresh one (a new document, SKU
 * or name), since a route is called with several keys. A route whose manifest entry opens it
 * to keys and has no line here fails the matrix.
 */
const probes: Partial<Record<RouteId, (fixtures: Fixtures) => Probe>> = {
  createCompany: () => ({ method: 'POST', path: '/companies', body: { name: 'Loja da API', document: cnpj.generate() }, status: 201 }),
  listCompanies: () => ({ method: 'GET', path: '/companies', status: 200 }),
  updateCompany: (f) => ({ method: 'PATCH', path: `/companies/${f.companyId}`, body: { taxRegime: 'LUCRO_PRESUMIDO' }, status: 200 }),
  updateCompanyStatus: (f) => ({ method: 'PATCH', path: `/companies/${f.lifecycleCompanyId}/status`, body: { status: 'DISABLED' }, status: 200 }),
  createSupplier: () => ({
    method: 'POST',
    path: '/suppliers',
    body: { name: 'Café do Sul', corporateName: 'Café do Sul Ltda', document: cnpj.generate() },
    status: 201,
  }),
  listSuppliers: () => ({ method: 'GET', path: '/suppliers?limit=10', status: 200 }),
  getSupplier: (f) => ({ method: 'GET', path: `/suppliers/${f.supplierId}`, status: 200 }),
  updateSupplier: (f) => ({ method: 'PATCH', path: `/suppliers/${f.supplierId}`, body: { email: 'vendas@cafe.example' }, status: 200 }),
  deleteSupplier: (f) => ({ method: 'DELETE', path: `/suppliers/${f.doomedSupplierId}`, status: 204 }),
  createSupplierProduct: (f) => ({
    method: 'POST',
    path: `/suppliers/${f.supplierId}/products`,
    body: { productId: f.productId, unitsPerPack: 12 },
    status: 201,
  }),
  listSupplierProducts: (f) => ({ method: 'GET', path: `/suppliers/${f.supplierId}/products`, status: 200 }),
  getSupplierProduct: (f) => ({ method: 'GET', path: `/suppliers/${f.supplierId}/products/${f.linkedProductId}`, status: 200 }),
  updateSupplierProduct: (f) => ({
    method: 'PATCH',
    path: `/suppliers/${f.supplierId}/products/${f.linkedProductId}`,
    body: { leadTimeDays: 10 },
    status: 200,
  }),
  deleteSupplierProduct: (f) => ({ method: 'DELETE', path: `/suppliers/${f.supplierId}/products/${f.unlinkedProductId}`, status: 204 }),
  setReorderSettings: (f) => ({ method: 'PUT', path: `/inventory/products/${f.productId}/reorder`, body: { reorderPoint: 24 }, status: 200 }),
  listSuggestions: (f) => ({ method: 'GET', path: `/purchasing/suggestions?supplierId=${f.supplierId}`, status: 200 }),
  createPurchaseOrder: (f) => ({
    method: 'POST',
    path: '/purchase-orders',
    body: { supplierId: f.supplierId, companyId: f.companyId, warehouseId: f.warehouseId, items: [{ productId: f.productId, quantity: 12, unitCost: 8.5 }] },
    status: 201,
  }),
  listPurchaseOrders: () => ({ method: 'GET', path: '/purchase-orders', status: 200 }),
  getPurchaseOrder: (f) => ({ method: 'GET', path: `/purchase-orders/${f.draftOrderId}`, status: 200 }),
  updatePurchaseOrder: (f) => ({ method: 'PATCH', path: `/purchase-orders/${f.draftOrderId}`, body: { notes: uniqueName('Nota') }, status: 200 }),
  sendPurchaseOrder: (f) => ({ method: 'POST', path: `/purchase-orders/${f.sendableOrderId}/send`, body: { to: 'compras@fornecedor.example' }, status: 200 }),
  cancelPurchaseOrder: (f) => ({ method: 'POST', path: `/purchase-orders/${f.cancellableOrderId}/cancel`, status: 200 }),
  listProductSuppliers: (f) => ({ method: 'GET', path: `/inventory/products/${f.linkedProductId}/suppliers`, status: 200 }),
  createWarehouse: () => ({ method: 'POST', path: '/inventory/warehouses', body: { name: uniqueName('Depósito') }, status: 201 }),
  listWarehouses: () => ({ method: 'GET', path: '/inventory/warehouses', status: 200 }),
  getWarehouse: (f) => ({ method: 'GET', path: `/inventory/warehouses/${f.warehouseId}`, status: 200 }),
  createProduct: () => ({ method: 'POST', path: '/inventory/products', body: { sku: `SKU-${uniqueName('p')}`, name: 'Café 500 g' }, status: 201 }),
  listProducts: () => ({ method: 'GET', path: '/inventory/products', status: 200 }),
  getProduct: (f) => ({ method: 'GET', path: `/inventory/products/${f.productId}`, status: 200 }),
  updateProduct: (f) => ({ method: 'PATCH', path: `/inventory/products/${f.productId}`, body: { salePrice: 18.9 }, status: 200 }),
  deleteProduct: (f) => ({ method: 'DELETE', path: `/inventory/products/${f.doomedProductId}`, status: 204 }),
  createCategory: () => ({ method: 'POST', path: '/inventory/categories', body: { name: uniqueName('Categoria') }, status: 201 }),
  listCategories: () => ({ method: 'GET', path: '/inventory/categories', status: 200 }),
  getCategory: (f) => ({ method: 'GET', path: `/inventory/categories/${f.categoryId}`, status: 200 }),
  updateCategory: (f) => ({ method: 'PATCH', path: `/inventory/categories/${f.categoryId}`, body: { name: uniqueName('Mercearia') }, status: 200 }),
  deleteCategory: (f) => ({ method: 'DELETE', path: `/inventory/categories/${f.doomedCategoryId}`, status: 204 }),
  createMovement: (f) => ({
    method: 'POST',
    path: '/inventory/movements',
    body: { productId: f.productId, warehouseId: f.warehouseId, type: 'IN', quantity: 10, unitCost: 3.5 },
    status: 201,
  }),
  listMovements: (f) => ({ method: 'GET', path: `/inventory/movements?productId=${f.productId}`, status: 200 }),
  createTransfer: (f) => ({
    method: 'POST',
    path: '/inventory/transfers',
    body: { productId: f.productId, fromWarehouseId: f.warehouseId, toWarehouseId: f.otherWarehouseId, quantity: 1 },
    status: 201,
  }),
  listTransfers: (f) => ({ method: 'GET', path: `/inventory/transfers?productId=${f.productId}`, status: 200 }),
  createCount: (f) => ({ method: 'POST', path: '/inventory/counts', body: { warehouseId: f.countWarehouseId }, status: 201 }),
  listCounts: () => ({ method: 'GET', path: '/inventory/counts?status=OPEN', status: 200 }),
  getCount: (f) => ({ method: 'GET', path: `/inventory/counts/${f.openCountId}`, status: 200 }),
  listUncounted: (f) => ({ method: 'GET', path: `/inventory/counts/${f.openCountId}/uncounted`, status: 200 }),
  setCountLine: (f) => ({ method: 'PUT', path: `/inventory/counts/${f.openCountId}/lines/${f.productId}`, body: { counted: 2 }, status: 200 }),
  scanCount: (f) => ({ method: 'POST', path: `/inventory/counts/${f.openCountId}/scans`, body: { sku: 'CAFE-500' }, status: 200 }),
  closeCount: (f) => ({ method: 'POST', path: `/inventory/counts/${f.closableCountId}/close`, body: { uncounted: 'ignore' }, status: 200 }),
  cancelCount: (f) => ({ method: 'POST', path: `/inventory/counts/${f.cancellableCountId}/cancel`, status: 200 }),
  stockCoverage: () => ({ method: 'GET', path: '/inventory/dashboard/coverage?days=30', status: 200 }),
  stockByWarehouse: () => ({ method: 'GET', path: '/inventory/dashboard/by-warehouse', status: 200 }),
  listAuditEvents: () => ({ method: 'GET', path: '/audit-events?limit=20', status: 200 }),
  listEvents: () => ({ method: 'GET', path: '/events?limit=20', status: 200 }),
};

const protectedRoutes = routeList().filter((route) => route.auth === 'protected');
const keyRoutes = protectedRoutes.filter((route): route is KeyRoute => typeof route.apiKey === 'object');
const cookieOnlyRoutes = protectedRoutes.filter((route) => route.apiKey === false);

/** Whether a concrete path (without its query) is one of a route template's. */
const pathMatches = (template: string, path: string): boolean => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path.split('?')[0] ?? '');

/** A request with an API key: the Bearer header, no cookie, no Origin. */
const withKey = (key: string, probe: Pick<Probe, 'method' | 'path' | 'body'>): Promise<ApiResponse> =>
  call(probe.method, probe.path, { headers: { authorization: `Bearer ${key}` }, ...(probe.body === undefined ? {} : { body: probe.body }) });

const idOf = (response: ApiResponse): string => (response.body as { id: string }).id;

async function created(owner: Account, path: string, body: unknown): Promise<string> {
  const response = await call('POST', path, { cookies: owner.cookies, body });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(response.body)}`);
  return idOf(response);
}

/** A key made by a tenant administrator (POST /api-keys); its text, shown this once. */
async function newKey(owner: Account, scopes: Grants, companyId?: string): Promise<string> {
  const response = await call<{ key: string }>('POST', '/api-keys', {
    cookies: owner.cookies,
    body: { name: uniqueName('key'), scopes, ...(companyId === undefined ? {} : { companyId }) },
  });
  if (response.status !== 201) throw new Error(`POST /api-keys: ${response.status} ${JSON.stringify(response.body)}`);
  expect(response.body.key).toMatch(new RegExp(`^${API_KEY_PATTERN}$`));
  return response.body.key;
}

/** `resource:level`, the name of a key with that grant. */
const grantName = (resource: ApiKeyResource, level: ApiKeyLevel) => `${resource}:${level}`;

/** The levels a route needs of its resource, and the one below. */
const below: Record<ApiKeyAccess, ApiKeyLevel> = { write: 'read', read: 'none' };

let fixtures: Fixtures;
/** Keys that grant exactly one resource at one level (`inventory:write`), of the fixtures' tenant. */
const exactKeys = new Map<string, string>();
/** Keys that grant everything but one resource, that one a level below what its routes need (`inventory:read`), of another tenant. */
const shortKeys = new Map<string, string>();
let everythingKey: string;
let limitedKey: string;

/** The key of that name in `keys`; a grant no key was made for is this file's mistake. */
function keyOf(keys: Map<string, string>, name: string): string {
  const key = keys.get(name);
  if (key === undefined) throw new Error(`no key ${name} was made`);
  return key;
}

beforeAll(async () => {
  const [owner, other] = await Promise.all([newTenantWithAdmin(), newTenantWithAdmin()]);
  const [
    companyId,
    lifecycleCompanyId,
    limitedCompanyId,
    supplierId,
    doomedSupplierId,
    warehouseId,
    productId,
    doomedProductId,
    categoryId,
    doomedCategoryId,
    otherWarehouseId,
  ] = await Promise.all([
    created(owner, '/companies', { name: 'Loja Centro', document: cnpj.generate() }),
    created(owner, '/companies', { name: 'Loja Norte', document: cnpj.generate() }),
    created(owner, '/companies', { name: 'Loja Limitada', document: cnpj.generate() }),
    created(owner, '/suppliers', { name: 'Fornecedor Um', corporateName: 'Fornecedor Um Ltda', document: cnpj.generate() }),
    created(owner, '/suppliers', { name: 'Fornecedor Dois', corporateName: 'Fornecedor Dois Ltda', document: cnpj.generate() }),
    created(owner, '/inventory/warehouses', { name: 'Depósito' }),
    created(owner, '/inventory/products', { sku: 'CAFE-500', name: 'Café 500 g' }),
    created(owner, '/inventory/products', { sku: 'ENGANO-1', name: 'Criado por engano' }),
    created(owner, '/inventory/categories', { name: 'Mercearia' }),
    created(owner, '/inventory/categories', { name: 'Criada por engano' }),
    created(owner, '/inventory/warehouses', { name: 'Loja' }),
  ]);
  await created(owner, '/inventory/movements', { productId, warehouseId, type: 'IN', quantity: 1000, unitCost: 2 });
  const [countWarehouseId, closeWarehouseId] = await Promise.all([
    created(owner, '/inventory/warehouses', { name: 'Contagem' }),
    created(owner, '/inventory/warehouses', { name: 'Balanço' }),
  ]);
  const [openCountId, closableCountId, cancellableCountId] = await Promise.all([
    created(owner, '/inventory/counts', { warehouseId: otherWarehouseId }),
    created(owner, '/inventory/counts', { warehouseId: closeWarehouseId }),
    created(owner, '/inventory/counts', { warehouseId, productIds: [productId] }),
  ]);
  const [linkedProductId, unlinkedProductId] = await Promise.all([
    created(owner, '/inventory/products', { sku: 'CAFE-1K', name: 'Café 1 kg' }),
    created(owner, '/inventory/products', { sku: 'CAFE-250', name: 'Café 250 g' }),
  ]);
  for (const linked of [linkedProductId, unlinkedProductId]) {
    const response = await call('POST', `/suppliers/${supplierId}/products`, { cookies: owner.cookies, body: { productId: linked } });
    if (response.status !== 201) throw new Error(`POST /suppliers/${supplierId}/products: ${response.status} ${JSON.stringify(response.body)}`);
  }
  const order = { supplierId, companyId, warehouseId, items: [{ productId, quantity: 12, unitCost: 8.5 }] };
  const [draftOrderId, cancellableOrderId, sendableOrderId] = [
    await created(owner, '/purchase-orders', order),
    await created(owner, '/purchase-orders', order),
    await created(owner, '/purchase-orders', order),
  ];
  fixtures = {
    draftOrderId,
    cancellableOrderId,
    sendableOrderId,
    linkedProductId,
    unlinkedProductId,
    companyId,
    lifecycleCompanyId,
    limitedCompanyId,
    supplierId,
    doomedSupplierId,
    warehouseId,
    productId,
    doomedProductId,
    categoryId,
    doomedCategoryId,
    otherWarehouseId,
    countWarehouseId,
    openCountId,
    closableCountId,
    cancellableCountId,
  };

  // The fixtures' tenant: one exact key per grant the routes need (8), the key with everything
  // and the limited key; the other tenant: one short key per grant (8). Below 20 per administrator.
  const needs = [...new Set(keyRoutes.map((route) => grantName(route.apiKey.resource, route.apiKey.access)))];
  const short = [...new Set(keyRoutes.map((route) => grantName(route.apiKey.resource, below[route.apiKey.access])))];
  await Promise.all([
    ...needs.map(async (name) => {
      const [resource, level] = name.split(':') as [ApiKeyResource, ApiKeyLevel];
      exactKeys.set(name, await newKey(owner, { [resource]: level }));
    }),
    newKey(owner, EVERYTHING).then((key) => (everythingKey = key)),
    newKey(owner, { companies: 'write' }, limitedCompanyId).then((key) => (limitedKey = key)),
    ...short.map(async (name) => {
      const [resource, level] = name.split(':') as [ApiKeyResource, ApiKeyLevel];
      shortKeys.set(name, await newKey(other, { ...EVERYTHING, [resource]: level }));
    }),
  ]);
});

describe('the manifest', () => {
  it('declares for every protected route what an API key needs: { resource, access } or false', () => {
    expect(protectedRoutes.filter((route) => route.apiKey === undefined).map((route) => `${route.id} (${route.method} ${route.path})`)).toEqual([]);
  });

  it('asks read of a GET and write of every other method, and never write of a resource no route writes', () => {
    const odd = keyRoutes.filter(
      (route) =>
        route.apiKey.access !== (route.method === 'GET' ? 'read' : 'write') ||
        (route.apiKey.access === 'write' && READ_ONLY_RESOURCES.includes(route.apiKey.resource)),
    );
    expect(odd.map((route) => `${route.id} (${route.method} ${route.path}): ${route.apiKey.resource} ${route.apiKey.access}`)).toEqual([]);
  });

  it('declares it on no public route (there is no authorizer to read it)', () => {
    expect(
      routeList()
        .filter((route) => route.auth === 'public' && route.apiKey !== undefined)
        .map((route) => route.id),
    ).toEqual([]);
  });

  it('has a request in this file for every route a key may use, of that route', () => {
    expect(keyRoutes.filter((route) => probes[route.id] === undefined).map((route) => `${route.id} (${route.method} ${route.path})`)).toEqual([]);
    const sample: Fixtures = {
      companyId: 'c',
      lifecycleCompanyId: 'l',
      limitedCompanyId: 'm',
      supplierId: 's',
      doomedSupplierId: 'd',
      warehouseId: 'w',
      productId: 'p',
      doomedProductId: 'q',
      categoryId: 'g',
      doomedCategoryId: 'h',
      otherWarehouseId: 'o',
      countWarehouseId: 'cw',
      openCountId: 'oc',
      closableCountId: 'cc',
      cancellableCountId: 'xc',
      linkedProductId: 'lp',
      draftOrderId: 'do',
      cancellableOrderId: 'co',
      sendableOrderId: 'so',
      unlinkedProductId: 'up',
    };
    const strays = keyRoutes.flatMap((route) => {
      const probe = probes[route.id]?.(sample);
      return probe && (probe.method !== route.method || !pathMatches(route.path, probe.path)) ? [`${route.id}: ${probe.method} ${probe.path}`] : [];
    });
    expect(strays).toEqual([]);
    // Only routes a key may use have a request here.
    expect(Object.keys(probes).filter((id) => !keyRoutes.some((route) => route.id === id))).toEqual([]);
  });
});

describe('a route that API keys may use', () => {
  it.concurrent.each(keyRoutes.map((route) => [route.id, route] as const))(
    '%s: opens to a key with exactly its level, refuses one level less by name',
    async (_id, route) => {
      const { resource, access } = route.apiKey;
      const probe = probes[route.id];
      if (!probe) throw new Error(`${route.id} takes API keys (${resource} ${access}) but has no request in this file`);
      const request = probe(fixtures);
      // The short key's request is refused before any function reads it: it changes nothing.
      const [opened, refused] = await Promise.all([
        withKey(keyOf(exactKeys, grantName(resource, access)), request),
        withKey(keyOf(shortKeys, grantName(resource, below[access])), probe(fixtures)),
      ]);

      expect([401, 403], `refused by authorization: ${JSON.stringify(opened.body)}`).not.toContain(opened.status);
      expect(opened.status, JSON.stringify(opened.body)).toBe(request.status);
      // Every answer to a key says what is left of its window.
      expect(opened.headers.get('ratelimit-policy')).toBe('"api-key";q=600;w=60');
      expect(opened.headers.get('ratelimit')).toMatch(/^"api-key";r=\d+;t=\d+$/);

      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 403,
        body: problem(403, 'forbidden', { detail: `The API key may not ${access} ${resource}` }),
      });
    },
  );

  it.concurrent.each(
    keyRoutes
      .filter((route) => route.apiKey.access === 'read' && !READ_ONLY_RESOURCES.includes(route.apiKey.resource))
      .map((route) => [route.id, route] as const),
  )('%s: opens to a key that may write its resource', async (_id, route) => {
    const probe = probes[route.id];
    if (!probe) throw new Error(`${route.id} has no request in this file`);
    const request = probe(fixtures);
    const response = await withKey(keyOf(exactKeys, grantName(route.apiKey.resource, 'write')), request);
    expect(response.status, JSON.stringify(response.body)).toBe(request.status);
  });
});

describe('a route only a signed-in user may use (apiKey: false)', () => {
  /** Any value in each path parameter: the authorizer refuses the key before the function reads one. */
  const pathOf = (template: string) => template.replace(/\{[^}]+\}/g, () => randomUUID());

  it.concurrent.each(cookieOnlyRoutes.map((route) => [route.id, route] as const))('%s: refuses a key that grants everything', async (_id, route) => {
    const response = await withKey(everythingKey, { method: route.method, path: pathOf(route.path) });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 403,
      body: problem(403, 'forbidden', { detail: expect.stringContaining('API keys cannot use this route') }),
    });
  });
});

describe('a key limited to one company', () => {
  it('changes its company, and neither another one nor a new one', async () => {
    // Its own company's two changes one after the other; the refused ones beside them.
    const ownChanges = async () => {
      const profile = await withKey(limitedKey, { method: 'PATCH', path: `/companies/${fixtures.limitedCompanyId}`, body: { name: 'Loja Limitada 2' } });
      return [
        profile,
        await withKey(limitedKey, { method: 'PATCH', path: `/companies/${fixtures.limitedCompanyId}/status`, body: { status: 'SUSPENDED' } }),
      ] as const;
    };
    const [[own, ownStatus], other, otherStatus, creation, list] = await Promise.all([
      ownChanges(),
      withKey(limitedKey, { method: 'PATCH', path: `/companies/${fixtures.companyId}`, body: { name: 'Não é minha' } }),
      withKey(limitedKey, { method: 'PATCH', path: `/companies/${fixtures.companyId}/status`, body: { status: 'SUSPENDED' } }),
      withKey(limitedKey, { method: 'POST', path: '/companies', body: { name: 'Outra Loja', document: cnpj.generate() } }),
      withKey(limitedKey, { method: 'GET', path: '/companies' }),
    ]);
    expect({ status: own.status, body: own.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ id: fixtures.limitedCompanyId, name: 'Loja Limitada 2' }),
    });
    expect({ status: ownStatus.status, body: ownStatus.body }).toEqual({
      status: 200,
      body: expect.objectContaining({ id: fixtures.limitedCompanyId, status: 'SUSPENDED' }),
    });
    const elsewhere = { status: 403, body: problem(403, 'forbidden', { detail: 'The API key is limited to another company' }) };
    expect({ status: other.status, body: other.body }).toEqual(elsewhere);
    expect({ status: otherStatus.status, body: otherStatus.body }).toEqual(elsewhere);
    expect({ status: creation.status, body: creation.body }).toEqual({
      status: 403,
      body: problem(403, 'forbidden', { detail: 'The API key is limited to one company and cannot create another' }),
    });
    // The list is not a company route by id: the authorizer lets it through (what it shows is the service's).
    expect(list.status).toBe(200);
  });
});

describe('a public route', () => {
  it('answers a request with a Bearer key as it answers the same request without one', async () => {
    const body = { email: `nobody.${randomUUID().slice(0, 8)}@example.com`, password: 'not a password of anyone' };
    const [plain, keyed] = await Promise.all([
      call('POST', '/auth/login', { body }),
      call('POST', '/auth/login', { body, headers: { authorization: `Bearer ${everythingKey}` } }),
    ]);
    expect({ status: plain.status, body: plain.body }).toEqual({ status: 401, body: problem(401, 'unauthorized') });
    expect({ status: keyed.status, body: { ...(keyed.body as object), requestId: null } }).toEqual({
      status: plain.status,
      body: { ...(plain.body as object), requestId: null },
    });
    expect(keyed.headers.get('ratelimit-policy')).toBeNull();
  });
});
