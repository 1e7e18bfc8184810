import { describe, expect, it } from 'vitest';
import { allowedOrigin, call, newTenantWithAdmin, problem, uniqueName } from './api';

describe('POST /tenants', () => {
  it('creates a tenant and answers 201 with id, name, brandName and plan', async () => {
    const name = uniqueName('acme');
    const response = await call('POST', '/tenants', {
      body: { name, plan: 'ENTERPRISE', brandName: 'Acme Comércio', document: '11222333000181', adminEmail: 'Owner@Acme.example' },
      headers: { origin: allowedOrigin() },
    });

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('access-control-allow-origin')).toBe(allowedOrigin());
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name, brandName: 'Acme Comércio', plan: 'ENTERPRISE' });
  });

  it('answers brandName null when it was not given', async () => {
    const name = uniqueName('plain');
    const response = await call('POST', '/tenants', { body: { name, plan: 'STARTER' } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(String), name, brandName: null, plan: 'STARTER' });
  });

  it('accepts an alphanumeric CNPJ', async () => {
    const response = await call('POST', '/tenants', { body: { name: uniqueName('alnum'), plan: 'PROFESSIONAL', document: '12abc34501de35' } });
    expect(response.status).toBe(201);
  });

  it.each([
    ['a name that is not a slug', { name: 'Not A Slug', plan: 'STARTER' }, 'name'],
    ['a name shorter than 3 characters', { name: 'ab', plan: 'STARTER' }, 'name'],
    ['a name longer than 63 characters', { name: 'a'.repeat(64), plan: 'STARTER' }, 'name'],
    ['a name with a double dash', { name: 'acme--store', plan: 'STARTER' }, 'name'],
    ['an unknown plan', { name: 'valid-name', plan: 'GOLD' }, 'plan'],
    ['a missing plan', { name: 'valid-name' }, 'plan'],
    ['a document with bad check digits', { name: 'valid-name', plan: 'STARTER', document: '11222333000182' }, 'document'],
    ['a punctuated document', { name: 'valid-name', plan: 'STARTER', document: '11.222.333/0001-81' }, 'document'],
    ['a repeated-digit CPF', { name: 'valid-name', plan: 'STARTER', document: '11111111111' }, 'document'],
    ['an invalid admin e-mail', { name: 'valid-name', plan: 'STARTER', adminEmail: 'not-an-email' }, 'adminEmail'],
    ['an unknown field', { name: 'valid-name', plan: 'STARTER', phone: '+5511987654321' }, 'phone'],
  ])('answers 400 for %s, naming the field', async (_case, body, field) => {
    const response = await call('POST', '/tenants', { body });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) }));
  });

  it('answers 409 when the name is taken, and keeps the first tenant', async () => {
    const name = uniqueName('taken');
    const first = await call('POST', '/tenants', { body: { name, plan: 'STARTER' } });
    const second = await call('POST', '/tenants', { body: { name, plan: 'ENTERPRISE' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.body).toEqual(problem(409, 'conflict'));
  });

  it('gives exactly one 201 for 20 parallel creates of one name', async () => {
    const name = uniqueName('race');
    const responses = await Promise.all(Array.from({ length: 20 }, () => call('POST', '/tenants', { body: { name, plan: 'STARTER' } })));
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
  });
});

describe('GET /tenants', () => {
  it('answers 401 without a session', async () => {
    const response = await call('GET', '/tenants');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(problem(401, 'unauthorized'));
  });

  it('answers 403 to a tenant administrator without the platform administrator profile', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('GET', '/tenants', { cookies: admin.cookies });
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(403, 'forbidden'));
  });
});

describe('GET /tenants/{id}', () => {
  it("answers the tenant's administrator the tenant as PATCH left it, and another tenant's administrator 404", async () => {
    const admin = await newTenantWithAdmin();
    const changed = await call('PATCH', `/tenants/${admin.tenantId}`, { cookies: admin.cookies, body: { brandName: 'Loja Lida', stockLowThresholdDays: 7.5 } });
    expect(changed.status).toBe(200);
    const read = await call('GET', `/tenants/${admin.tenantId}`, { cookies: admin.cookies });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(changed.body);
    expect(read.body).toEqual(expect.objectContaining({ brandName: 'Loja Lida', stockLowThresholdDays: 7.5 }));

    const other = await newTenantWithAdmin();
    const refused = await call('GET', `/tenants/${admin.tenantId}`, { cookies: other.cookies });
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual(problem(404, 'not-found'));
  });
});

describe('PATCH /tenants/{id}', () => {
  it('lets the tenant administrator update the profile and answers the list shape', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('PATCH', `/tenants/${admin.tenantId}`, {
      cookies: admin.cookies,
      body: {
        brandName: 'Loja Nova',
        document: '52998224725',
        address: 'Rua A, 1, São Paulo',
        phone: '+55 (11) 98765-4321',
        logoUrl: 'https://cdn.example.com/logo.png',
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: admin.tenantId,
      name: expect.any(String),
      brandName: 'Loja Nova',
      document: '529.982.247-25',
      address: 'Rua A, 1, São Paulo',
      phone: '+5511987654321',
      logoUrl: 'https://cdn.example.com/logo.png',
      plan: 'STARTER',
      mfaPolicy: 'OFF',
      stockLowThresholdDays: null,
    });
  });

  it('clears a field set to null', async () => {
    const admin = await newTenantWithAdmin();
    await call('PATCH', `/tenants/${admin.tenantId}`, { cookies: admin.cookies, body: { brandName: 'Temporary' } });
    const response = await call('PATCH', `/tenants/${admin.tenantId}`, { cookies: admin.cookies, body: { brandName: null } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expect.objectContaining({ brandName: null }));
  });

  it.each([
    ['an http logo URL', { logoUrl: 'http://cdn.example.com/logo.png' }, 'logoUrl'],
    ['a phone without the plus', { phone: '11987654321' }, 'phone'],
    ['an unknown field', { plan: 'ENTERPRISE' }, 'plan'],
  ])('answers 400 for %s', async (_case, body, field) => {
    const admin = await newTenantWithAdmin();
    const response = await call('PATCH', `/tenants/${admin.tenantId}`, { cookies: admin.cookies, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) }));
  });

  it('answers 400 for an empty body', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('PATCH', `/tenants/${admin.tenantId}`, { cookies: admin.cookies, body: {} });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation'));
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('PATCH', '/tenants/not-a-uuid', { cookies: admin.cookies, body: { brandName: 'X' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'id', message: expect.any(String) }] }));
  });

  it("answers 404 for another tenant's id and leaves it unchanged", async () => {
    const owner = await newTenantWithAdmin();
    const intruder = await newTenantWithAdmin();
    const response = await call('PATCH', `/tenants/${owner.tenantId}`, { cookies: intruder.cookies, body: { brandName: 'Hijacked' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(problem(404, 'not-found'));

    const check = await call('PATCH', `/tenants/${owner.tenantId}`, { cookies: owner.cookies, body: { address: 'unchanged check' } });
    expect(check.body).toEqual(expect.objectContaining({ brandName: null }));
  });
});
