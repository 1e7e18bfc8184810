import { createHash, randomInt } from 'node:crypto';
import { ScanCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAuditPage } from '../../lib/audit/repository';
import { getTenant } from '../../lib/tenants/repository';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { invalidateCoverage, refreshTenantCoverage } from '../../lib/inventory/coverage-repository';
import { addDays, dayOf } from '../../lib/domain/days';
import { INDEXED_COVERAGE_DAYS } from '../../lib/inventory/model';
import type { AuditEntry } from '../../lib/audit/model';
import { codeAt } from '../../lib/auth/totp';
import { config } from '../../lib/config';
import { runTenantJob, STALLED_DELETION_MS, startDueDeletions, type TenantJobDeps, type TenantJobMessage } from '../../lib/tenant-jobs/engine';
import { tenantJobFilesAt } from '../../lib/tenant-jobs/files';
import { startTenantExport } from '../../lib/tenants/export';
import { promoteOrCreateAdmin } from '../../tools/admin/create-admin';
import { testPrincipal } from '../support/principal';
import {
  apiUrl,
  call,
  cookiesFrom,
  login,
  newTenantWithAdmin,
  problem,
  registerInvitee,
  signInWithSecondFactor,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
  type Account,
} from './api';

/**
 * Closing a tenant (docs/api.md, "Closing a tenant"): a close refuses its sessions, API keys
 * and logins at once and a reopen undoes it; the deletion, run in process with a clock past
 * the grace period, leaves no item of the tenant in the table (a full Scan) and every item of
 * another tenant as it was, with the counts in the platform's trail; an export holds every item
 * of the tenant but its secrets, its manifest's counts and SHA-256s true.
 */

beforeAll(() => useLocalStoreInProcess());

const PASSWORD = 'correct horse battery';
const DAY_MS = 24 * 60 * 60 * 1000;
const SCAN = { segments: 4, pages: 8 } as const;

/** A platform administrator (made as `npm run create-admin` makes one), signed in with its second factor. */
async function platformAdmin(): Promise<Account & { principal: ReturnType<typeof testPrincipal> }> {
  const email = uniqueEmail('root');
  const outcome = await promoteOrCreateAdmin({ email, password: PASSWORD, name: 'Root', tenantName: uniqueName('platform'), promote: false }, Date.now());
  const signedIn = await signInWithSecondFactor(email, PASSWORD, outcome.secondFactor.secret);
  expect(signedIn.response.status).toBe(200);
  const userId = (signedIn.response.body as { user: { id: string } }).user.id;
  return {
    tenantId: outcome.tenantId,
    userId,
    email,
    password: PASSWORD,
    cookies: signedIn.cookies,
    principal: testPrincipal({ tenantId: outcome.tenantId, userId, role: 'ADMIN', name: 'Root', platformAdmin: true }),
  };
}

interface Populated {
  admin: Account;
  member: Account & { totpSecret: string };
  apiKey: string;
  webhookSecret: string;
  invitedEmail: string;
  companyDocument: string;
  name: string;
}

/**
 * A tenant with something of every kind: an administrator, a member with a second factor (and a
 * login waiting for its code), an API key, a webhook endpoint, a pending invitation, a company,
 * suppliers, products with movements and their coverage, a password reset asked, an import job.
 */
