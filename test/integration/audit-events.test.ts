import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { AuditActor, AuditEntry, AuditRecord, AuditScope } from '../../lib/audit/model';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { settings } from '../../lib/settings';
import { auditItems, originExpiresAtEpoch, putLoneEntry } from '../../lib/audit/repository';
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

/**
 * GET /audit-events over HTTP: who may read which trail, the parameters it
 * refuses, and that each filter, the time bounds and the cursor walk answer exactly the
 * entries they name, newest first, never another tenant's. The entries are written straight
 * into the store in a window of March 2024 (as a route's transaction writes them:
 * lib/audit/repository), so what the write routes record at "now" never mixes in.
 */
const PASSWORD = 'correct horse battery';
const WINDOW = 'from=2024-03-01&to=2024-03-31';
const FAR_FUTURE = 4_102_444_800; // 2100-01-01, epoch seconds

interface AuditPage {
  items: AuditEntry[];
  nextCursor: string | null;
}

const user = (account: Account, name: string): AuditActor => ({ type: 'user', id: account.userId, name });
const SYSTEM: AuditActor = { type: 'system', id: null, name: null };
const ANONYMOUS: AuditActor = { type: 'anonymous', id: null, name: null };

function entryOf(
  occurredAt: string,
  actor: AuditActor,
  action: AuditEntry['action'],
  resource: AuditEntry['resource'],
  changes: AuditEntry['changes'] = null,
): AuditEntry {
  return {
    id: randomUUID(),
    occurredAt,
    actor,
    action,
    resource,
    requestId: `it-${randomUUID()}`,
    sourceIp: '127.0.0.1',
    userAgent: 'audit-events.test',
    changes,
  };
}

/**
 * Write an entry as the change it records would (every list it belongs to and its origin, one
 * transaction); answered as the route answers it: an entry older than the access records'
 * period (the window's, of March 2024) without its origin.
 */
async function record(scope: AuditScope, entry: AuditEntry): Promise<AuditEntry> {
  const item: AuditRecord = { scope, entry, expiresAtEpoch: FAR_FUTURE };
  await db().send(new TransactWriteCommand({ TransactItems: auditItems(item) }));
  return answered(entry);
}

/** An entry as answered once its origin's period has passed: the IP address and User-Agent null. */
const answered = (entry: AuditEntry): AuditEntry =>
  originExpiresAtEpoch({ entry, expiresAtEpoch: FAR_FUTURE }) * 1000 <= Date.now() ? { ...entry, sourceIp: null, userAgent: null } : entry;

const audit = (account: Account, query: string) => call<AuditPage>('GET', `/audit-events${query ? `?${query}` : ''}`, { cookies: account.cookies });

