import { beforeAll, describe, expect, it } from 'vitest';
import { allPages, call, newTenantWithAdmin, nextLink, problem, uniqueName, type Account } from './api';
import { cnpj } from 'cpf-cnpj-validator';

/**
 * Every list route is bounded. GET /companies, /inventory/warehouses and
 * /inventory/products answer an array page and name the next one in `Link: <…>; rel="next"`
 * (RFC 8288); a caller that never pages sees a list of up to 100 as before.
 */
let admin: Account;
let other: Account;

const post = (path: string, body: unknown) => call<{ id: string }>('POST', path, { cookies: admin.cookies, body });

beforeAll(async () => {
  admin = await newTenantWithAdmin();
  other = await newTenantWithAdmin();
  for (let index = 0; index < 5; index += 1) expect((await post('/companies', { name: `Empresa ${index}`, document: cnpj.generate() })).status).toBe(201);
  for (const name of ['Depósito b', 'Centro', 'açougue', 'Ábaco', 'zona sul']) expect((await post('/inventory/warehouses', { name })).status).toBe(201);
  for (const sku of ['b-2', 'A-1', 'a-3', 'B-1', '10']) expect((await post('/inventory/products', { sku, name: `Produto ${sku}` })).status).toBe(201);
});

describe.each([
  ['/companies', (items: Record<string, unknown>[]) => items.map((item) => item.name), ['Empresa 0', 'Empresa 1', 'Empresa 2', 'Empresa 3', 'Empresa 4']],
  ['/inventory/warehouses', (items: Record<string, unknown>[]) => items.map((item) => item.name), ['Ábaco', 'açougue', 'Centro', 'Depósito b', 'zona sul']],
  ['/inventory/products', (items: Record<string, unknown>[]) => items.map((item) => item.sku), ['10', 'A-1', 'B-1', 'a-3', 'b-2']],
])('GET %s', (path, labels, order) => {
  it('answers the whole list in order without paging parameters, with no Link', async () => {
    const response = await call<Record<string, unknown>[]>('GET', path, { cookies: admin.cookies });
    expect(response.status).toBe(200);
    expect(labels(response.body)).toEqual(order);
    expect(response.headers.get('link')).toBeNull();
    expect(response.headers.get('access-control-expose-headers')).toBe('Idempotent-Replayed, Link, Coverage-Figures-Date, Coverage-Stale, ETag');
  });

  it('pages through Link: every item once, in order, full pages, and no Link on the last', async () => {
    const whole = (await call<Record<string, unknown>[]>('GET', path, { cookies: admin.cookies })).body;
    for (const limit of [1, 2, 4, 5]) {
      const paged = await allPages<Record<string, unknown>>(`${path}?limit=${limit}`, admin.cookies);
      expect(paged.items, `limit ${limit}`).toEqual(whole);
      expect(paged.pages, `limit ${limit}`).toBe(Math.ceil(whole.length / limit));
    }
    const first = await call<unknown[]>('GET', `${path}?limit=2`, { cookies: admin.cookies });
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('link')).toMatch(new RegExp(`^<${path.replace(/\//g, '\\/')}\\?limit=2&cursor=[\\w.-]+>; rel="next"$`));
  });

  it("refuses another list's cursor, another tenant's and an edited one with a 400 naming `cursor`", async () => {
    const refused = problem(400, 'validation', { errors: [{ field: 'cursor', message: 'is not a cursor of this list: start again without it' }] });
    const cursorOf = async (listPath: string) =>
      new URL(`http://x${nextLink(await call('GET', `${listPath}?limit=1`, { cookies: admin.cookies })) ?? ''}`).searchParams.get('cursor') ?? '';
    const own = await cursorOf(path);
    const foreignList = await cursorOf(path === '/companies' ? '/inventory/products' : '/companies');
    for (const [caller, cursor] of [
      [admin, foreignList],
      [other, own],
      [admin, `${own.slice(0, -2)}${own.endsWith('AA') ? 'BB' : 'AA'}`],
    ] as const) {
      const response = await call('GET', `${path}?cursor=${encodeURIComponent(cursor)}`, { cookies: caller.cookies });
      expect(response.status).toBe(400);
      expect(response.body).toEqual(refused);
    }
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=2.5', 'limit'],
    ['page=2', 'page'],
  ])('refuses ?%s with a 400 naming the parameter', async (query, field) => {
    const response = await call('GET', `${path}?${query}`, { cookies: admin.cookies });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [expect.objectContaining({ field })] }));
  });

  it("shows another tenant none of this tenant's items", async () => {
    expect((await call('GET', path, { cookies: other.cookies })).body).toEqual([]);
  });
});

it('keeps a company list oldest first while pages are read (a new company goes to the end)', async () => {
  const first = await call<{ name: string }[]>('GET', '/companies?limit=3', { cookies: admin.cookies });
  expect((await post('/companies', { name: uniqueName('Nova'), document: cnpj.generate() })).status).toBe(201);
  const rest = await allPages<{ name: string }>(nextLink(first) ?? '', admin.cookies);
  expect([...first.body, ...rest.items].map((company) => company.name).slice(0, 5)).toEqual(['Empresa 0', 'Empresa 1', 'Empresa 2', 'Empresa 3', 'Empresa 4']);
  expect(rest.items.at(-1)?.name).toMatch(/^Nova-/);
});