async function populatedTenant(): Promise<Populated> {
  const admin = await newTenantWithAdmin();
  const name = String((await getTenant(admin.tenantId))?.name);
  const as = { cookies: admin.cookies };
  const memberEmail = uniqueEmail('member');
  const registered = await registerInvitee(admin, memberEmail, PASSWORD, 'Member');
  expect(registered.status).toBe(200);
  const memberCookies = cookiesFrom(registered);
  const started = await call<{ secret: string }>('POST', '/auth/mfa/totp', { cookies: memberCookies, body: { password: PASSWORD } });
  expect(started.status).toBe(200);
  const confirmed = await call('POST', '/auth/mfa/totp/confirm', { cookies: memberCookies, body: { code: codeAt(started.body.secret, Date.now()) } });
  expect(confirmed.status).toBe(200);
  const member = {
    tenantId: admin.tenantId,
    userId: (registered.body as { user: { id: string } }).user.id,
    email: memberEmail,
    password: PASSWORD,
    cookies: cookiesFrom(confirmed),
    totpSecret: started.body.secret,
  };
  // A login waiting for its second factor: a challenge item of the tenant's.
  expect((await login(memberEmail, PASSWORD)).response.body).toEqual({ mfaRequired: true });

  const key = await call<{ key: string }>('POST', '/api-keys', { ...as, body: { name: 'PDV', scopes: { inventory: 'write', dashboards: 'read' } } });
  expect(key.status).toBe(201);
  // An event nothing here publishes: no delivery runs while the test does.
  const endpoint = await call<{ secret: string }>('POST', '/webhook-endpoints', {
    ...as,
    body: { url: `http://127.0.0.1:${randomInt(20_000, 60_000)}/hook`, events: ['supplier.deleted'] },
  });
  expect(endpoint.status).toBe(201);
  const invitedEmail = uniqueEmail('invited');
  expect((await call('POST', '/auth/invitations', { ...as, body: { email: invitedEmail } })).status).toBe(201);
  const companyDocument = cnpj.generate();
  expect((await call('POST', '/companies', { ...as, body: { name: 'Loja Centro', document: companyDocument } })).status).toBe(201);
  for (const supplier of ['Café do Sul', 'Laticínios Serra']) {
    expect((await call('POST', '/suppliers', { ...as, body: { name: supplier, corporateName: `${supplier} Ltda`, document: cnpj.generate() } })).status).toBe(
      201,
    );
  }
  const warehouse = await call<{ id: string }>('POST', '/inventory/warehouses', { ...as, body: { name: 'Depósito' } });
  expect(warehouse.status).toBe(201);
  for (const sku of ['CAFE-500G', 'LEITE-1L']) {
    const product = await call<{ id: string }>('POST', '/inventory/products', { ...as, body: { sku, name: sku } });
    expect(product.status).toBe(201);
    const movement = { productId: product.body.id, warehouseId: warehouse.body.id };
    expect((await call('POST', '/inventory/movements', { ...as, body: { ...movement, type: 'IN', quantity: 24, unitCost: 18.9 } })).status).toBe(201);
    expect((await call('POST', '/inventory/movements', { ...as, body: { ...movement, type: 'SALE', quantity: 2 } })).status).toBe(201);
  }
  expect((await call('GET', '/inventory/dashboard/coverage?days=30', as)).status).toBe(200);
  expect((await call('POST', '/auth/forgot-password', { body: { email: admin.email } })).status).toBe(200);
  expect((await call('POST', '/imports', { ...as, body: { kind: 'products', dryRun: true, fileName: 'produtos.csv', size: 120 } })).status).toBe(201);
  return { admin, member, apiKey: key.body.key, webhookSecret: endpoint.body.secret, invitedEmail, companyDocument, name };
}

/** Every item of the table (the shared store: assertions keep to this file's tenants). */
async function scanAll(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  await Promise.all(
    Array.from({ length: 4 }, async (_, segment) => {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await db().send(
          new ScanCommand({ TableName: tableName(), Segment: segment, TotalSegments: 4, ExclusiveStartKey: startKey, ConsistentRead: true }),
        );
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }),
  );
  return items;
}

const mentions = (item: Record<string, unknown>, needles: string[]) => {
  const text = JSON.stringify(item, (_key, value: unknown) =>
    value instanceof Set ? [...(value as Set<unknown>)] : value instanceof Uint8Array ? '<binary>' : value,
  );
  return needles.some((needle) => text.includes(needle));
};
const inPlatformTrail = (item: Record<string, unknown>) => String(item.pk).startsWith('PLATFORM#AUDIT');
const byKey = (a: Record<string, unknown>, b: Record<string, unknown>) => `${String(a.pk)}|${String(a.sk)}`.localeCompare(`${String(b.pk)}|${String(b.sk)}`);