/** Every entry a query names, following nextCursor; the pages too. */
async function walk(account: Account, query: string): Promise<{ items: AuditEntry[]; pages: AuditPage[] }> {
  const pages: AuditPage[] = [];
  let cursor: string | null = null;
  do {
    const response = await audit(account, `${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    pages.push(response.body);
    cursor = response.body.nextCursor;
  } while (cursor !== null && pages.length < 50);
  return { items: pages.flatMap((page) => page.items), pages };
}

const ids = (list: AuditEntry[]) => list.map((entry) => entry.id);

let admin: Account;
let memberAccount: Account;
let other: Account;
/** The tenant's entries of the window, oldest first (e1 … e6). */
let entries: AuditEntry[];
/** The nth entry (0-based), which beforeAll wrote. */
const e = (index: number): AuditEntry => entries[index] as AuditEntry;
const supplierId = randomUUID();
const warehouseId = randomUUID();
const companyId = randomUUID();

beforeAll(async () => {
  await useLocalStoreInProcess();
  admin = await newTenantWithAdmin();
  const email = uniqueEmail('member');
  const registered = await registerInvitee(admin, email, PASSWORD, 'Mel Member');
  if (registered.status !== 200) throw new Error(`member registration failed: ${JSON.stringify(registered.body)}`);
  memberAccount = {
    tenantId: admin.tenantId,
    userId: (registered.body as { user: { id: string } }).user.id,
    email,
    password: PASSWORD,
    cookies: cookiesFrom(registered),
  };
  other = await newTenantWithAdmin();

  const tenant = { tenantId: admin.tenantId };
  const ana = user(admin, 'Admin');
  const mel = user(memberAccount, 'Mel Member');
  entries = [
    await record(tenant, entryOf('2024-03-01T10:00:00.000Z', ana, 'supplier.created', { type: 'supplier', id: supplierId })),
    await record(
      tenant,
      entryOf('2024-03-02T10:00:00.000Z', ana, 'supplier.updated', { type: 'supplier', id: supplierId }, [{ field: 'name', before: 'Old', after: 'New' }]),
    ),
    await record(tenant, entryOf('2024-03-03T10:00:00.000Z', mel, 'warehouse.created', { type: 'warehouse', id: warehouseId })),
    await record(tenant, entryOf('2024-03-04T10:00:00.000Z', SYSTEM, 'company.status_changed', { type: 'company', id: companyId })),
    // 23:00 on 2024-03-04 in São Paulo (UTC-3): that business day, though the 5th in UTC.
    await record(tenant, entryOf('2024-03-05T02:00:00.000Z', mel, 'supplier.deleted', { type: 'supplier', id: supplierId })),
  ];
  // A failed login: the trail's copy alone (putLoneEntry).
  const failed = entryOf('2024-03-06T10:00:00.000Z', ANONYMOUS, 'auth.login_failed', { type: 'user', id: null });
  await putLoneEntry({ scope: tenant, entry: failed, expiresAtEpoch: FAR_FUTURE });
  entries.push(answered(failed));

  // Another tenant's entries with the very same actor, resource and times: never shown to this one.
  const theirs = { tenantId: other.tenantId };
  await record(theirs, entryOf('2024-03-03T12:00:00.000Z', ana, 'supplier.updated', { type: 'supplier', id: supplierId }));
  await record(theirs, entryOf('2024-03-04T12:00:00.000Z', SYSTEM, 'company.status_changed', { type: 'company', id: companyId }));
});

describe('GET /audit-events: who may read', () => {
  it('answers 403 to a member of the tenant', async () => {
    const response = await audit(memberAccount, '');
    expect(response.status).toBe(403);
    expect(response.body).toEqual(problem(403, 'forbidden'));
  });

  it("answers 403 to a tenant administrator asking for the platform's trail", async () => {
    const response = await audit(admin, 'scope=platform');
    expect(response.status).toBe(403);
    expect(response.body).toEqual(problem(403, 'forbidden'));
  });

  it('answers 401 without a session', async () => {
    expect((await call('GET', '/audit-events')).status).toBe(401);
  });
});

describe('GET /audit-events: what it refuses', () => {
  it.each([
    ['actorId', 'actorId=ana'],
    ['action', 'action=user.deleted'],
    ['resourceType', 'resourceType=order'],
    ['resourceId', 'resourceId=a%23b'],
    ['resourceId', `resourceId=${'x'.repeat(101)}`],
    ['from', 'from=2024-02-30'],
    ['to', 'to=yesterday'],
    ['to', 'from=2024-03-05&to=2024-03-04'],
    ['limit', 'limit=0'],
    ['limit', 'limit=101'],
    ['limit', 'limit=1.5'],
    ['scope', 'scope=all'],
    ['order', 'order=asc'],
  ])('answers 400 naming %s for %s', async (field, query) => {
    const response = await audit(admin, query);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [expect.objectContaining({ field })] }));
  });

  it("answers 400 to an edited cursor, another tenant's, and one used with other filters", async () => {
    const first = await audit(admin, `${WINDOW}&limit=2`);
    expect(first.status).toBe(200);
    const cursor = first.body.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));

    const [payload, mac] = cursor.split('.') as [string, string];
    const edited = `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    const forged = Buffer.from(JSON.stringify({ v: 1, p: { pk: `TENANT#${other.tenantId}#AUDIT`, sk: '2024-03-31T00:00:00.000Z' } })).toString('base64url');
    for (const [account, query] of [
      [admin, `${WINDOW}&limit=2&cursor=${encodeURIComponent(edited)}`],
      [admin, `${WINDOW}&limit=2&cursor=${forged}.${mac}`],
      [admin, `${WINDOW}&limit=2&cursor=not-a-cursor`],
      [other, `${WINDOW}&limit=2&cursor=${encodeURIComponent(cursor)}`],
      [admin, `${WINDOW}&limit=2&action=supplier.created&cursor=${encodeURIComponent(cursor)}`],
      [admin, `from=2024-03-02&to=2024-03-31&limit=2&cursor=${encodeURIComponent(cursor)}`],
    ] as const) {
      const response = await audit(account, query);
      expect(response.status, query).toBe(400);
      expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'cursor', message: expect.any(String) }] }));
    }
  });
});

