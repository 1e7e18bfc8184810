import { randomUUID } from 'node:crypto';
import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../lib/auth/totp';
import { auditEntrySchema, type AuditAction, type AuditEntry, type AuditResourceType, type AuditScope } from '../../lib/audit/model';
import { readAuditPage, type AuditFilter } from '../../lib/audit/repository';
import { routes, writesTable } from '../../lib/routes';
import { promoteOrCreateAdmin } from '../../tools/admin/create-admin';
import {
  allowedOrigin,
  call,
  cookiesFrom,
  invitationTokenFor,
  linkParameter,
  login,
  newTenantWithAdmin,
  outboxFor,
  registerInvitee,
  signInWithSecondFactor,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
  type Account,
  type ApiResponse,
} from './api';

/**
 * The audit trail over HTTP: every route of the manifest that writes produces
 * exactly one entry of the right shape, in the trail it belongs to, in each list a filter
 * reads. The scenarios below are keyed by route; a route added to the manifest whose table
 * actions write (`writesTable`) and no scenario here fails this file.
 */
const PASSWORD = 'correct horse battery';
const USER_AGENT = 'audit-test/1.0 (X11; Linux x86_64)';
const IP = '127.42.0.7';

beforeAll(async () => {
  await useLocalStoreInProcess();
});

type Resource = { type: AuditResourceType; id: string | null };

interface Expected {
  action: AuditAction;
  resource: Resource;
  /** The user who acted (undefined: nobody known, a public request). */
  actor?: { id: string; name: string };
  changes?: AuditEntry['changes'];
}

/** Every entry of a list, newest first. */
async function entriesOf(scope: AuditScope, filter: AuditFilter = {}): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let after: Record<string, string> | undefined;
  do {
    const page = await readAuditPage(scope, { filter, fromSk: '0', toSk: '~', limit: 100, ...(after ? { after } : {}) });
    entries.push(...page.entries);
    after = page.next;
  } while (after);
  return entries;
}

/** The entries of the trail that concern one resource (the platform's trail is shared by every test file). */
const ofResource = (entries: AuditEntry[], resource: Resource) =>
  entries.filter((entry) => entry.resource.type === resource.type && entry.resource.id === resource.id);

/**
 * Make one request in `scope`'s trail and check that it wrote exactly one entry, as
 * expected: in the trail, and in the actor's and the resource's lists (the same entry, once
 * each), with nothing secret in it.
 */
async function expectOneEntry(
  scope: AuditScope,
  request: () => Promise<ApiResponse>,
  status: number,
  expected: (response: ApiResponse) => Expected | Promise<Expected>,
  secrets: string[] = [],
): Promise<AuditEntry> {
  const before = new Set((await entriesOf(scope)).map((entry) => entry.id));
  const response = await request();
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const want = await expected(response);
  const fresh = (await entriesOf(scope)).filter((entry) => !before.has(entry.id));
  // The platform's trail is shared with every other test file running now.
  const mine = scope === 'platform' ? ofResource(fresh, want.resource) : fresh;
  expect(mine.map((entry) => entry.action)).toEqual([want.action]);
  const entry = mine[0] as AuditEntry;

  expect(auditEntrySchema.parse(entry)).toEqual(entry);
  expect(entry).toEqual({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    actor: want.actor ? { type: 'user', id: want.actor.id, name: want.actor.name } : { type: 'anonymous', id: null, name: null },
    action: want.action,
    resource: want.resource,
    requestId: expect.any(String),
    sourceIp: IP,
    userAgent: USER_AGENT,
    changes: want.changes ?? null,
  });
  expect(entry.requestId).not.toBe('');
  expect(Math.abs(Date.parse(entry.occurredAt) - Date.now())).toBeLessThan(60_000);

  // The same entry in the other lists it belongs to, once each.
  if (want.actor) expect((await entriesOf(scope, { actorId: want.actor.id })).filter((other) => other.id === entry.id)).toEqual([entry]);
  if (want.resource.id !== null) expect((await entriesOf(scope, { resourceId: want.resource.id })).filter((other) => other.id === entry.id)).toEqual([entry]);

  const text = JSON.stringify(entry);
  for (const secret of [PASSWORD, ...secrets]) expect(text).not.toContain(secret);
  return entry;
}

/** The id of the session a set of cookies belongs to. */
async function currentSession(cookies: Record<string, string>): Promise<string> {
  const sessions = await call<{ id: string; current: boolean }[]>('GET', '/auth/sessions', { cookies });
  return sessions.body.find((session) => session.current)?.id ?? '';
}

const as = (account: Account, extra: { body?: unknown } = {}) => ({
  cookies: account.cookies,
  ip: IP,
  headers: { 'user-agent': USER_AGENT, origin: allowedOrigin() },
  ...extra,
});
const publicCall = (extra: { body?: unknown; cookies?: Record<string, string> } = {}) => ({ ip: IP, headers: { 'user-agent': USER_AGENT }, ...extra });
const actorOf = (account: Account, name = 'Admin') => ({ id: account.userId, name });
const idOf = (response: ApiResponse) => (response.body as { id: string }).id;

const admin = (): Promise<Account> => newTenantWithAdmin();

/** A platform administrator (made as `npm run create-admin` makes one), signed in with its second factor. */
async function platformRoot(): Promise<Account> {
  const email = uniqueEmail('root');
  const outcome = await promoteOrCreateAdmin({ email, password: PASSWORD, name: 'Root', tenantName: uniqueName('platform'), promote: false }, Date.now());
  const signedIn = await signInWithSecondFactor(email, PASSWORD, outcome.secondFactor.secret);
  expect(signedIn.response.status).toBe(200);
  return {
    tenantId: outcome.tenantId,
    userId: (signedIn.response.body as { user: { id: string } }).user.id,
    email,
    password: PASSWORD,
    cookies: signedIn.cookies,
  };
}

