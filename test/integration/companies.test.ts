import { cnpj, cpf } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../lib/audit/model';
import { readAuditPage } from '../../lib/audit/repository';
import {
  call,
  cookiesFrom,
  newTenantWithAdmin,
  problem,
  registerInvitee,
  secondFactorFrom,
  signInWithSecondFactor,
  uniqueEmail,
  useLocalStoreInProcess,
  type Account,
} from './api';

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const ADDRESS = { street: 'Avenida Paulista', number: '1000', city: 'São Paulo', state: 'SP', zipCode: '01310-100' };

const newCnpj = () => cnpj.generate();

// The audit entries of the changes below are read from the store the local API writes.
beforeAll(useLocalStoreInProcess);

/** A company's audit entries in its tenant's trail, newest first. */
const auditOf = async (tenantId: string, companyId: string): Promise<AuditEntry[]> =>
  (await readAuditPage({ tenantId }, { filter: { resourceId: companyId }, fromSk: '0', toSk: '~', limit: 50 })).entries;

async function createCompany(account: Account, body: Record<string, unknown>) {
  return call<Record<string, unknown>>('POST', '/companies', { cookies: account.cookies, body });
}

/** A member (not administrator) of the account's tenant, through an invitation. */
async function memberOf(admin: Account): Promise<Record<string, string>> {
  const registered = await registerInvitee(admin, uniqueEmail('member'), 'member password', 'Member');
  return cookiesFrom(registered);
}

describe('POST /companies', () => {
  it('creates a company with the defaults and answers the full shape', async () => {
    const admin = await newTenantWithAdmin();
    const document = newCnpj();
    const response = await createCompany(admin, { name: '  Loja Centro  ', document });

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      tenantId: admin.tenantId,
      name: 'Loja Centro',
      document,
      status: 'ACTIVE',
      email: null,
      address: null,
      settings: {},
      taxRegime: 'SIMPLES_NACIONAL',
      costMethod: 'WEIGHTED_AVERAGE',
      createdAt: expect.stringMatching(TIMESTAMP),
      updatedAt: expect.stringMatching(TIMESTAMP),
    });
    expect(response.body.createdAt).toBe(response.body.updatedAt);
  });

  it('keeps e-mail, address and free-form settings', async () => {
    const admin = await newTenantWithAdmin();
    const settings = { invoice: { series: 1, nfce: true, notes: null }, tags: ['a', 'b'], deep: { a: { b: { c: { d: 1.5 } } } } };
    const response = await createCompany(admin, {
      name: 'Filial',
      document: cpf.generate(),
      email: 'Fiscal@Loja.example',
      address: { ...ADDRESS, state: 'sp', zipCode: '01310100' },
      settings,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(expect.objectContaining({ email: 'fiscal@loja.example', address: ADDRESS, settings }));
  });

  it('accepts an alphanumeric CNPJ, upper-cased and unformatted', async () => {
    const admin = await newTenantWithAdmin();
    const response = await createCompany(admin, { name: 'Nova', document: '12abc34501de35' });
    expect(response.status).toBe(201);
    expect(response.body.document).toBe('12ABC34501DE35');
  });

  it.each([
    ['status', { status: 'BLOCKED' }, 'status'],
    ['taxRegime', { taxRegime: 'LUCRO_REAL' }, 'taxRegime'],
    ['costMethod', { costMethod: 'REPLACEMENT' }, 'costMethod'],
    ['a bad check digit', { document: '11222333000182' }, 'document'],
    ['a repeated-digit document', { document: '00000000000000' }, 'document'],
    ['a punctuated document', { document: '11.222.333/0001-81' }, 'document'],
    ['a 13-character document', { document: '1122233300018' }, 'document'],
    ['a missing name', { name: undefined }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a bad e-mail', { email: 'x@' }, 'email'],
    ['an address without city', { address: { ...ADDRESS, city: undefined } }, 'address.city'],
    ['an address with an unknown state', { address: { ...ADDRESS, state: 'XX' } }, 'address.state'],
    ['an address with a bad CEP', { address: { ...ADDRESS, zipCode: '1310-100' } }, 'address.zipCode'],
    ['an address with an extra key', { address: { ...ADDRESS, country: 'BR' } }, 'address.country'],
    ['settings that are not an object', { settings: [1, 2] }, 'settings'],
  ])('answers 400 for %s and creates nothing', async (_case, override, field) => {
    const admin = await newTenantWithAdmin();
    const body = { name: 'Valid', document: newCnpj(), ...override };
    const response = await createCompany(admin, body);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) }));
    expect((await call('GET', '/companies', { cookies: admin.cookies })).body).toEqual([]);
  });

  it('answers 409 for a document already used, in any tenant', async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const document = newCnpj();
    expect((await createCompany(a, { name: 'First', document })).status).toBe(201);
    const sameTenant = await createCompany(a, { name: 'Again', document });
    const otherTenant = await createCompany(b, { name: 'Other', document });
    expect(sameTenant.status).toBe(409);
    expect(otherTenant.status).toBe(409);
    expect(otherTenant.body).toEqual(problem(409, 'conflict'));
  });

  it('gives exactly one 201 for 20 parallel creates of one document across tenants', async () => {
    const accounts = await Promise.all(Array.from({ length: 4 }, () => newTenantWithAdmin()));
    const document = newCnpj();
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => createCompany(accounts[index % 4] as Account, { name: `Race ${index}`, document })),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(19);
  });

  it('answers 401 without a session', async () => {
    const response = await call('POST', '/companies', { body: { name: 'X', document: newCnpj() } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(problem(401, 'unauthorized'));
  });
});