describe('GET /audit-events: what it answers', () => {
  it("lists the tenant's entries newest first, whole, and none of another tenant's", async () => {
    const response = await audit(admin, WINDOW);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ items: [...entries].reverse(), nextCursor: null });

    const theirs = await audit(other, WINDOW);
    expect(theirs.body.items).toHaveLength(2);
    expect(ids(theirs.body.items).filter((id) => ids(entries).includes(id))).toEqual([]);
  });

  it('walks every entry with limit=2, in order, each once', async () => {
    const { items, pages } = await walk(admin, `${WINDOW}&limit=2`);
    expect(ids(items)).toEqual(ids([...entries].reverse()));
    expect(pages.map((page) => page.items.length)).toEqual([2, 2, 2]);
    expect(new Set(ids(items)).size).toBe(items.length);
  });

  it('shows the newest entries first without bounds, the window ones in order among them', async () => {
    const { items } = await walk(admin, 'limit=100');
    const times = items.map((entry) => entry.occurredAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(ids(items.filter((entry) => ids(entries).includes(entry.id)))).toEqual(ids([...entries].reverse()));
  });

  it.each([
    ['actorId (a user)', () => `actorId=${admin.userId}`, () => [e(1), e(0)]],
    ['actorId=system', () => 'actorId=system', () => [e(3)]],
    ['action', () => 'action=supplier.updated', () => [e(1)]],
    ['resourceType', () => 'resourceType=supplier', () => [e(4), e(1), e(0)]],
    ['resourceId', () => `resourceId=${supplierId}`, () => [e(4), e(1), e(0)]],
    ['actorId and resourceType', () => `actorId=${memberAccount.userId}&resourceType=supplier`, () => [e(4)]],
    ['resourceId and action', () => `resourceId=${supplierId}&action=supplier.deleted`, () => [e(4)]],
    ['resourceId and actorId=system', () => `resourceId=${companyId}&actorId=system`, () => [e(3)]],
    ['action and resourceType that never go together', () => 'action=warehouse.created&resourceType=supplier', () => []],
  ])('filters by %s: exactly its entries, newest first, on every page size', async (_name, query, expected) => {
    for (const limit of [1, 2, 100]) {
      const { items } = await walk(admin, `${WINDOW}&${query()}&limit=${limit}`);
      expect(ids(items), `limit=${limit}`).toEqual(ids(expected()));
    }
  });

  it('bounds by business days (São Paulo) and by instants, both inclusive', async () => {
    expect(ids((await walk(admin, 'from=2024-03-04&to=2024-03-04')).items)).toEqual(ids([e(4), e(3)]));
    expect(ids((await walk(admin, 'from=2024-03-03T10:00:00.000Z&to=2024-03-03T10:00:00.000Z')).items)).toEqual(ids([e(2)]));
    expect(ids((await walk(admin, 'from=2024-03-02T07:00:00-03:00&to=2024-03-04')).items)).toEqual(ids([e(4), e(3), e(2), e(1)]));
    expect(ids((await walk(admin, `from=2024-03-05&to=2024-03-05&resourceId=${supplierId}`)).items)).toEqual([]);
  });

  it('may answer a page with fewer entries than limit and a next cursor when two filters combine, and the walk still ends', async () => {
    // The member's list holds e5 and e3; limit 1 reads two and keeps e5, then reads the rest (e3 is checked out).
    const { items, pages } = await walk(admin, `${WINDOW}&actorId=${memberAccount.userId}&resourceType=supplier&limit=1`);
    expect(ids(items)).toEqual([e(4).id]);
    expect(pages.at(-1)?.nextCursor).toBeNull();

    // The admin's list holds e2 and e1, both suppliers: limit 1 reads both, keeps none, and a next page may still follow.
    const none = await walk(admin, `${WINDOW}&actorId=${admin.userId}&resourceType=warehouse&limit=1`);
    expect(none.items).toEqual([]);
    expect(none.pages[0]).toEqual({ items: [], nextCursor: expect.any(String) });
    expect(none.pages.at(-1)?.nextCursor).toBeNull();
  });
});

