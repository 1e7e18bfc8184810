import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenantWithAdmin, problem, uniqueName, type Account } from './api';

/**
 * The stock history (kardex), GET /inventory/movements, over HTTP on DynamoDB Local.
 * Every item of a page is the very answer its POST gave (the movement and the balance it
 * left), newest first; every filter combination, the date bounds, the pages and the cursor
 * rules are checked against the movements the test recorded.
 */

type Movement = Record<string, unknown> & { id: string; productId: string; warehouseId: string; type: string; occurredAt: string };
interface Page {
  items: Movement[];
  nextCursor: string | null;
}

const post = (account: Account, path: string, body: unknown) => call<Record<string, unknown>>('POST', path, { cookies: account.cookies, body });
const history = (account: Account, query: Record<string, string>) =>
  call<Page>('GET', `/inventory/movements?${new URLSearchParams(query).toString()}`, { cookies: account.cookies });

let admin: Account;
let other: Account;
let P0: string, P1: string, W0: string, W1: string;
/** Recorded in time order, so each one's balance is also the balance at its occurredAt. */
const recorded: Movement[] = [];
const newestFirst = (keep: (movement: Movement) => boolean) => recorded.filter(keep).reverse();

beforeAll(async () => {
  admin = await newTenantWithAdmin();
  other = await newTenantWithAdmin();
  const id = async (path: string, body: unknown) => String((await post(admin, path, body)).body.id);
  W0 = await id('/inventory/warehouses', { name: 'W0' });
  W1 = await id('/inventory/warehouses', { name: 'W1' });
  P0 = await id('/inventory/products', { sku: uniqueName('P0'), name: 'P0', unit: 'KG' });
  P1 = await id('/inventory/products', { sku: uniqueName('P1'), name: 'P1', unit: 'KG' });
  const movements = [
    { productId: P0, warehouseId: W0, type: 'IN', quantity: 10, unitCost: 2.5, occurredAt: '2026-10-01T10:00:00.000Z' },
    { productId: P0, warehouseId: W1, type: 'IN', quantity: 5, unitCost: 3, occurredAt: '2026-10-02T10:00:00.000Z' },
    { productId: P1, warehouseId: W0, type: 'IN', quantity: 4, unitCost: 1.2345, occurredAt: '2026-10-03T10:00:00.000Z' },
    { productId: P0, warehouseId: W0, type: 'SALE', quantity: 2.5, occurredAt: '2026-10-04T10:00:00.000Z' },
    { productId: P0, warehouseId: W0, type: 'OUT', quantity: 1, occurredAt: '2026-10-05T10:00:00.000Z' },
    { productId: P1, warehouseId: W0, type: 'SALE', quantity: 0.5, occurredAt: '2026-10-06T10:00:00.000Z' },
    { productId: P0, warehouseId: W1, type: 'ADJUSTMENT', quantity: 7, unitCost: 3.5, occurredAt: '2026-10-07T10:00:00.000Z' },
    { productId: P0, warehouseId: W0, type: 'SALE', quantity: 1, occurredAt: '2026-10-08T10:00:00.000Z' },
    // 23:30 on 2026-10-08 in São Paulo (the business time zone), already the 9th in UTC.
    { productId: P1, warehouseId: W1, type: 'IN', quantity: 1, unitCost: 1, occurredAt: '2026-10-09T02:30:00.000Z' },
  ];
  for (const movement of movements) {
    const answer = await post(admin, '/inventory/movements', movement);
    if (answer.status !== 201) throw new Error(`movement refused: ${JSON.stringify(answer.body)}`);
    recorded.push(answer.body as Movement);
  }
});

