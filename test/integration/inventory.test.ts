import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, newTenantWithAdmin, problem, settled, type Account } from './api';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function warehouse(account: Account, name: string): Promise<string> {
  const response = await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: account.cookies, body: { name } });
  expect(response.status).toBe(201);
  return response.body.id;
}

/** A product counted in kilos: the movements here take up to 3 decimals. */
async function product(account: Account, sku: string, name = `Product ${sku}`): Promise<string> {
  const response = await call<{ id: string }>('POST', '/inventory/products', { cookies: account.cookies, body: { sku, name, unit: 'KG' } });
  expect(response.status).toBe(201);
  return response.body.id;
}

function move(account: Account, body: Record<string, unknown>) {
  return call<Record<string, unknown>>('POST', '/inventory/movements', { cookies: account.cookies, body });
}

describe('warehouses and products', () => {
  it('creates and lists warehouses by name', async () => {
    const admin = await newTenantWithAdmin();
    const created = await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Zona Sul' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), name: 'Zona Sul', companyId: null, createdAt: expect.stringMatching(TIMESTAMP) });
    await warehouse(admin, 'Armazém Central');
    const list = await call<{ name: string }[]>('GET', '/inventory/warehouses', { cookies: admin.cookies });
    expect(list.status).toBe(200);
    expect(list.body.map((item) => item.name)).toEqual(['Armazém Central', 'Zona Sul']);
  });

  it('creates and lists products by SKU; a SKU is unique in the tenant only', async () => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const created = await call('POST', '/inventory/products', { cookies: admin.cookies, body: { sku: 'SKU-2', name: 'Café 500g' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      sku: 'SKU-2',
      name: 'Café 500g',
      description: null,
      brand: null,
      unit: 'UN',
      gtin: null,
      ncm: null,
      cest: null,
      salePrice: null,
      status: 'ACTIVE',
      categoryId: null,
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: expect.stringMatching(TIMESTAMP),
      version: 1,
    });
    await product(admin, 'SKU-1');
    const duplicate = await call('POST', '/inventory/products', { cookies: admin.cookies, body: { sku: 'SKU-2', name: 'Again' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual(problem(409, 'conflict'));
    expect((await call('POST', '/inventory/products', { cookies: other.cookies, body: { sku: 'SKU-2', name: 'Theirs' } })).status).toBe(201);

    const list = await call<{ sku: string }[]>('GET', '/inventory/products', { cookies: admin.cookies });
    expect(list.body.map((item) => item.sku)).toEqual(['SKU-1', 'SKU-2']);
  });

  it.each([
    ['/inventory/warehouses', {}, 'name'],
    ['/inventory/warehouses', { name: '' }, 'name'],
    ['/inventory/warehouses', { name: 'A', code: 'x' }, 'code'],
    ['/inventory/products', { name: 'No SKU' }, 'sku'],
    ['/inventory/products', { sku: 'has space', name: 'X' }, 'sku'],
    ['/inventory/products', { sku: 'A1' }, 'name'],
  ])('answers 400 on POST %s with %j', async (path, body, field) => {
    const admin = await newTenantWithAdmin();
    const response = await call('POST', path, { cookies: admin.cookies, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) }));
  });
});

describe('POST /inventory/movements', () => {
  it('keeps the weighted average unit cost across INs and takes OUT and SALE at that average', async () => {
    const admin = await newTenantWithAdmin();
    const [w, p] = [await warehouse(admin, 'W'), await product(admin, 'P')];

    const first = await move(admin, { productId: p, warehouseId: w, type: 'IN', quantity: 10, unitCost: 5 });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.any(String),
      productId: p,
      warehouseId: w,
      type: 'IN',
      quantity: 10,
      unitCost: 5,
      transferId: null,
      counterpartWarehouseId: null,
      occurredAt: expect.stringMatching(TIMESTAMP),
      createdAt: expect.stringMatching(TIMESTAMP),
      balance: { quantity: 10, averageCost: 5, lastCost: 5 },
    });
    const second = await move(admin, { productId: p, warehouseId: w, type: 'IN', quantity: 30, unitCost: 7 });
    expect(second.body.balance).toEqual({ quantity: 40, averageCost: 6.5, lastCost: 7 });
    const out = await move(admin, { productId: p, warehouseId: w, type: 'OUT', quantity: 15 });
    expect(out.body.balance).toEqual({ quantity: 25, averageCost: 6.5, lastCost: 7 });
    const sale = await move(admin, { productId: p, warehouseId: w, type: 'SALE', quantity: 5 });
    expect(sale.body).toEqual(expect.objectContaining({ type: 'SALE', unitCost: null, balance: { quantity: 20, averageCost: 6.5, lastCost: 7 } }));
    const third = await move(admin, { productId: p, warehouseId: w, type: 'IN', quantity: 20, unitCost: 9.5 });
    expect(third.body.balance).toEqual({ quantity: 40, averageCost: 8, lastCost: 9.5 });

    const summary = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(summary.body).toEqual([
      { warehouseId: w, warehouseName: 'W', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 40, totalProducts: 1, totalValue: 320 },
    ]);
  });

  it('sets the counted quantity with ADJUSTMENT (0 allowed) and values added units at unitCost', async () => {
    const admin = await newTenantWithAdmin();
    const [w, p] = [await warehouse(admin, 'W'), await product(admin, 'P')];
    await move(admin, { productId: p, warehouseId: w, type: 'IN', quantity: 10, unitCost: 4 });
    const down = await move(admin, { productId: p, warehouseId: w, type: 'ADJUSTMENT', quantity: 8 });
    expect(down.body.balance).toEqual({ quantity: 8, averageCost: 4, lastCost: 4 });
    const up = await move(admin, { productId: p, warehouseId: w, type: 'ADJUSTMENT', quantity: 10, unitCost: 10 });
    expect(up.body.balance).toEqual({ quantity: 10, averageCost: 5.2, lastCost: 10 });
    const zero = await move(admin, { productId: p, warehouseId: w, type: 'ADJUSTMENT', quantity: 0 });
    expect(zero.body.balance).toEqual({ quantity: 0, averageCost: 5.2, lastCost: 10 });
    const summary = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(summary.body).toEqual([
      { warehouseId: w, warehouseName: 'W', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 0, totalProducts: 0, totalValue: 0 },
    ]);
  });

  it('answers 409 when OUT or SALE would take the balance below zero, and changes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const [w, p] = [await warehouse(admin, 'W'), await product(admin, 'P')];
    await move(admin, { productId: p, warehouseId: w, type: 'IN', quantity: 3, unitCost: 2 });
    for (const type of ['OUT', 'SALE']) {
      const response = await move(admin, { productId: p, warehouseId: w, type, quantity: 4 });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(problem(409, 'conflict'));
    }
    const summary = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(summary.body).toEqual([
      { warehouseId: w, warehouseName: 'W', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 3, totalProducts: 1, totalValue: 6 },
    ]);
  });

  it('lets exactly as many of 20 parallel sales succeed as there is stock', async () => {
    const admin = await newTenantWithAdmin();
    const [w, p] = [await warehouse(admin, 'W'), await product(admin, 'P')];
    await move(admin, { productId: p, warehouseId: w, type: 'IN', quantity: 7, unitCost: 1 });
    // Each as a client sends it: a 503 (busy under load) again with its Idempotency-Key.
    const sale = () => {
      const headers = { 'Idempotency-Key': randomUUID() };
      return settled(() =>
        call('POST', '/inventory/movements', { cookies: admin.cookies, headers, body: { productId: p, warehouseId: w, type: 'SALE', quantity: 1 } }),
      );
    };
    const responses = await Promise.all(Array.from({ length: 20 }, sale));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(7);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(13);
    const balances = responses.filter((response) => response.status === 201).map((response) => (response.body.balance as { quantity: number }).quantity);
    expect(balances.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const summary = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(summary.body).toEqual([
      { warehouseId: w, warehouseName: 'W', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 0, totalProducts: 0, totalValue: 0 },
    ]);
  });

  it('keeps totals exact under parallel movements of several products in one warehouse', async () => {
    const admin = await newTenantWithAdmin();
    const w = await warehouse(admin, 'W');
    const products = await Promise.all(['A', 'B', 'C', 'D'].map((sku) => product(admin, sku)));
    await Promise.all(
      products.flatMap((p) => Array.from({ length: 5 }, () => move(admin, { productId: p, warehouseId: w, type: 'IN', quantity: 2, unitCost: 3 }))),
    );
    const summary = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(summary.body).toEqual([
      { warehouseId: w, warehouseName: 'W', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 40, totalProducts: 4, totalValue: 120 },
    ]);
  });

  it.each([
    ['unitCost missing for IN', { type: 'IN', quantity: 1 }, 'unitCost'],
    ['unitCost on a SALE', { type: 'SALE', quantity: 1, unitCost: 2 }, 'unitCost'],
    ['a zero quantity for OUT', { type: 'OUT', quantity: 0 }, 'quantity'],
    ['a negative quantity', { type: 'IN', quantity: -1, unitCost: 1 }, 'quantity'],
    ['a negative ADJUSTMENT', { type: 'ADJUSTMENT', quantity: -1 }, 'quantity'],
    ['a quantity given as text', { type: 'IN', quantity: '5', unitCost: 1 }, 'quantity'],
    ['more than 4 decimals', { type: 'IN', quantity: 1.00001, unitCost: 1 }, 'quantity'],
    ['an unknown type', { type: 'TRANSFER', quantity: 1 }, 'type'],
    ['an occurredAt in the future', { type: 'IN', quantity: 1, unitCost: 1, occurredAt: new Date(Date.now() + 3_600_000).toISOString() }, 'occurredAt'],
    ['an occurredAt that is not a date-time', { type: 'IN', quantity: 1, unitCost: 1, occurredAt: 'yesterday' }, 'occurredAt'],
    ['a productId that is not a UUID', { type: 'IN', quantity: 1, unitCost: 1, productId: 'p-1' }, 'productId'],
    ['an unknown field', { type: 'IN', quantity: 1, unitCost: 1, note: 'x' }, 'note'],
    ['a sale in the year 100', { type: 'SALE', quantity: 1, occurredAt: '0100-06-15T12:00:00.000Z' }, 'occurredAt'],
    ['a movement a millisecond before 2000', { type: 'IN', quantity: 1, unitCost: 1, occurredAt: '1999-12-31T23:59:59.999Z' }, 'occurredAt'],
  ])('answers 400 for %s', async (_case, override, field) => {
    const admin = await newTenantWithAdmin();
    const [w, p] = [await warehouse(admin, 'W'), await product(admin, 'P')];
    const response = await move(admin, { productId: p, warehouseId: w, ...override });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) }));
    const summary = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(summary.body).toEqual([
      { warehouseId: w, warehouseName: 'W', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 0, totalProducts: 0, totalValue: 0 },
    ]);
  });

  it("answers 404 for an unknown product or warehouse, and for another tenant's", async () => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const [w, p] = [await warehouse(admin, 'W'), await product(admin, 'P')];
    const [ow, op] = [await warehouse(other, 'OW'), await product(other, 'OP')];
    for (const [productId, warehouseId] of [
      [randomUUID(), w],
      [p, randomUUID()],
      [op, w],
      [p, ow],
    ]) {
      const response = await move(admin, { productId, warehouseId, type: 'IN', quantity: 1, unitCost: 1 });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(problem(404, 'not-found'));
    }
    const theirs = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: other.cookies });
    expect(theirs.body).toEqual([
      { warehouseId: ow, warehouseName: 'OW', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 0, totalProducts: 0, totalValue: 0 },
    ]);
  });
  it.each(['OUT', 'SALE', 'ADJUSTMENT'])('answers 404 before 409 for %s on an unknown product or warehouse', async (type) => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const [w, p] = [await warehouse(admin, 'W'), await product(admin, 'P')];
    const op = await product(other, 'OP');
    for (const [productId, warehouseId, detail] of [
      [randomUUID(), w, 'No such product'],
      [p, randomUUID(), 'No such warehouse'],
      [op, w, 'No such product'],
    ]) {
      const response = await move(admin, { productId, warehouseId, type, quantity: 1 });
      expect({ productId, warehouseId, status: response.status, body: response.body }).toEqual({
        productId,
        warehouseId,
        status: 404,
        body: problem(404, 'not-found', { detail }),
      });
    }
    // A real product in a real warehouse with nothing on hand is still a 409 (ADJUSTMENT sets it).
    const empty = await move(admin, { productId: p, warehouseId: w, type, quantity: 1 });
    expect(empty.status).toBe(type === 'ADJUSTMENT' ? 201 : 409);
  });
});