/** Turn a second factor on for an account; its secret and the cookies of the session that goes on. */
async function withSecondFactor(owner: Account): Promise<{ secret: string; cookies: Record<string, string> }> {
  const { secret } = (await call<{ secret: string }>('POST', '/auth/mfa/totp', { cookies: owner.cookies, body: { password: owner.password } })).body;
  const confirmed = await call('POST', '/auth/mfa/totp/confirm', { cookies: owner.cookies, body: { code: codeAt(secret, Date.now()) } });
  expect(confirmed.status).toBe(200);
  return { secret, cookies: cookiesFrom(confirmed) };
}

async function member(owner: Account, name = 'Member'): Promise<Account> {
  const email = uniqueEmail('member');
  const registered = await registerInvitee(owner, email, PASSWORD, name);
  expect(registered.status).toBe(200);
  return {
    tenantId: owner.tenantId,
    userId: (registered.body as { user: { id: string } }).user.id,
    email,
    password: PASSWORD,
    cookies: cookiesFrom(registered),
  };
}

async function company(owner: Account): Promise<string> {
  const created = await call('POST', '/companies', { cookies: owner.cookies, body: { name: 'Loja Centro', document: cnpj.generate() } });
  expect(created.status).toBe(201);
  return idOf(created);
}

async function supplier(owner: Account): Promise<string> {
  const created = await call('POST', '/suppliers', {
    cookies: owner.cookies,
    body: { name: 'Café do Sul', corporateName: 'Café do Sul Ltda', document: cnpj.generate() },
  });
  expect(created.status).toBe(201);
  return idOf(created);
}

/** A supplier that sells a new product (lib/supplier-products). */
async function supplierProduct(owner: Account): Promise<{ supplierId: string; productId: string }> {
  const supplierId = await supplier(owner);
  const { productId } = await stockPlace(owner);
  const linked = await call('POST', `/suppliers/${supplierId}/products`, { cookies: owner.cookies, body: { productId } });
  expect(linked.status).toBe(201);
  return { supplierId, productId };
}

/** A purchase order's body: a new supplier, company, warehouse and product of the owner's tenant. */
async function purchaseOrderBody(owner: Account): Promise<Record<string, unknown>> {
  const supplierId = await supplier(owner);
  const { productId, warehouseId } = await stockPlace(owner);
  const companyId = await company(owner);
  return { supplierId, companyId, warehouseId, items: [{ productId, quantity: 12, unitCost: 8.5 }] };
}

/** A DRAFT purchase order of the owner's tenant. */
async function purchaseOrder(owner: Account): Promise<string> {
  const created = await call('POST', '/purchase-orders', { cookies: owner.cookies, body: await purchaseOrderBody(owner) });
  expect(created.status).toBe(201);
  return idOf(created);
}

async function stockPlace(owner: Account): Promise<{ productId: string; warehouseId: string }> {
  const warehouse = await call('POST', '/inventory/warehouses', { cookies: owner.cookies, body: { name: 'Depósito' } });
  const product = await call('POST', '/inventory/products', { cookies: owner.cookies, body: { sku: `SKU-${uniqueName('p')}`, name: 'Café 500 g' } });
  return { productId: idOf(product), warehouseId: idOf(warehouse) };
}

/** An open count of a new warehouse holding a product (its SKU for a scan). */
async function openCount(owner: Account): Promise<{ countId: string; place: { productId: string; warehouseId: string }; sku: string }> {
  const place = await stockPlace(owner);
  const product = await call<{ sku: string }>('GET', `/inventory/products/${place.productId}`, { cookies: owner.cookies });
  const count = await call('POST', '/inventory/counts', { cookies: owner.cookies, body: { warehouseId: place.warehouseId } });
  expect(count.status).toBe(201);
  return { countId: idOf(count), place, sku: product.body.sku };
}

/** An API key made with the owner's cookie: its id and its text (shown this once). */
async function apiKey(owner: Account, name = 'PDV Loja Centro'): Promise<{ id: string; key: string }> {
  const created = await call<{ id: string; key: string }>('POST', '/api-keys', {
    cookies: owner.cookies,
    body: { name, scopes: { companies: 'write', inventory: 'write' } },
  });
  expect(created.status).toBe(201);
  return { id: created.body.id, key: created.body.key };
}

/** A webhook endpoint registered with the owner's cookie (a loopback receiver: npm start allows it): its id and its secret (shown this once). */
async function webhookEndpoint(owner: Account): Promise<{ id: string; secret: string }> {
  const created = await call<{ id: string; secret: string }>('POST', '/webhook-endpoints', {
    cookies: owner.cookies,
    body: { url: 'http://127.0.0.1:9/hook', events: ['product.created'] },
  });
  expect(created.status).toBe(201);
  return { id: created.body.id, secret: created.body.secret };
}