/** The platform trail's entries about one tenant, oldest first. */
async function platformEntriesOf(tenantId: string): Promise<AuditEntry[]> {
  const page = await readAuditPage('platform', { filter: { resourceId: tenantId }, fromSk: '0', toSk: '~', limit: 100 });
  return [...page.entries].reverse();
}

/** Every step of the jobs `send` was given, run in process to their end. */
async function runAll(messages: TenantJobMessage[], deps: TenantJobDeps): Promise<void> {
  for (const message of messages) await runTenantJob(message, deps);
}

/** The jobs' dependencies on npm start's files, with a fake clock from `nowMs` that moves a millisecond a reading when `ticking` (entries in order). */
const deps = (nowMs: number, ticking = true): TenantJobDeps => {
  const { IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  let ticks = 0;
  return {
    now: () => nowMs + (ticking ? ticks++ : 0),
    files: tenantJobFilesAt({ folder: String(IMPORT_UPLOAD_DIR), secret: String(IMPORT_UPLOAD_SECRET) }),
    ...SCAN,
  };
};

const closure = (tenantId: string, name: string, status: string, closedAt: unknown, deletionDueAt: unknown) => ({
  id: tenantId,
  name,
  status,
  closedAt,
  deletionDueAt,
});

describe('closing, reopening and deleting a tenant', () => {
  it('refuses its sign-in at once, undoes it on reopen, and deletes every item of it and none of another', { timeout: 240_000 }, async () => {
    const root = await platformAdmin();
    const [closing, other] = await Promise.all([populatedTenant(), populatedTenant()]);
    const { admin, member } = closing;

    // A tenant administrator may not close (even their own tenant).
    expect(await call('POST', `/tenants/${admin.tenantId}/close`, { cookies: admin.cookies })).toMatchObject({ status: 403, body: problem(403, 'forbidden') });
    expect(await call('POST', `/tenants/${crypto.randomUUID()}/close`, { cookies: root.cookies })).toMatchObject({
      status: 404,
      body: problem(404, 'not-found'),
    });
    expect(await call('POST', `/tenants/${root.tenantId}/close`, { cookies: root.cookies })).toMatchObject({
      status: 409,
      body: problem(409, 'conflict', { detail: "The platform's own tenant cannot be closed" }),
    });

    const before = Date.now();
    const closed = await call<Record<string, string>>('POST', `/tenants/${admin.tenantId}/close`, { cookies: root.cookies });
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual(closure(admin.tenantId, closing.name, 'CLOSED', expect.any(String), expect.any(String)));
    const closedAtMs = Date.parse(String(closed.body.closedAt));
    expect(closedAtMs).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(String(closed.body.deletionDueAt)) - closedAtMs).toBe(30 * DAY_MS);

    // Platform administrators read it closed, with its deletion date; an active tenant's view has neither.
    const read = await call<Record<string, unknown>>('GET', `/tenants/${admin.tenantId}`, { cookies: root.cookies });
    expect(read).toMatchObject({ status: 200, body: { id: admin.tenantId, name: closing.name, status: 'CLOSED', deletionDueAt: closed.body.deletionDueAt } });
    const active = await call<Record<string, unknown>>('GET', `/tenants/${other.admin.tenantId}`, { cookies: root.cookies });
    expect(Object.keys(active.body).filter((field) => field === 'status' || field === 'deletionDueAt')).toEqual([]);

    // At once: the sessions, the API key and the logins of the tenant are refused; the other tenant's are not.
    expect(await call('GET', '/auth/me', { cookies: admin.cookies })).toMatchObject({ status: 401, body: problem(401, 'unauthorized') });
    expect(await call('GET', '/auth/me', { cookies: member.cookies })).toMatchObject({ status: 401, body: problem(401, 'unauthorized') });
    expect(await call('GET', '/inventory/warehouses', { headers: { authorization: `Bearer ${closing.apiKey}` } })).toMatchObject({
      status: 401,
      body: problem(401, 'unauthorized'),
    });
    expect((await login(admin.email, PASSWORD)).response).toMatchObject({ status: 401, body: problem(401, 'unauthorized') });
    expect((await call('GET', '/auth/me', { cookies: other.admin.cookies })).status).toBe(200);
    expect((await call('GET', '/inventory/warehouses', { headers: { authorization: `Bearer ${other.apiKey}` } })).status).toBe(200);

    // Twice is a conflict; a reopen undoes it and sign-in works again.
    expect(await call('POST', `/tenants/${admin.tenantId}/close`, { cookies: root.cookies })).toMatchObject({
      status: 409,
      body: problem(409, 'conflict', { detail: 'The tenant is already closed' }),
    });
    // Its own administrator cannot even sign in; another tenant's is not a platform administrator.
    expect(await call('POST', `/tenants/${admin.tenantId}/reopen`, { cookies: admin.cookies })).toMatchObject({
      status: 401,
      body: problem(401, 'unauthorized'),
    });
    expect(await call('POST', `/tenants/${admin.tenantId}/reopen`, { cookies: other.admin.cookies })).toMatchObject({
      status: 403,
      body: problem(403, 'forbidden'),
    });
    expect(await call('POST', `/tenants/${admin.tenantId}/reopen`, { cookies: root.cookies })).toEqual(
      expect.objectContaining({ status: 200, body: closure(admin.tenantId, closing.name, 'ACTIVE', null, null) }),
    );
    expect(await call('POST', `/tenants/${admin.tenantId}/reopen`, { cookies: root.cookies })).toMatchObject({
      status: 409,
      body: problem(409, 'conflict', { detail: 'The tenant is not closed' }),
    });
    const again = await login(admin.email, PASSWORD);
    expect(again.response.status).toBe(200);
    expect((await call('GET', '/auth/me', { cookies: again.cookies })).status).toBe(200);

    // Closed for good this time; its deletion runs with a clock past the grace period.
    const reclosed = await call<Record<string, string>>('POST', `/tenants/${admin.tenantId}/close`, { cookies: root.cookies });
    expect(reclosed.status).toBe(200);
    const afterGrace = Date.parse(String(reclosed.body.deletionDueAt)) + 1000;
    // Not due yet: nothing starts.
    const early: TenantJobMessage[] = [];
    expect(await startDueDeletions(deps(Date.now()), async (message) => void early.push(message), [admin.tenantId])).toEqual({ started: [], resumed: [] });

    const users = [admin.userId, member.userId];
    const needles = [admin.tenantId, ...users, admin.email, member.email, closing.invitedEmail, closing.companyDocument, closing.name];
    const otherNeedles = [other.admin.tenantId];
    const snapshot = await scanAll();
    expect(snapshot.filter((item) => !inPlatformTrail(item) && mentions(item, needles)).length).toBeGreaterThan(40);
    const otherBefore = snapshot.filter((item) => mentions(item, otherNeedles)).sort(byKey);

    const messages: TenantJobMessage[] = [];
    expect(await startDueDeletions(deps(afterGrace), async (message) => void messages.push(message), [admin.tenantId])).toEqual({
      started: [admin.tenantId],
      resumed: [],
    });
    expect(messages).toEqual([{ type: 'tenant-deletion', tenantId: admin.tenantId, step: 0 }]);
    // The next run leaves a deletion under way alone; one stalled for hours gets its step sent again.
    expect(await startDueDeletions(deps(afterGrace + 60_000), async (message) => void messages.push(message), [admin.tenantId])).toEqual({
      started: [],
      resumed: [],
    });
    expect(await startDueDeletions(deps(afterGrace + STALLED_DELETION_MS + 1000), async (message) => void messages.push(message), [admin.tenantId])).toEqual({
      started: [],
      resumed: [admin.tenantId],
    });
    expect(messages).toEqual([0, 0].map((step) => ({ type: 'tenant-deletion', tenantId: admin.tenantId, step })));
    // Once started, it can no longer be reopened, nor exported.
    expect(await call('POST', `/tenants/${admin.tenantId}/reopen`, { cookies: root.cookies })).toMatchObject({
      status: 409,
      body: problem(409, 'conflict', { detail: 'The deletion of the tenant has started: it can no longer be reopened' }),
    });
    expect(await call('POST', `/tenants/${admin.tenantId}/export`, { cookies: root.cookies })).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    // The first runs it to its end; the same step sent again then does nothing.
    await runAll(messages, deps(afterGrace));

    const after = await scanAll();
    const left = after.filter((item) => !inPlatformTrail(item) && mentions(item, needles));
    expect(left).toEqual([]);
    // The other tenant lost and changed nothing. Its coverage markers are left out of the
    // comparison: a run of the daily job meanwhile (npm start's scheduler at 03:15 UTC) moves
    // every tenant's on.
    const notMarker = (item: Record<string, unknown>) => item.type !== 'CoverageMarker';
    expect(after.filter((item) => mentions(item, otherNeedles)).filter(notMarker)).toEqual(expect.arrayContaining(otherBefore.filter(notMarker)));
    expect(await getTenant(admin.tenantId)).toBeUndefined();
    expect((await call('GET', '/auth/me', { cookies: other.admin.cookies })).status).toBe(200);

    const entries = await platformEntriesOf(admin.tenantId);
    const rootActor = { type: 'user', id: root.userId, name: 'Root' };
    const system = { type: 'system', id: null, name: null };
    expect(entries.map((entry) => [entry.action, entry.actor])).toEqual([
      ['tenant.created', { type: 'anonymous', id: null, name: null }],
      ['tenant.closed', rootActor],
      ['tenant.reopened', rootActor],
      ['tenant.closed', rootActor],
      ['tenant.deletion_started', system],
      ['tenant.deleted', system],
    ]);
    const started = entries[4]?.changes ?? [];
    const itemsBefore = started[0]?.after as number;
    expect(started).toEqual([{ field: 'itemsBefore', before: null, after: itemsBefore }]);
    expect(itemsBefore).toBeGreaterThan(40);
    expect(entries[5]?.changes).toEqual([
      { field: 'itemsBefore', before: null, after: itemsBefore },
      { field: 'itemsDeleted', before: null, after: itemsBefore },
      { field: 'itemsAfter', before: null, after: 0 },
    ]);
  });

  it('holds one outcome when a close and a reopen race, and when a reopen races the deletion', { timeout: 120_000 }, async () => {
    const root = await platformAdmin();
    const admin = await newTenantWithAdmin();
    const close = () => call('POST', `/tenants/${admin.tenantId}/close`, { cookies: root.cookies });
    const reopen = () => call('POST', `/tenants/${admin.tenantId}/reopen`, { cookies: root.cookies });

    const twice = await Promise.all([close(), close()]);
    expect(twice.map((response) => response.status).sort()).toEqual([200, 409]);

    const [reopened, closedAgain] = await Promise.all([reopen(), close()]);
    // The reopen committed first (the close then found it ACTIVE or lost), or the close was refused.
    const state = await getTenant(admin.tenantId);
    expect([reopened.status, closedAgain.status]).toContainEqual(200);
    expect(state?.status).toBe(closedAgain.status === 200 ? 'CLOSED' : 'ACTIVE');
    if (state?.status === 'ACTIVE') expect((await close()).status).toBe(200);

    const due = Date.parse(String((await getTenant(admin.tenantId))?.deletionDueAt)) + 1000;
    const messages: TenantJobMessage[] = [];
    const [raced, run] = await Promise.all([reopen(), startDueDeletions(deps(due), async (message) => void messages.push(message), [admin.tenantId])]);
    const after = await getTenant(admin.tenantId);
    if (raced.status === 200) {
      expect(run).toEqual({ started: [], resumed: [] });
      expect(after).toMatchObject({ status: 'ACTIVE' });
      expect(
        (await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenantDeletionDue(new Date(due - 1000).toISOString(), admin.tenantId) }))).Item,
      ).toBeUndefined();
    } else {
      expect(raced.status).toBe(409);
      expect(run).toEqual({ started: [admin.tenantId], resumed: [] });
      expect(after).toMatchObject({ status: 'DELETING' });
      await runAll(messages, deps(due));
      expect(await getTenant(admin.tenantId)).toBeUndefined();
    }
  });
});

