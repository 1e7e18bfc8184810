import { describe, expect, it } from 'vitest';
import { call, newTenantWithAdmin, problem, type Account } from './api';

/**
 * Domain events over HTTP: each change writes its event in the same transaction (the
 * transactional outbox), and GET /events lists them, oldest first, for a receiver catching up.
 */

interface EventPage {
  items: { id: string; type: string; timestamp: string; data: Record<string, unknown> }[];
  nextCursor: string | null;
}

async function stockedProduct(admin: Account) {
  const warehouse = await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Centro' } });
  const product = await call<{ id: string }>('POST', '/inventory/products', { cookies: admin.cookies, body: { sku: 'CAFE-500', name: 'Café 500 g' } });
  return { warehouseId: warehouse.body.id, productId: product.body.id };
}

describe('GET /events', () => {
  it('lists each change once, oldest first, with the fields a receiver routes on', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseId, productId } = await stockedProduct(admin);
    const movement = await call<{ id: string }>('POST', '/inventory/movements', {
      cookies: admin.cookies,
      body: { productId, warehouseId, type: 'IN', quantity: 10, unitCost: 5 },
    });
    expect(movement.status).toBe(201);

    const page = await call<EventPage>('GET', '/events', { cookies: admin.cookies });
    expect(page.status).toBe(200);
    expect(page.body).toEqual({
      items: [
        {
          id: expect.any(String) as string,
          type: 'warehouse.created',
          timestamp: expect.stringMatching(/Z$/) as string,
          data: { id: warehouseId, tenantId: admin.tenantId },
        },
        {
          id: expect.any(String) as string,
          type: 'product.created',
          timestamp: expect.stringMatching(/Z$/) as string,
          data: { id: productId, tenantId: admin.tenantId, sku: 'CAFE-500' },
        },
        {
          id: expect.any(String) as string,
          type: 'stock_movement.created',
          timestamp: expect.stringMatching(/Z$/) as string,
          data: { id: movement.body.id, tenantId: admin.tenantId, productId, warehouseId, type: 'IN' },
        },
      ],
      nextCursor: null,
    });
  });

  it('leaves no event of a change that did not commit (a refused movement)', async () => {
    const admin = await newTenantWithAdmin();
    const { warehouseId, productId } = await stockedProduct(admin);
    // More than the balance: refused, nothing written.
    const refused = await call('POST', '/inventory/movements', { cookies: admin.cookies, body: { productId, warehouseId, type: 'SALE', quantity: 1 } });
    expect(refused.status).toBe(409);

    const page = await call<EventPage>('GET', '/events?type=stock_movement.created', { cookies: admin.cookies });
    expect(page.body).toEqual({ items: [], nextCursor: null });
  });

  it('filters by type, pages with a cursor, and keeps tenants apart', async () => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    await stockedProduct(other);
    const { warehouseId, productId } = await stockedProduct(admin);
    for (let index = 0; index < 3; index += 1) {
      await call('POST', '/inventory/movements', { cookies: admin.cookies, body: { productId, warehouseId, type: 'IN', quantity: 1, unitCost: 2 } });
    }

    const first = await call<EventPage>('GET', '/events?type=stock_movement.created&limit=2', { cookies: admin.cookies });
    expect(first.body.items.map((event) => event.type)).toEqual(['stock_movement.created', 'stock_movement.created']);
    expect(first.body.nextCursor).not.toBeNull();
    const second = await call<EventPage>('GET', `/events?type=stock_movement.created&limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`, {
      cookies: admin.cookies,
    });
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.items, ...second.body.items].map((event) => event.id);
    expect(new Set(ids).size).toBe(3);
    for (const event of [...first.body.items, ...second.body.items]) expect(event.data.tenantId).toBe(admin.tenantId);

    // Another tenant's cursor is refused.
    const foreign = await call('GET', `/events?type=stock_movement.created&limit=2&cursor=${encodeURIComponent(first.body.nextCursor ?? '')}`, {
      cookies: other.cookies,
    });
    expect(foreign.status).toBe(400);
  });

  it('is read by an API key with events: read, and refused to one without', async () => {
    const admin = await newTenantWithAdmin();
    await stockedProduct(admin);
    const withEvents = await call<{ key: string }>('POST', '/api-keys', { cookies: admin.cookies, body: { name: 'BI', scopes: { events: 'read' } } });
    const without = await call<{ key: string }>('POST', '/api-keys', { cookies: admin.cookies, body: { name: 'PDV', scopes: { inventory: 'read' } } });

    const read = await call<EventPage>('GET', '/events', { headers: { authorization: `Bearer ${withEvents.body.key}` } });
    expect(read.status).toBe(200);
    expect(read.body.items.map((event) => event.type)).toEqual(['warehouse.created', 'product.created']);
    const refused = await call('GET', '/events', { headers: { authorization: `Bearer ${without.body.key}` } });
    expect(refused.body).toEqual(problem(403, 'forbidden', { detail: 'The API key may not read events' }));
  });
});