describe('GET /inventory/movements', () => {
  it('lists every movement of the tenant newest first, each exactly as its POST answered, balance after it included', async () => {
    const answer = await history(admin, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ items: newestFirst(() => true), nextCursor: null });
    // The balance is the product's in that warehouse: P0 in W0 after IN 10, SALE 2.5, OUT 1, SALE 1.
    expect(answer.body.items[1]).toMatchObject({ type: 'SALE', quantity: 1, balance: { quantity: 5.5, averageCost: 2.5 } });
  });

  it.each([
    ['product', (m: Movement) => m.productId === P0, () => ({ productId: P0 })],
    ['warehouse', (m: Movement) => m.warehouseId === W0, () => ({ warehouseId: W0 })],
    ['type', (m: Movement) => m.type === 'SALE', () => ({ type: 'SALE' })],
    ['product and warehouse', (m: Movement) => m.productId === P0 && m.warehouseId === W0, () => ({ productId: P0, warehouseId: W0 })],
    ['product and type', (m: Movement) => m.productId === P0 && m.type === 'IN', () => ({ productId: P0, type: 'IN' })],
    ['warehouse and type', (m: Movement) => m.warehouseId === W0 && m.type === 'SALE', () => ({ warehouseId: W0, type: 'SALE' })],
    [
      'product, warehouse and type',
      (m: Movement) => m.productId === P0 && m.warehouseId === W1 && m.type === 'ADJUSTMENT',
      () => ({ productId: P0, warehouseId: W1, type: 'ADJUSTMENT' }),
    ],
    ['a combination with no movement', (m: Movement) => m.productId === P1 && m.type === 'OUT', () => ({ productId: P1, type: 'OUT' })],
  ])('filters by %s', async (_name, keep, query) => {
    const expected = newestFirst(keep);
    const answer = await history(admin, query());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ items: expected, nextCursor: null });
  });

  const at = (day: string, time = '10:00') => `${day}T${time}:00.000Z`;
  it.each([
    ['business days (whole days in São Paulo)', { from: '2026-10-03', to: '2026-10-05' }, [at('2026-10-05'), at('2026-10-04'), at('2026-10-03')]],
    ['a day that ends after midnight UTC', { from: '2026-10-08', to: '2026-10-08' }, [at('2026-10-09', '02:30'), at('2026-10-08')]],
    ['a day that begins after midnight UTC', { from: '2026-10-09' }, []],
    [
      'date-times, both inclusive',
      { from: '2026-10-04T10:00:00.000Z', to: '2026-10-06T07:00:00-03:00' },
      [at('2026-10-06'), at('2026-10-05'), at('2026-10-04')],
    ],
    ['only an upper bound', { to: '2026-10-01T23:59:59Z' }, [at('2026-10-01')]],
  ])('keeps to a date range given as %s', async (_name, range, instants) => {
    const answer = await history(admin, range);
    expect(answer.status).toBe(200);
    expect(answer.body.items.map((item) => item.occurredAt)).toEqual(instants);
    expect(answer.body.nextCursor).toBeNull();
  });

  it('pages with a cursor: every movement once, in order, and no empty last page', async () => {
    for (const limit of [1, 2, 3, 4, 9, 100]) {
      const seen: Movement[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: Page } = await history(admin, { limit: String(limit), ...(cursor ? { cursor } : {}) });
        expect(page.status).toBe(200);
        seen.push(...page.body.items);
        sizes.push(page.body.items.length);
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(seen, `limit ${limit}`).toEqual(newestFirst(() => true));
      expect(sizes.every((size) => size > 0) && sizes.slice(0, -1).every((size) => size === limit), `limit ${limit}: ${sizes.join(',')}`).toBe(true);
    }
  });

  it('pages a filtered, date-bounded list with its own cursor', async () => {
    const query = { productId: P0, from: '2026-10-02', to: '2026-10-08', limit: '2' };
    const first = await history(admin, query);
    const second = await history(admin, { ...query, cursor: String(first.body.nextCursor) });
    const third = await history(admin, { ...query, cursor: String(second.body.nextCursor) });
    const expected = newestFirst((m) => m.productId === P0 && m.occurredAt >= '2026-10-02');
    expect([first.body.items, second.body.items, third.body.items]).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
    expect(third.body.nextCursor).toBeNull();
  });

  describe('refuses a cursor it did not seal for this list with a 400 naming `cursor`', () => {
    const refusedCursor = problem(400, 'validation', { errors: [{ field: 'cursor', message: 'is not a cursor of this list: start again without it' }] });
    let cursor: string;
    beforeAll(async () => {
      cursor = String((await history(admin, { limit: '2' })).body.nextCursor);
    });

    it.each([
      ['edited by hand', () => ({ limit: '2', cursor: `${cursor.slice(0, 5)}${cursor[5] === 'A' ? 'B' : 'A'}${cursor.slice(6)}` })],
      ['with its MAC cut off', () => ({ limit: '2', cursor: cursor.split('.')[0] ?? '' })],
      ['not a cursor at all', () => ({ cursor: 'not-a-cursor' })],
      ['longer than any cursor', () => ({ cursor: 'A'.repeat(1_025) })],
      ['used with other filters', () => ({ limit: '2', cursor, productId: P0 })],
      ['used with another date range', () => ({ limit: '2', cursor, from: '2026-10-01' })],
    ])('%s', async (_name, query) => {
      const answer = await history(admin, query());
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(refusedCursor);
    });

    it("from another tenant's list", async () => {
      const answer = await history(other, { limit: '2', cursor });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(refusedCursor);
    });

    it('but follows it with another page size (the size is not part of the list)', async () => {
      const answer = await history(admin, { limit: '3', cursor });
      expect(answer.status).toBe(200);
      expect(answer.body.items).toEqual(newestFirst(() => true).slice(2, 5));
    });
  });

  it("shows another tenant nothing of this tenant's movements, even filtered by its ids", async () => {
    expect((await history(other, {})).body).toEqual({ items: [], nextCursor: null });
    expect((await history(other, { productId: P0, warehouseId: W0 })).body).toEqual({ items: [], nextCursor: null });
  });

  it('leaves out a refused movement', async () => {
    const refused = await post(admin, '/inventory/movements', { productId: P1, warehouseId: W1, type: 'OUT', quantity: 1000 });
    expect(refused.status).toBe(409);
    expect((await history(admin, { productId: P1, warehouseId: W1 })).body).toEqual({
      items: newestFirst((m) => m.productId === P1 && m.warehouseId === W1),
      nextCursor: null,
    });
  });

  it.each([
    ['limit 0', { limit: '0' }, 'limit', 'must be an integer from 1 to 100'],
    ['limit 101', { limit: '101' }, 'limit', 'must be an integer from 1 to 100'],
    ['a decimal limit', { limit: '1.5' }, 'limit', 'must be an integer from 1 to 100'],
    ['an unknown type', { type: 'RETURN' }, 'type', 'must be one of IN, OUT, SALE, ADJUSTMENT, TRANSFER_OUT, TRANSFER_IN'],
    ['a product id that is not a UUID', { productId: '42' }, 'productId', 'must be a UUID'],
    ['a day that does not exist', { from: '2026-02-30' }, 'from', 'must be a day (YYYY-MM-DD, in the business time zone) or an ISO 8601 date-time'],
    ['a date-time without its offset', { to: '2026-10-01T10:00:00' }, 'to', 'must be a day (YYYY-MM-DD, in the business time zone) or an ISO 8601 date-time'],
    ['a range that ends before it starts', { from: '2026-10-05', to: '2026-10-04' }, 'to', 'must not be before from'],
  ])('refuses %s with a 400 naming the parameter', async (_name, query, field, message) => {
    const answer = await history(admin, query);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(problem(400, 'validation', { errors: [{ field, message }] }));
  });

  it('refuses a parameter it does not know', async () => {
    const answer = await history(admin, { sort: 'asc' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(problem(400, 'validation', { errors: [expect.objectContaining({ field: 'sort' })] }));
  });

  it('needs a session', async () => {
    const answer = await call('GET', '/inventory/movements');
    expect(answer.status).toBe(401);
  });
});
