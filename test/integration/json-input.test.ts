import { cnpj } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { call, newTenantWithAdmin, problem, type Account } from './api';

/**
 * JSON that cannot crash or lose data. Deep nesting, reserved keys and
 * duplicate keys are 400 problems naming what is wrong, and nothing is stored.
 */

const nestedObject = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

async function companyCount(account: Account): Promise<number> {
  const listed = await call<unknown[]>('GET', '/companies', { cookies: account.cookies });
  expect(listed.status).toBe(200);
  return listed.body.length;
}

/** POST /companies with a raw JSON text; asserts the tenant's companies did not change. */
async function postCompanyRaw(account: Account, text: string) {
  const before = await companyCount(account);
  const response = await call('POST', '/companies', { cookies: account.cookies, rawBody: text, headers: { 'content-type': 'application/json' } });
  expect(await companyCount(account)).toBe(before + (response.status === 201 ? 1 : 0));
  return response;
}

const companyWithSettings = (settingsText: string) => `{"name":"Loja","document":"${cnpj.generate()}","settings":${settingsText}}`;

describe('nesting depth', () => {
  it('accepts a body nested 32 levels deep (the body, then 31 levels of settings)', async () => {
    const admin = await newTenantWithAdmin();
    const response = await postCompanyRaw(admin, companyWithSettings(nestedObject(31)));
    expect(response.status).toBe(201);
  });

  it.each([32, 100, 5000])('refuses %i levels of settings (one more than the limit, and far more) with a 400 problem, storing nothing', async (levels) => {
    const admin = await newTenantWithAdmin();
    const response = await postCompanyRaw(admin, companyWithSettings(nestedObject(levels)));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(400, 'bad-request', { detail: 'The request body is nested deeper than 32 levels' }));
  });

  it('refuses deep arrays on any route that takes a body', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('POST', '/suppliers', {
      cookies: admin.cookies,
      rawBody: `${'['.repeat(3000)}${']'.repeat(3000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'bad-request', { detail: 'The request body is nested deeper than 32 levels' }));
  });
});

describe('reserved keys', () => {
  const message = 'is a reserved name (__proto__, constructor and prototype are refused)';

  it.each([
    ['{"__proto__":{"admin":true}}', 'settings.__proto__'],
    ['{"theme":{"constructor":{"prototype":1}}}', 'settings.theme.constructor'],
    ['{"list":[{"ok":1},{"prototype":2}]}', 'settings.list.1.prototype'],
    ['{"\\u005f_proto__":1}', 'settings.__proto__'],
  ])('refuses settings %s naming %s, storing nothing', async (settings, field) => {
    const admin = await newTenantWithAdmin();
    const response = await postCompanyRaw(admin, companyWithSettings(settings));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { detail: `${field}: ${message}`, errors: [{ field, message }] }));
  });

  it('refuses a reserved key at the top of a body too', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('POST', '/inventory/warehouses', {
      cookies: admin.cookies,
      rawBody: '{"name":"Central","constructor":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'constructor', message }] }));
    const warehouses = await call<unknown[]>('GET', '/inventory/warehouses', { cookies: admin.cookies });
    expect(warehouses.body).toEqual([]);
  });

  it('keeps the words themselves as ordinary values', async () => {
    const admin = await newTenantWithAdmin();
    const response = await postCompanyRaw(admin, companyWithSettings('{"mode":"__proto__","names":["constructor","prototype"]}'));
    expect(response.status).toBe(201);
    expect(response.body).toEqual(expect.objectContaining({ settings: { mode: '__proto__', names: ['constructor', 'prototype'] } }));
  });
});

describe('duplicate keys', () => {
  it('refuses a key given twice in one object, at the top or deep in settings', async () => {
    const admin = await newTenantWithAdmin();
    const top = await postCompanyRaw(admin, `{"name":"Loja A","name":"Loja B","document":"${cnpj.generate()}"}`);
    expect(top.status).toBe(400);
    expect(top.body).toEqual(problem(400, 'validation', { errors: [{ field: 'name', message: 'is given more than once' }] }));

    const deep = await postCompanyRaw(admin, companyWithSettings('{"tax":{"rate":1,"rate":2}}'));
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual(problem(400, 'validation', { errors: [{ field: 'settings.tax.rate', message: 'is given more than once' }] }));
  });

  it('allows one key name in two different objects', async () => {
    const admin = await newTenantWithAdmin();
    const response = await postCompanyRaw(admin, companyWithSettings('{"a":{"rate":1},"b":{"rate":2}}'));
    expect(response.status).toBe(201);
  });
});

describe('text that is not JSON', () => {
  it("is still the parser's 400, even when it looks like a duplicate key", async () => {
    const admin = await newTenantWithAdmin();
    const response = await postCompanyRaw(admin, '{"name":"a","name":');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'bad-request', { detail: 'The request body is not valid JSON' }));
  });
});