describe('the jobs beside a deletion', () => {
  it(
    'writes no coverage marker for a tenant being deleted, nor after it is gone, and runs no export step: the deletion leaves nothing behind',
    { timeout: 120_000 },
    async () => {
      const root = await platformAdmin();
      const admin = await newTenantWithAdmin();
      const as = { cookies: admin.cookies };
      const product = await call<{ id: string }>('POST', '/inventory/products', { ...as, body: { sku: 'CAFE-1KG', name: 'Café 1 kg' } });
      const warehouse = await call<{ id: string }>('POST', '/inventory/warehouses', { ...as, body: { name: 'Loja' } });
      const movement = { productId: product.body.id, warehouseId: warehouse.body.id };
      expect((await call('POST', '/inventory/movements', { ...as, body: { ...movement, type: 'IN', quantity: 10, unitCost: 12.5 } })).status).toBe(201);
      expect((await call('POST', '/inventory/movements', { ...as, body: { ...movement, type: 'SALE', quantity: 1 } })).status).toBe(201);
      const today = dayOf(Date.now(), config().BUSINESS_TIME_ZONE);
      const markerKeys = INDEXED_COVERAGE_DAYS.map((days) => keys.coverageMarker(admin.tenantId, days));
      const markers = () =>
        Promise.all(markerKeys.map(async (Key) => (await db().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }))).Item));

      // Active: the job marks its index current.
      await refreshTenantCoverage(admin.tenantId, today);
      expect((await markers()).map((marker) => marker?.through)).toEqual(INDEXED_COVERAGE_DAYS.map(() => today));

      // An export asked for before the close, whose first step runs only once the deletion started.
      const exportSteps: TenantJobMessage[] = [];
      await startTenantExport(root.principal, admin.tenantId, Date.now(), async (message) => void exportSteps.push(message));
      const closed = await call<{ deletionDueAt: string }>('POST', `/tenants/${admin.tenantId}/close`, { cookies: root.cookies });
      expect(closed.status).toBe(200);
      const due = Date.parse(closed.body.deletionDueAt) + 1000;
      const messages: TenantJobMessage[] = [];
      expect(await startDueDeletions(deps(due), async (message) => void messages.push(message), [admin.tenantId])).toEqual({
        started: [admin.tenantId],
        resumed: [],
      });

      // DELETING: the export stops without writing a file.
      const written: string[] = [];
      const recording = deps(due);
      await runAll(exportSteps, { ...recording, files: { ...recording.files, put: async (key) => void written.push(key) } });
      expect(exportSteps).toHaveLength(1);
      expect(written).toEqual([]);

      // DELETING: neither the roll-up's invalidation nor a refresh writes a marker.
      const asMarked = await markers();
      expect(await invalidateCoverage(admin.tenantId)).toBe(false);
      expect(await refreshTenantCoverage(admin.tenantId, addDays(today, 1))).toEqual({ products: 1, updated: 0 });
      expect(await markers()).toEqual(asMarked);

      // The job running over and over while the deletion runs, and once more after it ended.
      let deleting = true;
      const job = async () => {
        do {
          await invalidateCoverage(admin.tenantId);
          await refreshTenantCoverage(admin.tenantId, today);
        } while (deleting);
      };
      await Promise.all([job(), runAll(messages, deps(due)).finally(() => (deleting = false))]);
      await job();

      expect(await getTenant(admin.tenantId)).toBeUndefined();
      expect(await markers()).toEqual(markerKeys.map(() => undefined));
      expect((await scanAll()).filter((item) => !inPlatformTrail(item) && mentions(item, [admin.tenantId]))).toEqual([]);
    },
  );
});