describe('GET /companies', () => {
  it("lists only the caller's tenant's companies, oldest first", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const first = await createCompany(a, { name: 'First', document: newCnpj() });
    const second = await createCompany(a, { name: 'Second', document: newCnpj() });
    const third = await createCompany(a, { name: 'Third', document: newCnpj() });
    await createCompany(b, { name: 'Not yours', document: newCnpj() });

    const response = await call<Record<string, unknown>[]>('GET', '/companies', { cookies: a.cookies });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([first.body, second.body, third.body]);
  });

  it('follows DynamoDB pagination to the end (items over 1 MB in all)', async () => {
    const admin = await newTenantWithAdmin();
    // ~60 KB of settings each: 20 companies exceed one 1 MB Query page.
    const settings = { blob: 'x'.repeat(60_000) };
    for (let index = 0; index < 20; index += 1) {
      expect((await createCompany(admin, { name: `Big ${index}`, document: newCnpj(), settings })).status).toBe(201);
    }
    const response = await call<{ name: string }[]>('GET', '/companies', { cookies: admin.cookies });
    expect(response.body.map((company) => company.name)).toEqual(Array.from({ length: 20 }, (_, index) => `Big ${index}`));
  });
});

describe('PATCH /companies/{id}', () => {
  it('updates the given fields; updatedAt moves, createdAt does not', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createCompany(admin, { name: 'Before', document: newCnpj(), email: 'a@b.example' });
    const response = await call<Record<string, unknown>>('PATCH', `/companies/${created.body.id as string}`, {
      cookies: admin.cookies,
      body: { name: 'After', email: null, address: ADDRESS, settings: { theme: 'dark' }, taxRegime: 'LUCRO_REAL', costMethod: 'REPLACEMENT' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...created.body,
      name: 'After',
      email: null,
      address: ADDRESS,
      settings: { theme: 'dark' },
      taxRegime: 'LUCRO_REAL',
      costMethod: 'REPLACEMENT',
      updatedAt: expect.stringMatching(TIMESTAMP),
    });
    expect((response.body.updatedAt as string) > (created.body.updatedAt as string)).toBe(true);
  });

  it.each([
    ['a document change', { document: '52998224725' }, 'document'],
    ['a status change', { status: 'DISABLED' }, 'status'],
    ['an unknown tax regime', { taxRegime: 'MEI' }, 'taxRegime'],
  ])('answers 400 for %s', async (_case, body, field) => {
    const admin = await newTenantWithAdmin();
    const created = await createCompany(admin, { name: 'C', document: newCnpj() });
    const response = await call('PATCH', `/companies/${created.body.id as string}`, { cookies: admin.cookies, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) }));
  });

  it("answers 404 for another tenant's company and 400 for a non-UUID id", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const created = await createCompany(b, { name: 'B', document: newCnpj() });
    const foreign = await call('PATCH', `/companies/${created.body.id as string}`, { cookies: a.cookies, body: { name: 'Hijack' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(problem(404, 'not-found'));
    const badId = await call('PATCH', '/companies/42', { cookies: a.cookies, body: { name: 'X' } });
    expect(badId.status).toBe(400);
    const list = await call<{ name: string }[]>('GET', '/companies', { cookies: b.cookies });
    expect(list.body.map((company) => company.name)).toEqual(['B']);
  });
});