/** The endpoint's first delivery, once the engine of npm start has made it (a product's event). */
async function firstDelivery(owner: Account, endpointId: string): Promise<string> {
  expect((await call('POST', '/inventory/products', { cookies: owner.cookies, body: { sku: `HOOK-${randomUUID().slice(0, 8)}`, name: 'Hook' } })).status).toBe(
    201,
  );
  const deadline = Date.now() + 5000;
  for (;;) {
    const listed = await call<{ id: string; attempts: unknown[] }[]>('GET', `/webhook-endpoints/${endpointId}/deliveries`, { cookies: owner.cookies });
    const first = listed.body.find((one) => one.attempts.length > 0);
    if (first) return first.id;
    if (Date.now() > deadline) throw new Error('no delivery was made within 5 s');
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

type RouteId = keyof typeof routes;

/** How each writing route is driven, and the entry it must leave. */
const scenarios: Partial<Record<RouteId, () => Promise<unknown>>> = {
  createTenant: () =>
    expectOneEntry(
      'platform',
      () => call('POST', '/tenants', publicCall({ body: { name: uniqueName('tenant'), plan: 'STARTER' } })),
      201,
      (response) => ({ action: 'tenant.created', resource: { type: 'tenant', id: idOf(response) } }),
    ),
  updateTenant: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/tenants/${owner.tenantId}`, as(owner, { body: { brandName: 'Loja da Ana' } })),
      200,
      () => ({
        action: 'tenant.updated',
        resource: { type: 'tenant', id: owner.tenantId },
        actor: actorOf(owner),
        changes: [{ field: 'brandName', before: null, after: 'Loja da Ana' }],
      }),
    );
  },
  closeTenant: async () => {
    const [root, owner] = await Promise.all([platformRoot(), admin()]);
    return expectOneEntry(
      'platform',
      () => call('POST', `/tenants/${owner.tenantId}/close`, as(root)),
      200,
      (response) => ({
        action: 'tenant.closed',
        resource: { type: 'tenant', id: owner.tenantId },
        actor: actorOf(root, 'Root'),
        changes: [
          { field: 'status', before: 'ACTIVE', after: 'CLOSED' },
          { field: 'deletionDueAt', before: null, after: (response.body as { deletionDueAt: string }).deletionDueAt },
        ],
      }),
    );
  },
  reopenTenant: async () => {
    const [root, owner] = await Promise.all([platformRoot(), admin()]);
    const closed = await call<{ deletionDueAt: string }>('POST', `/tenants/${owner.tenantId}/close`, { cookies: root.cookies });
    expect(closed.status).toBe(200);
    return expectOneEntry(
      'platform',
      () => call('POST', `/tenants/${owner.tenantId}/reopen`, as(root)),
      200,
      () => ({
        action: 'tenant.reopened',
        resource: { type: 'tenant', id: owner.tenantId },
        actor: actorOf(root, 'Root'),
        changes: [
          { field: 'status', before: 'CLOSED', after: 'ACTIVE' },
          { field: 'deletionDueAt', before: closed.body.deletionDueAt, after: null },
        ],
      }),
    );
  },
  exportTenant: async () => {
    const [root, owner] = await Promise.all([platformRoot(), admin()]);
    return expectOneEntry(
      'platform',
      () => call('POST', `/tenants/${owner.tenantId}/export`, as(root)),
      201,
      () => ({
        action: 'tenant.exported',
        resource: { type: 'tenant', id: owner.tenantId },
        actor: actorOf(root, 'Root'),
      }),
    );
  },
  register: async () => {
    const owner = await admin();
    const email = uniqueEmail('invitee');
    expect((await call('POST', '/auth/invitations', { cookies: owner.cookies, body: { email } })).status).toBe(201);
    const token = invitationTokenFor(email) ?? '';
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/register', publicCall({ body: { name: 'Bia', email, password: PASSWORD, tenantId: owner.tenantId, invitationToken: token } })),
      200,
      (response) => {
        const userId = (response.body as { user: { id: string } }).user.id;
        return { action: 'invitation.accepted', resource: { type: 'user', id: userId }, actor: { id: userId, name: 'Bia' } };
      },
      [token],
    );
  },
  login: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/login', publicCall({ body: { email: owner.email, password: PASSWORD } })),
      200,
      async (response) => ({
        action: 'auth.login',
        resource: { type: 'session', id: await currentSession(cookiesFrom(response)) },
        actor: actorOf(owner),
      }),
    );
  },
  refresh: async () => {
    const owner = await admin();
    const refreshToken = owner.cookies.refreshToken ?? '';
    const sessionId = await currentSession(owner.cookies);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/refresh', publicCall({ cookies: { refreshToken } })),
      200,
      () => ({ action: 'auth.refresh', resource: { type: 'session', id: sessionId }, actor: actorOf(owner) }),
      [refreshToken],
    );
  },
  logout: async () => {
    const owner = await admin();
    const sessionId = await currentSession(owner.cookies);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/logout', as(owner)),
      200,
      () => ({ action: 'auth.logout', resource: { type: 'session', id: sessionId }, actor: actorOf(owner) }),
      [owner.cookies.accessToken ?? '', owner.cookies.refreshToken ?? ''],
    );
  },
  revokeSession: async () => {
    const owner = await admin();
    await login(owner.email, PASSWORD);
    const sessions = await call<{ id: string; current: boolean }[]>('GET', '/auth/sessions', { cookies: owner.cookies });
    const other = sessions.body.find((session) => !session.current)?.id ?? '';
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/auth/sessions/${other}/revoke`, as(owner)),
      200,
      () => ({
        action: 'session.revoked',
        resource: { type: 'session', id: other },
        actor: actorOf(owner),
      }),
    );
  },
  revokeOtherSessions: async () => {
    const owner = await admin();
    await login(owner.email, PASSWORD);
    await login(owner.email, PASSWORD);
    const entry = await expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/sessions/revoke-others', as(owner)),
      200,
      () => ({
        action: 'session.revoked_others',
        resource: { type: 'user', id: owner.userId },
        actor: actorOf(owner),
      }),
    );
    const left = await call<unknown[]>('GET', '/auth/sessions', { cookies: owner.cookies });
    expect(left.body).toHaveLength(1);
    return entry;
  },
  updateUser: async () => {
    const owner = await admin();
    const someone = await member(owner, 'Caio');
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/users/${someone.userId}`, as(owner, { body: { role: 'ADMIN' } })),
      200,
      () => ({
        action: 'user.role_changed',
        resource: { type: 'user', id: someone.userId },
        actor: actorOf(owner),
        changes: [{ field: 'role', before: 'MEMBER', after: 'ADMIN' }],
      }),
    );
  },
  deleteUser: async () => {
    const owner = await admin();
    const someone = await member(owner, 'Davi');
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/users/${someone.userId}`, as(owner)),
      204,
      () => ({
        action: 'user.removed',
        resource: { type: 'user', id: someone.userId },
        actor: actorOf(owner),
      }),
    );
  },
  anonymizeUser: async () => {
    const owner = await admin();
    const someone = await member(owner, 'Fábio');
    expect((await call('DELETE', `/users/${someone.userId}`, as(owner))).status).toBe(204);
    const entry = await expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/users/${someone.userId}/anonymize`, as(owner)),
      200,
      () => ({
        action: 'user.anonymized',
        resource: { type: 'user', id: someone.userId },
        actor: actorOf(owner),
      }),
      [someone.email, 'Fábio'],
    );
    // The removed user's own entries (their acceptance of the invitation among them) now name the placeholder.
    const theirs = await entriesOf({ tenantId: owner.tenantId }, { actorId: someone.userId });
    expect(theirs.map((their) => their.action)).toContain('invitation.accepted');
    expect(theirs.map((their) => their.actor.name)).toEqual(theirs.map(() => 'Anonymized user'));
    return entry;
  },
  resetUserMfa: async () => {
    const owner = await admin();
    const someone = await member(owner, 'Eva');
    await withSecondFactor(someone);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/users/${someone.userId}/mfa`, as(owner)),
      204,
      () => ({
        action: 'user.mfa_reset',
        resource: { type: 'user', id: someone.userId },
        actor: actorOf(owner),
      }),
    );
  },
  changePassword: async () => {
    const owner = await admin();
    const newPassword = 'another horse battery';
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/change-password', as(owner, { body: { currentPassword: PASSWORD, newPassword } })),
      200,
      () => ({ action: 'auth.password_changed', resource: { type: 'user', id: owner.userId }, actor: actorOf(owner) }),
      [newPassword],
    );
  },
  startTotpEnrolment: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/mfa/totp', as(owner, { body: { password: owner.password } })),
      200,
      () => ({
        action: 'auth.mfa_enrolment_started',
        resource: { type: 'user', id: owner.userId },
        actor: actorOf(owner),
      }),
    );
  },
  confirmTotpEnrolment: async () => {
    const owner = await admin();
    const { secret } = (await call<{ secret: string }>('POST', '/auth/mfa/totp', { cookies: owner.cookies, body: { password: owner.password } })).body;
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/mfa/totp/confirm', as(owner, { body: { code: codeAt(secret, Date.now()) } })),
      200,
      () => ({ action: 'auth.mfa_enabled', resource: { type: 'user', id: owner.userId }, actor: actorOf(owner) }),
      [secret],
    );
  },
  disableTotp: async () => {
    const owner = await admin();
    const { secret, cookies } = await withSecondFactor(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', '/auth/mfa/totp', as({ ...owner, cookies }, { body: { code: codeAt(secret, Date.now() + 30_000) } })),
      200,
      () => ({ action: 'auth.mfa_disabled', resource: { type: 'user', id: owner.userId }, actor: actorOf(owner) }),
      [secret],
    );
  },
  verifySecondFactor: async () => {
    const owner = await admin();
    const { secret } = await withSecondFactor(owner);
    const challenged = await call('POST', '/auth/login', { body: { email: owner.email, password: PASSWORD } });
    const challenge = cookiesFrom(challenged).mfaChallenge ?? '';
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/mfa/verify', publicCall({ cookies: { mfaChallenge: challenge }, body: { code: codeAt(secret, Date.now() + 30_000) } })),
      200,
      async (response) => ({ action: 'auth.login', resource: { type: 'session', id: await currentSession(cookiesFrom(response)) }, actor: actorOf(owner) }),
      [secret, challenge],
    );
  },
  forgotPassword: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/forgot-password', publicCall({ body: { email: owner.email } })),
      200,
      () => ({
        action: 'auth.password_reset_requested',
        resource: { type: 'user', id: owner.userId },
      }),
    );
  },
  resetPassword: async () => {
    const owner = await admin();
    expect((await call('POST', '/auth/forgot-password', { body: { email: owner.email } })).status).toBe(200);
    const mail = outboxFor(owner.email)
      .filter((message) => linkParameter(message, 'token') !== null)
      .at(-1);
    const token = mail ? (linkParameter(mail, 'token') ?? '') : '';
    const newPassword = 'a brand new password';
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/reset-password', publicCall({ body: { token, newPassword } })),
      200,
      () => ({ action: 'auth.password_reset', resource: { type: 'user', id: owner.userId }, actor: actorOf(owner) }),
      [token, newPassword],
    );
  },
  createInvitation: async () => {
    const owner = await admin();
    const email = uniqueEmail('guest');
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/auth/invitations', as(owner, { body: { email } })),
      201,
      (response) => ({
        action: 'invitation.created',
        resource: { type: 'invitation', id: idOf(response) },
        actor: actorOf(owner),
      }),
    );
  },
  withdrawInvitation: async () => {
    const owner = await admin();
    const invited = await call('POST', '/auth/invitations', { cookies: owner.cookies, body: { email: uniqueEmail('guest') } });
    const invitationId = idOf(invited);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/auth/invitations/${invitationId}`, as(owner)),
      204,
      () => ({
        action: 'invitation.withdrawn',
        resource: { type: 'invitation', id: invitationId },
        actor: actorOf(owner),
      }),
    );
  },
  createCompany: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/companies', as(owner, { body: { name: 'Loja Norte', document: cnpj.generate() } })),
      201,
      (response) => ({
        action: 'company.created',
        resource: { type: 'company', id: idOf(response) },
        actor: actorOf(owner),
      }),
    );
  },
  updateCompany: async () => {
    const owner = await admin();
    const companyId = await company(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/companies/${companyId}`, as(owner, { body: { name: 'Loja Centro 2' } })),
      200,
      () => ({
        action: 'company.updated',
        resource: { type: 'company', id: companyId },
        actor: actorOf(owner),
        changes: [{ field: 'name', before: 'Loja Centro', after: 'Loja Centro 2' }],
      }),
    );
  },
  updateCompanyStatus: async () => {
    const owner = await admin();
    const companyId = await company(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/companies/${companyId}/status`, as(owner, { body: { status: 'DISABLED' } })),
      200,
      () => ({
        action: 'company.status_changed',
        resource: { type: 'company', id: companyId },
        actor: actorOf(owner),
        changes: [{ field: 'status', before: 'ACTIVE', after: 'DISABLED' }],
      }),
    );
  },
  createSupplier: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/suppliers', as(owner, { body: { name: 'Fornecedor Um', corporateName: 'Fornecedor Um Ltda', document: cnpj.generate() } })),
      201,
      (response) => ({ action: 'supplier.created', resource: { type: 'supplier', id: idOf(response) }, actor: actorOf(owner) }),
    );
  },
  updateSupplier: async () => {
    const owner = await admin();
    const supplierId = await supplier(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/suppliers/${supplierId}`, as(owner, { body: { email: 'vendas@cafe.example', active: false } })),
      200,
      () => ({
        action: 'supplier.updated',
        resource: { type: 'supplier', id: supplierId },
        actor: actorOf(owner),
        changes: [
          { field: 'email', before: null, after: 'vendas@cafe.example' },
          { field: 'active', before: true, after: false },
        ],
      }),
    );
  },
  deleteSupplier: async () => {
    const owner = await admin();
    const supplierId = await supplier(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/suppliers/${supplierId}`, as(owner)),
      204,
      () => ({
        action: 'supplier.deleted',
        resource: { type: 'supplier', id: supplierId },
        actor: actorOf(owner),
      }),
    );
  },
  createSupplierProduct: async () => {
    const owner = await admin();
    const supplierId = await supplier(owner);
    const { productId } = await stockPlace(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/suppliers/${supplierId}/products`, as(owner, { body: { productId, unitsPerPack: 12 } })),
      201,
      () => ({ action: 'supplier_product.created', resource: { type: 'supplier_product', id: `${supplierId}:${productId}` }, actor: actorOf(owner) }),
    );
  },
  updateSupplierProduct: async () => {
    const owner = await admin();
    const { supplierId, productId } = await supplierProduct(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/suppliers/${supplierId}/products/${productId}`, as(owner, { body: { leadTimeDays: 10, lastCost: 2.5 } })),
      200,
      () => ({
        action: 'supplier_product.updated',
        resource: { type: 'supplier_product', id: `${supplierId}:${productId}` },
        actor: actorOf(owner),
        changes: [
          { field: 'lastCost', before: null, after: 2.5 },
          { field: 'leadTimeDays', before: 7, after: 10 },
        ],
      }),
    );
  },
  deleteSupplierProduct: async () => {
    const owner = await admin();
    const { supplierId, productId } = await supplierProduct(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/suppliers/${supplierId}/products/${productId}`, as(owner)),
      204,
      () => ({ action: 'supplier_product.deleted', resource: { type: 'supplier_product', id: `${supplierId}:${productId}` }, actor: actorOf(owner) }),
    );
  },
  setReorderSettings: async () => {
    const owner = await admin();
    const { productId } = await stockPlace(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PUT', `/inventory/products/${productId}/reorder`, as(owner, { body: { reorderPoint: 24 } })),
      200,
      (response) => ({
        action: 'product.reorder_set',
        resource: { type: 'product', id: productId },
        actor: actorOf(owner),
        changes: [{ field: 'reorder', before: null, after: response.body }],
      }),
    );
  },
  createPurchaseOrder: async () => {
    const owner = await admin();
    const order = await purchaseOrderBody(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/purchase-orders', as(owner, { body: order })),
      201,
      (response) => ({ action: 'purchase_order.created', resource: { type: 'purchase_order', id: idOf(response) }, actor: actorOf(owner) }),
    );
  },
  updatePurchaseOrder: async () => {
    const owner = await admin();
    const orderId = await purchaseOrder(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/purchase-orders/${orderId}`, as(owner, { body: { expectedAt: '2026-12-10' } })),
      200,
      () => ({
        action: 'purchase_order.updated',
        resource: { type: 'purchase_order', id: orderId },
        actor: actorOf(owner),
        changes: [{ field: 'expectedAt', before: null, after: '2026-12-10' }],
      }),
    );
  },
  sendPurchaseOrder: async () => {
    const owner = await admin();
    const orderId = await purchaseOrder(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/purchase-orders/${orderId}/send`, as(owner, { body: { to: 'compras@fornecedor.example' } })),
      200,
      () => ({
        action: 'purchase_order.sent',
        resource: { type: 'purchase_order', id: orderId },
        actor: actorOf(owner),
        changes: [{ field: 'status', before: 'DRAFT', after: 'SENT' }],
      }),
    );
  },
  cancelPurchaseOrder: async () => {
    const owner = await admin();
    const orderId = await purchaseOrder(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/purchase-orders/${orderId}/cancel`, as(owner)),
      200,
      () => ({
        action: 'purchase_order.cancelled',
        resource: { type: 'purchase_order', id: orderId },
        actor: actorOf(owner),
        changes: [{ field: 'status', before: 'DRAFT', after: 'CANCELLED' }],
      }),
    );
  },
  createWarehouse: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/inventory/warehouses', as(owner, { body: { name: 'Depósito Sul' } })),
      201,
      (response) => ({
        action: 'warehouse.created',
        resource: { type: 'warehouse', id: idOf(response) },
        actor: actorOf(owner),
      }),
    );
  },
  createProduct: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/inventory/products', as(owner, { body: { sku: 'CAFE-500', name: 'Café 500 g' } })),
      201,
      (response) => ({
        action: 'product.created',
        resource: { type: 'product', id: idOf(response) },
        actor: actorOf(owner),
      }),
    );
  },
  updateProduct: async () => {
    const owner = await admin();
    const productId = idOf(await call('POST', '/inventory/products', as(owner, { body: { sku: `SKU-${uniqueName('p')}`, name: 'Café 500 g' } })));
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/inventory/products/${productId}`, as(owner, { body: { name: 'Café 500 g extraforte', salePrice: 21.9 } })),
      200,
      () => ({
        action: 'product.updated',
        resource: { type: 'product', id: productId },
        actor: actorOf(owner),
        changes: [
          { field: 'name', before: 'Café 500 g', after: 'Café 500 g extraforte' },
          { field: 'salePrice', before: null, after: 21.9 },
        ],
      }),
    );
  },
  deleteProduct: async () => {
    const owner = await admin();
    const productId = idOf(await call('POST', '/inventory/products', as(owner, { body: { sku: `SKU-${uniqueName('p')}`, name: 'Por engano' } })));
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/inventory/products/${productId}`, as(owner)),
      204,
      () => ({
        action: 'product.deleted',
        resource: { type: 'product', id: productId },
        actor: actorOf(owner),
      }),
    );
  },
  createCategory: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/inventory/categories', as(owner, { body: { name: 'Mercearia' } })),
      201,
      (response) => ({
        action: 'category.created',
        resource: { type: 'category', id: idOf(response) },
        actor: actorOf(owner),
      }),
    );
  },
  updateCategory: async () => {
    const owner = await admin();
    const categoryId = idOf(await call('POST', '/inventory/categories', as(owner, { body: { name: 'Mercearia' } })));
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/inventory/categories/${categoryId}`, as(owner, { body: { name: 'Mercearia seca' } })),
      200,
      () => ({
        action: 'category.updated',
        resource: { type: 'category', id: categoryId },
        actor: actorOf(owner),
        changes: [{ field: 'name', before: 'Mercearia', after: 'Mercearia seca' }],
      }),
    );
  },
  deleteCategory: async () => {
    const owner = await admin();
    const categoryId = idOf(await call('POST', '/inventory/categories', as(owner, { body: { name: 'Por engano' } })));
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/inventory/categories/${categoryId}`, as(owner)),
      204,
      () => ({
        action: 'category.deleted',
        resource: { type: 'category', id: categoryId },
        actor: actorOf(owner),
      }),
    );
  },
  createTransfer: async () => {
    const owner = await admin();
    const place = await stockPlace(owner);
    const other = idOf(await call('POST', '/inventory/warehouses', as(owner, { body: { name: 'Loja' } })));
    expect((await call('POST', '/inventory/movements', as(owner, { body: { ...place, type: 'IN', quantity: 10, unitCost: 3.5 } }))).status).toBe(201);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () =>
        call(
          'POST',
          '/inventory/transfers',
          as(owner, { body: { productId: place.productId, fromWarehouseId: place.warehouseId, toWarehouseId: other, quantity: 4 } }),
        ),
      201,
      (response) => ({
        action: 'transfer.created',
        resource: { type: 'transfer', id: idOf(response) },
        actor: actorOf(owner),
      }),
    );
  },
  createCount: async () => {
    const owner = await admin();
    const place = await stockPlace(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/inventory/counts', as(owner, { body: { warehouseId: place.warehouseId } })),
      201,
      (response) => ({ action: 'count.created', resource: { type: 'count', id: idOf(response) }, actor: actorOf(owner) }),
    );
  },
  setCountLine: async () => {
    const owner = await admin();
    const { countId, place } = await openCount(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PUT', `/inventory/counts/${countId}/lines/${place.productId}`, as(owner, { body: { counted: 3 } })),
      200,
      () => ({ action: 'count.line_counted', resource: { type: 'count', id: countId }, actor: actorOf(owner) }),
    );
  },
  scanCount: async () => {
    const owner = await admin();
    const { countId, sku } = await openCount(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/inventory/counts/${countId}/scans`, as(owner, { body: { sku } })),
      200,
      () => ({ action: 'count.line_counted', resource: { type: 'count', id: countId }, actor: actorOf(owner) }),
    );
  },
  closeCount: async () => {
    const owner = await admin();
    const { countId, place } = await openCount(owner);
    expect((await call('PUT', `/inventory/counts/${countId}/lines/${place.productId}`, as(owner, { body: { counted: 3 } }))).status).toBe(200);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/inventory/counts/${countId}/close`, as(owner, { body: { uncounted: 'ignore' } })),
      200,
      () => ({ action: 'count.closed', resource: { type: 'count', id: countId }, actor: actorOf(owner) }),
    );
  },
  cancelCount: async () => {
    const owner = await admin();
    const { countId } = await openCount(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/inventory/counts/${countId}/cancel`, as(owner)),
      200,
      () => ({ action: 'count.cancelled', resource: { type: 'count', id: countId }, actor: actorOf(owner) }),
    );
  },
  createMovement: async () => {
    const owner = await admin();
    const place = await stockPlace(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/inventory/movements', as(owner, { body: { ...place, type: 'IN', quantity: 10, unitCost: 3.5 } })),
      201,
      (response) => ({
        action: 'movement.created',
        resource: { type: 'movement', id: idOf(response) },
        actor: actorOf(owner),
      }),
    );
  },
  createApiKey: async () => {
    const owner = await admin();
    let key = '';
    const entry = await expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/api-keys', as(owner, { body: { name: 'PDV Loja Norte', scopes: { inventory: 'write', dashboards: 'read' } } })),
      201,
      (response) => {
        key = (response.body as { key: string }).key;
        return { action: 'api_key.created', resource: { type: 'api_key', id: idOf(response) }, actor: actorOf(owner) };
      },
    );
    // The key's text is answered once and kept nowhere, the trail included.
    expect(key).not.toBe('');
    expect(JSON.stringify(entry)).not.toContain(key);
    return entry;
  },
  rollApiKey: async () => {
    const owner = await admin();
    const { id, key } = await apiKey(owner);
    let rolled = '';
    const entry = await expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/api-keys/${id}/roll`, as(owner, { body: { expiresInHours: 24 } })),
      200,
      (response) => {
        rolled = (response.body as { key: string }).key;
        return { action: 'api_key.rolled', resource: { type: 'api_key', id }, actor: actorOf(owner) };
      },
      [key],
    );
    expect(rolled).not.toBe('');
    expect(JSON.stringify(entry)).not.toContain(rolled);
    return entry;
  },
  deleteApiKey: async () => {
    const owner = await admin();
    const { id, key } = await apiKey(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/api-keys/${id}`, as(owner)),
      204,
      () => ({
        action: 'api_key.revoked',
        resource: { type: 'api_key', id },
        actor: actorOf(owner),
      }),
      [key],
    );
  },
  createWebhookEndpoint: async () => {
    const owner = await admin();
    let secret = '';
    const entry = await expectOneEntry(
      { tenantId: owner.tenantId },
      () =>
        call(
          'POST',
          '/webhook-endpoints',
          as(owner, { body: { url: 'http://127.0.0.1:9/hook', events: ['product.created', 'supplier.created'], description: 'ERP' } }),
        ),
      201,
      (response) => {
        secret = (response.body as { secret: string }).secret;
        return { action: 'webhook_endpoint.created', resource: { type: 'webhook_endpoint', id: idOf(response) }, actor: actorOf(owner) };
      },
    );
    // The signing secret is answered once and kept out of the trail.
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify(entry)).not.toContain(secret);
    return entry;
  },
  updateWebhookEndpoint: async () => {
    const owner = await admin();
    const { id, secret } = await webhookEndpoint(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('PATCH', `/webhook-endpoints/${id}`, as(owner, { body: { events: ['supplier.created'], enabled: false } })),
      200,
      () => ({
        action: 'webhook_endpoint.updated',
        resource: { type: 'webhook_endpoint', id },
        actor: actorOf(owner),
        changes: [
          { field: 'events', before: ['product.created'], after: ['supplier.created'] },
          { field: 'enabled', before: true, after: false },
          { field: 'disabledReason', before: null, after: 'manual' },
        ],
      }),
      [secret],
    );
  },
  deleteWebhookEndpoint: async () => {
    const owner = await admin();
    const { id, secret } = await webhookEndpoint(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('DELETE', `/webhook-endpoints/${id}`, as(owner)),
      204,
      () => ({
        action: 'webhook_endpoint.deleted',
        resource: { type: 'webhook_endpoint', id },
        actor: actorOf(owner),
      }),
      [secret],
    );
  },
  rotateWebhookSecret: async () => {
    const owner = await admin();
    const { id, secret } = await webhookEndpoint(owner);
    let rotated = '';
    const entry = await expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/webhook-endpoints/${id}/rotate-secret`, as(owner)),
      200,
      (response) => {
        rotated = (response.body as { secret: string }).secret;
        return { action: 'webhook_endpoint.secret_rotated', resource: { type: 'webhook_endpoint', id }, actor: actorOf(owner) };
      },
      [secret],
    );
    expect(rotated).toMatch(/^whsec_/);
    expect(JSON.stringify(entry)).not.toContain(rotated);
    return entry;
  },
  testWebhookEndpoint: async () => {
    const owner = await admin();
    const { id, secret } = await webhookEndpoint(owner);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/webhook-endpoints/${id}/test`, as(owner)),
      200,
      () => ({
        action: 'webhook_endpoint.tested',
        resource: { type: 'webhook_endpoint', id },
        actor: actorOf(owner),
      }),
      [secret],
    );
  },
  retryWebhookDelivery: async () => {
    const owner = await admin();
    const { id, secret } = await webhookEndpoint(owner);
    const deliveryId = await firstDelivery(owner, id);
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', `/webhook-deliveries/${deliveryId}/retry`, as(owner)),
      200,
      () => ({
        action: 'webhook_endpoint.delivery_retried',
        resource: { type: 'webhook_endpoint', id },
        actor: actorOf(owner),
      }),
      [secret],
    );
  },
  createImport: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/imports', { ...as(owner), body: { kind: 'products', dryRun: true, fileName: 'produtos.csv', size: 120 } }),
      201,
      (response) => ({
        action: 'import.created',
        resource: { type: 'import', id: (response.body as { id: string }).id },
        actor: actorOf(owner),
      }),
    );
  },
  createExport: async () => {
    const owner = await admin();
    return expectOneEntry(
      { tenantId: owner.tenantId },
      () => call('POST', '/exports', { ...as(owner), body: { kind: 'suppliers' } }),
      201,
      (response) => ({
        action: 'export.created',
        resource: { type: 'export', id: (response.body as { id: string }).id },
        actor: actorOf(owner),
      }),
    );
  },
};