describe('exporting a tenant', () => {
  it('writes every item but its secrets as NDJSON, the manifest counting the lines and naming their SHA-256s', { timeout: 180_000 }, async () => {
    const root = await platformAdmin();
    const tenant = await populatedTenant();
    const { admin } = tenant;
    expect(await call('POST', `/tenants/${admin.tenantId}/export`, { cookies: admin.cookies })).toMatchObject({ status: 403, body: problem(403, 'forbidden') });

    const messages: TenantJobMessage[] = [];
    const nowMs = Date.now();
    const started = await startTenantExport(root.principal, admin.tenantId, nowMs, async (message) => void messages.push(message));
    expect(started).toEqual({
      id: expect.any(String),
      tenantId: admin.tenantId,
      status: 'running',
      createdAt: new Date(nowMs).toISOString(),
      finishedAt: null,
      items: 0,
      manifestSha256: null,
      failure: null,
      downloads: null,
    });
    expect(messages).toEqual([{ type: 'tenant-export', tenantId: admin.tenantId, exportId: started.id, step: 0 }]);
    // While it runs, a second export of the tenant is refused, naming the first.
    const second = await startTenantExport(root.principal, admin.tenantId, nowMs, async () => undefined).then(
      () => 'started',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(second).toContain(`An export of this tenant is running (${started.id})`);
    await runAll(messages, deps(nowMs, false));
    // Where its Scan stood is kept apart, never on the job's item in the tenant's partition (it names any tenant's items).
    const jobItem = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenantExport(admin.tenantId, started.id) }))).Item ?? {};
    expect(JSON.stringify(jobItem)).not.toContain('cursors');
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.scanPosition(started.id) }))).Item).toMatchObject({ type: 'ScanPosition' });

    const read = await call<{
      status: string;
      items: number;
      manifestSha256: string;
      downloads: { expiresAt: string; manifest: string; checksum: string; files: { name: string; items: number; sha256: string; url: string }[] };
    }>('GET', `/tenants/${admin.tenantId}/exports/${started.id}`, { cookies: root.cookies });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      id: started.id,
      tenantId: admin.tenantId,
      status: 'succeeded',
      createdAt: started.createdAt,
      finishedAt: new Date(nowMs).toISOString(),
      items: expect.any(Number),
      manifestSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      failure: null,
      downloads: {
        expiresAt: expect.any(String),
        manifest: expect.stringContaining('/manifest.json?'),
        checksum: expect.stringContaining('/manifest.json.sha256?'),
        files: expect.any(Array),
      },
    });
    // The signed links of npm start (local/files.ts), as a browser follows them: not the API's routes.
    const download = async (url: string) => {
      const response = await fetch(`${apiUrl()}${url}`);
      expect(response.status).toBe(200);
      return response.text();
    };
    const manifestText = await download(read.body.downloads.manifest);
    expect(createHash('sha256').update(manifestText).digest('hex')).toBe(read.body.manifestSha256);
    expect(await download(read.body.downloads.checksum)).toBe(`${read.body.manifestSha256}  manifest.json\n`);
    const manifest = JSON.parse(manifestText) as {
      tenant: unknown;
      files: { name: string; items: number; sha256: string }[];
      items: number;
      counts: Record<string, number>;
      excluded: { items: { kind: string; items: number }[]; attributes: { names: string[] } };
    };
    expect(manifest.tenant).toEqual({ id: admin.tenantId, name: tenant.name });
    expect(manifest.files).toEqual(read.body.downloads.files.map(({ url: _url, ...file }) => file));

    const lines: Record<string, unknown>[] = [];
    for (const file of read.body.downloads.files) {
      const text = await download(file.url);
      expect(createHash('sha256').update(text).digest('hex')).toBe(file.sha256);
      const fileLines = text.split('\n').filter(Boolean);
      expect(fileLines).toHaveLength(file.items);
      lines.push(...fileLines.map((line) => JSON.parse(line) as Record<string, unknown>));
    }
    expect(lines).toHaveLength(manifest.items);
    expect(read.body.items).toBe(manifest.items);
    const kinds: Record<string, number> = {};
    for (const line of lines) {
      const kind = typeof line.type === 'string' ? line.type : String(String(line.pk).split('#')[0]);
      kinds[kind] = (kinds[kind] ?? 0) + 1;
    }
    expect(manifest.counts).toEqual(kinds);
    expect(lines.find((line) => line.pk === `TENANT#${admin.tenantId}` && line.sk === 'PROFILE')).toMatchObject({ name: tenant.name });
    expect(Object.fromEntries(manifest.excluded.items.map((rule) => [rule.kind, rule.items > 0]))).toMatchObject({
      credentials: true,
      'webhook-secrets': true,
      'mfa-challenges': true,
      'password-resets': true,
    });

    // No secret in any line.
    const get = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key }))).Item ?? {};
    const credentials = await get(keys.credentials(admin.tenantId, tenant.member.userId));
    const apiKeys = lines.filter((line) => String(line.sk).startsWith('APIKEY#'));
    expect(apiKeys).toHaveLength(1);
    const apiKeyItem = await get({ pk: String(apiKeys[0]?.pk), sk: String(apiKeys[0]?.sk) });
    const secrets = [
      String(credentials.passwordHash),
      String(credentials.totpSecret),
      tenant.webhookSecret,
      tenant.webhookSecret.replace(/^whsec_/, ''),
      String(apiKeyItem.secretHash),
      tenant.apiKey,
      tenant.member.totpSecret,
    ];
    for (const secret of secrets) expect(secret.length).toBeGreaterThan(10);
    const exported = lines.map((line) => JSON.stringify(line)).join('\n');
    for (const secret of secrets) expect(exported).not.toContain(secret);
    expect(manifest.excluded.attributes.names).toEqual(expect.arrayContaining(['secretHash', 'refreshJti', 'credentialVersion']));
    expect(lines.filter((line) => Object.keys(line).some((name) => /refreshJti$|^credentialVersion$/i.test(name)))).toEqual([]);
    expect(lines.some((line) => line.type === 'Session')).toBe(true);
    // Nothing of another tenant: every line is the tenant's by its key or its tenantId (the root's own e-mail sentinel, for one, is not there).
    const ownedBy = (line: Record<string, unknown>) =>
      String(line.pk).startsWith(`TENANT#${admin.tenantId}`) || line.tenantId === admin.tenantId || line.sk === admin.tenantId;
    expect(lines.filter((line) => !ownedBy(line))).toEqual([]);
    expect(lines.some((line) => line.pk === keys.email(root.email).pk)).toBe(false);

    // Two at once (the first ended, so the slot is free): one takes the slot, the other is refused
    // naming it. Sent to no queue here, so the winner is still running when the loser reads it:
    // over HTTP the first export of a small tenant can end before a second request arrives.
    const both = await Promise.allSettled([0, 1].map(() => startTenantExport(root.principal, admin.tenantId, Date.now(), async () => undefined)));
    const created = both.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refusals = both.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as Error] : []));
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ tenantId: admin.tenantId, status: 'running', items: 0, downloads: null });
    expect(refusals.map((error) => [error.constructor.name, error.message.includes(String(created[0]?.id))])).toEqual([['Conflict', true]]);
    // And over HTTP while it runs: 409 naming it; another tenant's id is a 404.
    const refused = await call<{ detail: string }>('POST', `/tenants/${admin.tenantId}/export`, { cookies: root.cookies });
    expect(refused).toMatchObject({ status: 409, body: problem(409, 'conflict', { detail: expect.stringContaining(String(created[0]?.id)) as string }) });
    expect(await call('GET', `/tenants/${root.tenantId}/exports/${started.id}`, { cookies: root.cookies })).toMatchObject({
      status: 404,
      body: problem(404, 'not-found'),
    });
  });
});