describe('GET /inventory/dashboard/by-warehouse', () => {
  it('lists every warehouse by name, those without stock with zeros, values at the average cost', async () => {
    const admin = await newTenantWithAdmin();
    const north = await warehouse(admin, 'Norte');
    const south = await warehouse(admin, 'Sul');
    const empty = await warehouse(admin, 'Leste');
    const [a, b] = [await product(admin, 'A'), await product(admin, 'B')];
    await move(admin, { productId: a, warehouseId: north, type: 'IN', quantity: 10, unitCost: 2.5 });
    await move(admin, { productId: b, warehouseId: north, type: 'IN', quantity: 3, unitCost: 10 });
    await move(admin, { productId: a, warehouseId: south, type: 'IN', quantity: 1.5, unitCost: 3.333 });

    const response = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      { warehouseId: empty, warehouseName: 'Leste', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 0, totalProducts: 0, totalValue: 0 },
      { warehouseId: north, warehouseName: 'Norte', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 13, totalProducts: 2, totalValue: 55 },
      { warehouseId: south, warehouseName: 'Sul', companyId: null, costMethod: 'WEIGHTED_AVERAGE', totalItems: 1.5, totalProducts: 1, totalValue: 5 },
    ]);
  });

  it('answers [] for a tenant without warehouses', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('GET', '/inventory/dashboard/by-warehouse', { cookies: admin.cookies });
    expect(response.body).toEqual([]);
  });
});

describe('GET /inventory/warehouses/{id} and /inventory/products/{id}', () => {
  it.each([
    ['/inventory/warehouses', { name: 'Zona Norte' }],
    ['/inventory/products', { sku: 'BY-ID-1', name: 'Café 1kg' }],
  ])('%s/{id} answers the view the create answered; 404 for an unknown id and for another tenant, 400 for a bad id', async (collection, body) => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const created = await call<{ id: string }>('POST', collection, { cookies: admin.cookies, body });
    expect(created.status).toBe(201);

    const read = await call('GET', `${collection}/${created.body.id}`, { cookies: admin.cookies });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const foreign = await call('GET', `${collection}/${created.body.id}`, { cookies: other.cookies });
    const unknown = await call('GET', `${collection}/${randomUUID()}`, { cookies: admin.cookies });
    for (const missing of [foreign, unknown]) {
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(problem(404, 'not-found'));
    }
    const bad = await call('GET', `${collection}/not-a-uuid`, { cookies: admin.cookies });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(problem(400, 'validation', { errors: [expect.objectContaining({ field: 'id' })] }));
    expect((await call('GET', `${collection}/${created.body.id}`)).status).toBe(401);
  });
});