const writeRoutes = (Object.keys(routes) as RouteId[]).filter((id) => writesTable(routes[id].table));

describe('every route that writes records exactly one audit entry', () => {
  it('has a scenario for every writing route of the manifest', () => {
    expect(writeRoutes.filter((id) => scenarios[id] === undefined)).toEqual([]);
  });

  it.each(writeRoutes)('%s', async (id) => {
    const scenario = scenarios[id];
    if (!scenario) throw new Error(`${id} writes (its manifest table actions) but has no audit scenario in this file`);
    const entry = (await scenario()) as AuditEntry;
    // The action is one the manifest says the route records.
    expect((routes[id] as { audits?: readonly string[] }).audits).toContain(entry.action);
  });
});

describe('a request made with an API key', () => {
  it("is recorded with the key as its actor: its id and name, in the trail, the key's list and the resource's, without its text", async () => {
    const owner = await admin();
    const { id, key } = await apiKey(owner, 'ERP da Matriz');
    const scope = { tenantId: owner.tenantId };
    const before = new Set((await entriesOf(scope)).map((entry) => entry.id));

    // A key is for servers: no Origin header (a browser's would be refused), no cookie.
    const response = await call('POST', '/companies', {
      ip: IP,
      headers: { 'user-agent': USER_AGENT, authorization: `Bearer ${key}` },
      body: { name: 'Loja da Integração', document: cnpj.generate() },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const companyId = idOf(response);

    const fresh = (await entriesOf(scope)).filter((entry) => !before.has(entry.id));
    expect(fresh).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        occurredAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        actor: { type: 'api-key', id, name: 'ERP da Matriz' },
        action: 'company.created',
        resource: { type: 'company', id: companyId },
        requestId: expect.any(String),
        sourceIp: IP,
        userAgent: USER_AGENT,
        changes: null,
      },
    ]);
    const entry = fresh[0] as AuditEntry;
    expect(auditEntrySchema.parse(entry)).toEqual(entry);
    // The key's list is under its id, as a user's is under theirs; and the resource's has it too.
    expect((await entriesOf(scope, { actorId: id })).filter((other) => other.id === entry.id)).toEqual([entry]);
    expect((await entriesOf(scope, { resourceId: companyId })).filter((other) => other.id === entry.id)).toEqual([entry]);
    expect(JSON.stringify(entry)).not.toContain(key);
  });
});