describe('GET /audit-events?scope=platform', () => {
  it("lets a platform administrator read the platform's trail, never a tenant's", async () => {
    const email = uniqueEmail('root');
    const password = 'platform password 1';
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1', ADMIN_PASSWORD: password };
    const child = spawn(join('node_modules', '.bin', 'tsx'), ['scripts/create-admin.ts', '--email', email], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdin.end('');
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    expect(code, stderr).toBe(0);
    // A platform administrator signs in with the second factor create-admin enrolled.
    const signedIn = await signInWithSecondFactor(email, password, secondFactorFrom(stdout).secret);
    expect(signedIn.response.status).toBe(200);
    const root = { ...admin, cookies: signedIn.cookies };

    const entry = await record('platform', entryOf('2024-03-10T10:00:00.000Z', SYSTEM, 'tenant.created', { type: 'tenant', id: other.tenantId }));
    const { items } = await walk(root, `scope=platform&${WINDOW}&resourceId=${other.tenantId}`);
    expect(ids(items)).toEqual([entry.id]);
    // Its own tenant's trail is not the platform's (and holds none of the window's test entries).
    const own = await audit(root, WINDOW);
    expect(own.status).toBe(200);
    expect(ids(own.body.items)).not.toContain(entry.id);
  });
});

describe("GET /audit-events: an entry's origin (Marco Civil Art. 15: 6 months)", () => {
  const DAY_MS = 24 * 60 * 60 * 1000;
  const originKey = (entry: AuditEntry) => keys.auditOrigin({ tenantId: admin.tenantId }, entry.occurredAt, entry.id);
  const page = async (resourceId: string) => (await walk(admin, `resourceId=${resourceId}`)).items;

  it('answers the IP address and User-Agent while the origin is kept, null once TTL has removed it, and keeps the entry', async () => {
    const resourceId = randomUUID();
    const recent = entryOf(new Date(Date.now() - DAY_MS).toISOString(), user(admin, 'Admin'), 'supplier.updated', { type: 'supplier', id: resourceId });
    await record({ tenantId: admin.tenantId }, recent);

    expect(await page(resourceId)).toEqual([recent]);
    // Its TTL: the access records' period after the entry, exactly (the copies keep the entry's own).
    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: originKey(recent) }));
    expect(stored.Item).toEqual({
      ...originKey(recent),
      type: 'AuditOrigin',
      sourceIp: '127.0.0.1',
      userAgent: 'audit-events.test',
      ttl: Math.floor(Date.parse(recent.occurredAt) / 1000) + settings.accessRecordRetentionDays * 86_400,
    });
    const copy = await db().send(new GetCommand({ TableName: tableName(), Key: keys.auditEntry({ tenantId: admin.tenantId }, recent.occurredAt, recent.id) }));
    expect(copy.Item).toMatchObject({ id: recent.id, ttl: FAR_FUTURE });
    expect(copy.Item).not.toHaveProperty('sourceIp');
    expect(copy.Item).not.toHaveProperty('userAgent');

    // DynamoDB Local does not expire items: delete the origin as TTL would.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: originKey(recent) }));
    expect(await page(resourceId)).toEqual([{ ...recent, sourceIp: null, userAgent: null }]);
  });

  it('answers null for an origin past its time that TTL has not removed yet (it may take days)', async () => {
    const resourceId = randomUUID();
    const old = entryOf(new Date(Date.now() - (settings.accessRecordRetentionDays + 1) * DAY_MS).toISOString(), SYSTEM, 'company.status_changed', {
      type: 'company',
      id: resourceId,
    });
    await record({ tenantId: admin.tenantId }, old);

    expect((await db().send(new GetCommand({ TableName: tableName(), Key: originKey(old) }))).Item?.ttl).toBeLessThan(Date.now() / 1000);
    expect(await page(resourceId)).toEqual([{ ...old, sourceIp: null, userAgent: null }]);
  });
});