describe('PATCH /companies/{id}/status', () => {
  async function companyOf(admin: Account) {
    const created = await createCompany(admin, { name: 'Lifecycle', document: newCnpj() });
    return created.body.id as string;
  }
  const setStatus = (cookies: Record<string, string>, id: string, status: string) =>
    call<Record<string, unknown>>('PATCH', `/companies/${id}/status`, { cookies, body: { status } });

  it('walks the allowed transitions of a tenant administrator', async () => {
    const admin = await newTenantWithAdmin();
    const id = await companyOf(admin);
    for (const [status, expected] of [
      ['DISABLED', 200],
      ['ACTIVE', 200],
      ['SUSPENDED', 200],
      ['ACTIVE', 200],
      ['BLOCKED', 200],
    ] as const) {
      const response = await setStatus(admin.cookies, id, status);
      expect(response.status, status).toBe(expected);
      expect(response.body, status).toEqual(expect.objectContaining({ id, status }));
    }
  });

  it.each([
    ['ACTIVE', 'ACTIVE'],
    ['DISABLED', 'SUSPENDED'],
    ['DISABLED', 'BLOCKED'],
    ['SUSPENDED', 'DISABLED'],
    ['BLOCKED', 'DISABLED'],
    ['BLOCKED', 'ACTIVE'],
  ])('refuses %s to %s with 409 for a tenant administrator', async (from, to) => {
    const admin = await newTenantWithAdmin();
    const id = await companyOf(admin);
    if (from !== 'ACTIVE') expect((await setStatus(admin.cookies, id, from)).status).toBe(200);
    const response = await setStatus(admin.cookies, id, to);
    expect(response.status).toBe(409);
    expect(response.body).toEqual(problem(409, 'conflict'));
    const list = await call<{ status: string }[]>('GET', '/companies', { cookies: admin.cookies });
    expect(list.body[0]?.status).toBe(from);
  });

  it("lets a platform administrator unblock any tenant's company", async () => {
    const admin = await newTenantWithAdmin();
    const id = await companyOf(admin);
    await setStatus(admin.cookies, id, 'BLOCKED');

    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const { inject } = await import('vitest');
    const email = uniqueEmail('platform');
    const { stdout } = await promisify(execFile)('node_modules/.bin/tsx', ['scripts/create-admin.ts', '--email', email], {
      env: { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1', ADMIN_PASSWORD: 'platform password' },
    });
    // A platform administrator signs in with the second factor create-admin enrolled.
    const platform = await signInWithSecondFactor(email, 'platform password', secondFactorFrom(stdout).secret);
    expect(platform.response.status).toBe(200);
    const response = await setStatus(platform.cookies, id, 'ACTIVE');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(expect.objectContaining({ id, tenantId: admin.tenantId, status: 'ACTIVE' }));
    // The entry is in the company's tenant's trail, naming the platform administrator.
    const [latest] = await auditOf(admin.tenantId, id);
    expect(latest).toEqual(
      expect.objectContaining({
        action: 'company.status_changed',
        actor: expect.objectContaining({ type: 'user' }),
        changes: [{ field: 'status', before: 'BLOCKED', after: 'ACTIVE' }],
      }),
    );
    expect(latest?.actor.id).not.toBe(admin.userId);
  });

  it('answers 403 to a member, 404 to another tenant, 400 for an unknown status', async () => {
    const admin = await newTenantWithAdmin();
    const id = await companyOf(admin);
    const member = await memberOf(admin);
    expect((await setStatus(member, id, 'DISABLED')).status).toBe(403);
    const stranger = await newTenantWithAdmin();
    expect((await setStatus(stranger.cookies, id, 'DISABLED')).status).toBe(404);
    const unknown = await setStatus(admin.cookies, id, 'ARCHIVED');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(problem(400, 'validation', { errors: [{ field: 'status', message: expect.any(String) }] }));
  });
});

describe('the audit entries of company writes', () => {
  it('records the creation, then each change with the fields before and after (settings as JSON text, not updatedAt)', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createCompany(admin, { name: 'Audited', document: newCnpj(), settings: { theme: 'light' } });
    const id = created.body.id as string;
    expect(
      (
        await call('PATCH', `/companies/${id}`, {
          cookies: admin.cookies,
          body: { name: 'Audited Ltda', address: ADDRESS, settings: { theme: 'dark' }, costMethod: 'WEIGHTED_AVERAGE' },
        })
      ).status,
    ).toBe(200);

    const actor = { type: 'user', id: admin.userId, name: 'Admin' };
    expect(await auditOf(admin.tenantId, id)).toEqual([
      expect.objectContaining({
        action: 'company.updated',
        actor,
        resource: { type: 'company', id },
        changes: [
          { field: 'name', before: 'Audited', after: 'Audited Ltda' },
          { field: 'address', before: null, after: ADDRESS },
          { field: 'settings', before: '{"theme":"light"}', after: '{"theme":"dark"}' },
        ],
      }),
      expect.objectContaining({ action: 'company.created', actor, resource: { type: 'company', id }, changes: null }),
    ]);
  });

  it('answers one of parallel changes from the same status, the others the 409 of a stale status, and records the one', async () => {
    const admin = await newTenantWithAdmin();
    const id = String((await createCompany(admin, { name: 'Race', document: newCnpj() })).body.id);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call('PATCH', `/companies/${id}/status`, { cookies: admin.cookies, body: { status: 'DISABLED' } })),
    );

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((each) => each.status !== 200)) expect(answer.body).toEqual(problem(409, 'conflict'));
    const changes = (await auditOf(admin.tenantId, id)).filter((entry) => entry.action === 'company.status_changed').map((entry) => entry.changes);
    expect(changes).toEqual([[{ field: 'status', before: 'ACTIVE', after: 'DISABLED' }]]);
  });

  it('records racing profile changes each from the state it replaced: one chain from the first name to the last', async () => {
    const admin = await newTenantWithAdmin();
    const id = String((await createCompany(admin, { name: 'Name 0', document: newCnpj() })).body.id);
    const names = Array.from({ length: 6 }, (_, index) => `Name ${index + 1}`);
    const answers = await Promise.all([
      ...names.map((name) => call('PATCH', `/companies/${id}`, { cookies: admin.cookies, body: { name } })),
      call('PATCH', `/companies/${id}/status`, { cookies: admin.cookies, body: { status: 'SUSPENDED' } }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(names.map(() => 200).concat(200));

    const renames = (await auditOf(admin.tenantId, id))
      .filter((entry) => entry.action === 'company.updated')
      .map((entry) => entry.changes?.[0] as { before: string; after: string });
    expect(renames).toHaveLength(names.length);
    // Each write replaced the one before it: following before -> after from Name 0 visits every name once.
    const next = new Map(renames.map((change) => [change.before, change.after]));
    expect(next.size).toBe(names.length);
    let name = 'Name 0';
    for (let step = 0; step < names.length; step += 1) name = next.get(name) ?? 'broken chain';
    const company = await call<{ name: string; status: string }>('GET', '/companies', { cookies: admin.cookies });
    expect(company.body).toEqual([expect.objectContaining({ name, status: 'SUSPENDED' })]);
  });
});