describe('failed logins', () => {
  const failures = async (scope: AuditScope) => (await entriesOf(scope, { action: 'auth.login_failed' })).filter((entry) => entry.sourceIp === IP);

  it("are one entry each, in the account's tenant for a known e-mail and the platform's for an unknown one, alike and without the password", async () => {
    const owner = await admin();
    const wrong = 'not the password at all';
    const unknownEmail = uniqueEmail('nobody');
    const platformBefore = new Set((await failures('platform')).map((entry) => entry.id));

    const known = await call('POST', '/auth/login', publicCall({ body: { email: owner.email, password: wrong } }));
    const unknown = await call('POST', '/auth/login', publicCall({ body: { email: unknownEmail, password: wrong } }));
    expect(known.status).toBe(401);
    expect({ ...(unknown.body as object), requestId: null }).toEqual({ ...(known.body as object), requestId: null });

    const anonymousFailure = { type: 'anonymous', id: null, name: null };
    const inTenant = await failures({ tenantId: owner.tenantId });
    expect(inTenant).toEqual([
      expect.objectContaining({
        action: 'auth.login_failed',
        actor: anonymousFailure,
        resource: { type: 'user', id: owner.userId },
        sourceIp: IP,
        userAgent: USER_AGENT,
        changes: null,
      }),
    ]);
    const inPlatform = (await failures('platform')).filter((entry) => !platformBefore.has(entry.id));
    // Other files' failed logins come from other addresses; this one is the only one from IP now.
    expect(inPlatform.filter((entry) => Date.parse(entry.occurredAt) >= Date.parse(inTenant[0]?.occurredAt ?? '') - 1000)).toEqual([
      expect.objectContaining({ action: 'auth.login_failed', actor: anonymousFailure, resource: { type: 'user', id: null } }),
    ]);
    for (const entry of [...inTenant, ...inPlatform]) {
      expect(JSON.stringify(entry)).not.toContain(wrong);
      expect(JSON.stringify(entry)).not.toContain(unknownEmail);
      expect(JSON.stringify(entry)).not.toContain(owner.email);
    }
  });

  it('past the throttle write nothing: the refused attempt is counted by the throttle alone', async () => {
    const owner = await admin();
    const ip = '127.42.0.8';
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      statuses.push(
        (await call('POST', '/auth/login', { ip, headers: { 'user-agent': USER_AGENT }, body: { email: owner.email, password: 'wrong password' } })).status,
      );
    }
    // A burst that crossed a window boundary would reset the count; 5 attempts per window either way.
    const refused = statuses.filter((status) => status === 401).length;
    expect(statuses.filter((status) => status === 429).length).toBe(7 - refused);
    expect(refused).toBeLessThanOrEqual(10);
    const recorded = (await entriesOf({ tenantId: owner.tenantId }, { action: 'auth.login_failed' })).filter((entry) => entry.sourceIp === ip);
    expect(recorded).toHaveLength(refused);
  });
});
