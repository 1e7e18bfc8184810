import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, checksumOf, newKeyId } from '../../lib/api-keys/format';
import type { ApiKey } from '../../lib/api-keys/model';
import { auditRecord } from '../../lib/audit/record';
import { db, tableName } from '../../lib/db/client';
import { insertApiKey } from '../../lib/api-keys/repository';
import { keys } from '../../lib/db/keys';
import { API_KEY_RATE_LIMIT } from '../../lib/routes';
import { settings } from '../../lib/settings';
import {
  apiUrl,
  call,
  clearOfWindowEnd,
  newTenantWithAdmin,
  outboxFor,
  problem,
  registerInvitee,
  login,
  uniqueEmail,
  useLocalStoreInProcess,
  type Account,
  type ApiResponse,
} from './api';

/**
 * API keys over HTTP: made, listed, rolled and revoked by a tenant administrator, and used by
 * a system with `Authorization: Bearer`. The scope of every route is covered apart
 * (api-key-scopes.test.ts); this file covers the keys' life, their limits and their isolation.
 */

interface KeyView {
  id: string;
  name: string;
  scopes: Record<string, string>;
  prefix: string;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  previousSecretExpiresAt: string | null;
  key?: string;
}

const INVENTORY = { inventory: 'write', dashboards: 'read' };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function makeKey(admin: Account, body: Record<string, unknown> = { name: 'PDV Centro', scopes: INVENTORY }): Promise<KeyView & { key: string }> {
  const created = await call<KeyView & { key: string }>('POST', '/api-keys', { cookies: admin.cookies, body });
  if (created.status !== 201) throw new Error(`key creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

const newWarehouse = (key: string, name = `Depósito ${randomUUID().slice(0, 6)}`, headers: Record<string, string> = {}) =>
  call<{ id: string; name: string }>('POST', '/inventory/warehouses', { headers: { ...bearer(key), ...headers }, body: { name } });

beforeAll(async () => {
  await useLocalStoreInProcess();
});

describe('POST /api-keys and GET /api-keys', () => {
  it('makes a key shown once, lists it without any secret, and tells every administrator', async () => {
    const admin = await newTenantWithAdmin();
    const created = await call<KeyView & { key: string }>('POST', '/api-keys', { cookies: admin.cookies, body: { name: 'PDV Centro', scopes: INVENTORY } });

    expect(created.status).toBe(201);
    const view = {
      id: created.body.id,
      name: 'PDV Centro',
      scopes: { companies: 'none', suppliers: 'none', inventory: 'write', purchasing: 'none', dashboards: 'read', audit: 'none', events: 'none' },
      companyId: null,
      prefix: created.body.key.slice(0, `bo_test_${created.body.id}_`.length + 4),
      createdBy: { id: admin.userId, name: 'Admin' },
      createdAt: expect.stringMatching(/Z$/) as string,
      expiresAt: null,
      lastUsedAt: null,
      lastUsedIp: null,
      rolledAt: null,
      previousSecretExpiresAt: null,
    };
    expect(created.body).toEqual({ ...view, key: expect.stringMatching(new RegExp(`^${API_KEY_PATTERN}$`)) as string });
    expect(created.body.key.startsWith(`bo_test_${created.body.id}_`)).toBe(true);

    const listed = await call<KeyView[]>('GET', '/api-keys', { cookies: admin.cookies });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([view]);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key.slice(-49));

    expect(outboxFor(admin.email).map((message) => message.subject)).toContain('A new API key was created');
  });

  it('lists the newest first', async () => {
    const admin = await newTenantWithAdmin();
    // A key made a minute ago, stored as POST /api-keys stores one (no clock of the server to move).
    const earlier = Date.now() - 60_000;
    const older: ApiKey = {
      id: newKeyId(admin.tenantId, earlier),
      tenantId: admin.tenantId,
      name: 'ERP',
      scopes: { suppliers: 'read' },
      companyId: null,
      prefix: 'bo_test_x',
      createdBy: { id: admin.userId, name: 'Admin' },
      createdAt: new Date(earlier).toISOString(),
      expiresAt: null,
      lastUsedAt: null,
      lastUsedIp: null,
      rolledAt: null,
      secretHash: '0'.repeat(64),
      previousSecretHash: null,
      previousExpiresAt: null,
    };
    expect(
      await insertApiKey(
        older,
        auditRecord({ scope: { tenantId: admin.tenantId }, action: 'api_key.created', resource: { type: 'api_key', id: older.id } }, earlier),
      ),
    ).toBe(true);
    const newer = await makeKey(admin, { name: 'Loja online', scopes: { inventory: 'read' } });

    const listed = await call<KeyView[]>('GET', '/api-keys', { cookies: admin.cookies });
    expect(listed.body.map((key) => key.id)).toEqual([newer.id, older.id]);
  });

  it.each([
    ['no scope granted', { name: 'k', scopes: { inventory: 'none' } }, 'scopes'],
    ['a dashboard written', { name: 'k', scopes: { dashboards: 'write' } }, 'scopes.dashboards'],
    ['a resource keys never reach', { name: 'k', scopes: { users: 'read' } }, 'scopes'],
    ['an expiry in the past', { name: 'k', scopes: INVENTORY, expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    ['a company of no tenant', { name: 'k', scopes: { companies: 'read' }, companyId: randomUUID() }, 'companyId'],
    ['no name', { scopes: INVENTORY }, 'name'],
  ])('refuses %s with 400 and stores nothing', async (_, body, field) => {
    const admin = await newTenantWithAdmin();
    const refused = await call('POST', '/api-keys', { cookies: admin.cookies, body });

    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) as unknown }));
    expect((await call('GET', '/api-keys', { cookies: admin.cookies })).body).toEqual([]);
  });

  it('is for tenant administrators: a member gets 403 on every key route, and so does a key', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);
    const email = uniqueEmail('member');
    await registerInvitee(admin, email, 'member password 1');
    const member = await login(email, 'member password 1');

    for (const [method, path, body] of [
      ['POST', '/api-keys', { name: 'k', scopes: INVENTORY }],
      ['GET', '/api-keys', undefined],
      ['POST', `/api-keys/${key.id}/roll`, { expiresInHours: 0 }],
      ['DELETE', `/api-keys/${key.id}`, undefined],
    ] as const) {
      const asMember = await call(method, path, { cookies: member.cookies, ...(body ? { body } : {}) });
      expect(asMember.status, `${method} ${path}`).toBe(403);
      expect(asMember.body).toEqual(problem(403, 'forbidden'));
      const asKey = await call(method, path, { headers: bearer(key.key), ...(body ? { body } : {}) });
      expect(asKey.body, `${method} ${path}`).toEqual(problem(403, 'forbidden', { detail: 'API keys cannot use this route: it takes a signed-in session' }));
    }
    expect((await call<KeyView[]>('GET', '/api-keys', { cookies: admin.cookies })).body.map((listed) => listed.id)).toEqual([key.id]);
  });
});

describe('a request with an API key', () => {
  it('acts within its scopes, answers with the RateLimit fields, and records its last use', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);
    const ip = '127.31.0.9';

    const created = await call('POST', '/inventory/warehouses', { headers: bearer(key.key), body: { name: 'Centro' }, ip });
    expect(created.status).toBe(201);
    expect(created.headers.get('ratelimit-policy')).toBe(`"api-key";q=${API_KEY_RATE_LIMIT.limit};w=${API_KEY_RATE_LIMIT.windowSeconds}`);
    expect(created.headers.get('ratelimit')).toMatch(/^"api-key";r=\d+;t=\d+$/);

    const [listed] = (await call<KeyView[]>('GET', '/api-keys', { cookies: admin.cookies })).body;
    expect(listed).toMatchObject({ id: key.id, lastUsedIp: ip, lastUsedAt: expect.stringMatching(/Z$/) as string });

    // The address is an access record apart from the key, which TTL removes 6 months after the use.
    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(admin.tenantId, key.id), ConsistentRead: true }));
    expect(stored.Item?.lastUsedIp).toBeUndefined();
    const use = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyUse(key.id), ConsistentRead: true }));
    expect(use.Item).toEqual({
      ...keys.apiKeyUse(key.id),
      type: 'ApiKeyUse',
      tenantId: admin.tenantId,
      lastUsedAt: listed?.lastUsedAt,
      lastUsedIp: ip,
      ttl: Math.floor(Date.parse(listed?.lastUsedAt ?? '') / 1000) + settings.accessRecordRetentionDays * 24 * 3600,
    });
    // Once its time has come (TTL deletes within days of it), the address is no longer shown, and the time of the use still is.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKeyUse(key.id),
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const [expired] = (await call<KeyView[]>('GET', '/api-keys', { cookies: admin.cookies })).body;
    expect(expired).toMatchObject({ id: key.id, lastUsedIp: null, lastUsedAt: listed?.lastUsedAt });
  });

  it('is never a browser: with an Origin header it gets 401, and with the session cookie too, 400', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);

    const fromBrowser = await call('GET', '/inventory/warehouses', { headers: { ...bearer(key.key), origin: 'https://shop.example' } });
    expect(fromBrowser.status).toBe(401);
    expect(fromBrowser.body).toEqual(problem(401, 'unauthorized'));

    const both = await call('GET', '/inventory/warehouses', { headers: bearer(key.key), cookies: admin.cookies });
    expect(both.status).toBe(400);
    expect(both.body).toEqual(problem(400, 'bad-request', { detail: 'Send either the session cookie or an API key (Authorization: Bearer), not both' }));
  });

  it('is refused with the header only a browser sends (Sec-Fetch-Site, which comes even on a same-origin GET without Origin), not with what Node sends', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);
    const fromPage = await call('GET', '/inventory/warehouses', { headers: { ...bearer(key.key), 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' } });
    expect(fromPage.status).toBe(401);
    const fromNode = await fetch(`${apiUrl()}/inventory/warehouses`, { headers: bearer(key.key) });
    expect(fromNode.status).toBe(200);
  });

  it('answers its refusals with the RateLimit fields too', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);
    const refused = await call('POST', '/inventory/warehouses', { headers: bearer(key.key), body: { name: '' } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('ratelimit')).toMatch(/^"api-key";r=\d+;t=\d+$/);
  });

  it('has its own Idempotency-Keys: the same one from two keys makes two warehouses, again from one key replays', async () => {
    const admin = await newTenantWithAdmin();
    const pos = await makeKey(admin, { name: 'PDV 1', scopes: INVENTORY });
    const store = await makeKey(admin, { name: 'Loja online', scopes: INVENTORY });
    const headers = { 'idempotency-key': 'sale-0001' };

    const first = await newWarehouse(pos.key, 'Centro', headers);
    const other = await newWarehouse(store.key, 'Centro', headers);
    const again = await newWarehouse(pos.key, 'Centro', headers);
    const asUser = await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: admin.cookies, headers, body: { name: 'Centro' } });

    expect([first.status, other.status, again.status, asUser.status]).toEqual([201, 201, 201, 201]);
    expect(other.body.id).not.toBe(first.body.id);
    expect(asUser.body.id).not.toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
  });

  it('names the key in the audit trail', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin, { name: 'ERP Omie', scopes: { inventory: 'write', audit: 'read' } });
    const warehouse = await newWarehouse(key.key, 'Sul');

    const trail = await call<{ items: { actor: unknown; action: string; resource: unknown }[] }>('GET', `/audit-events?actorId=${key.id}`, {
      headers: bearer(key.key),
    });
    expect(trail.status).toBe(200);
    expect(trail.body.items).toEqual([
      expect.objectContaining({
        actor: { type: 'api-key', id: key.id, name: 'ERP Omie' },
        action: 'warehouse.created',
        resource: { type: 'warehouse', id: warehouse.body.id },
      }),
    ]);
  });

  it('stays within its limit under 50 parallel requests', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin, { name: 'PDV', scopes: { inventory: 'read' } });
    // Fill the key's window to 20 slots short of its limit, as earlier traffic would have.
    await clearOfWindowEnd(API_KEY_RATE_LIMIT.windowSeconds, 5_000);
    const windowMs = API_KEY_RATE_LIMIT.windowSeconds * 1000;
    const windowStart = Math.floor(Date.now() / windowMs) * windowMs;
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.counter('api-key', key.id, windowStart), count: API_KEY_RATE_LIMIT.limit - 20, ttl: Math.ceil((windowStart + windowMs) / 1000) },
      }),
    );

    const answers: ApiResponse[] = await Promise.all(Array.from({ length: 50 }, () => call('GET', '/inventory/warehouses', { headers: bearer(key.key) })));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(30);
    for (const answer of refused) {
      expect(answer.body).toEqual(problem(429, 'rate-limited'));
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.headers.get('ratelimit')).toMatch(/^"api-key";r=0;t=\d+$/);
    }
  });
});

describe('rolling and revoking', () => {
  it('a roll gives a new secret; the old one works until its overlap ends, then never again', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);

    const rolled = await call<KeyView & { key: string }>('POST', `/api-keys/${key.id}/roll`, { cookies: admin.cookies, body: { expiresInHours: 24 } });
    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({ id: key.id, previousSecretExpiresAt: expect.stringMatching(/Z$/) as string });
    expect(rolled.body.key).not.toBe(key.key);
    expect((await newWarehouse(key.key)).status).toBe(201);
    expect((await newWarehouse(rolled.body.key)).status).toBe(201);
    expect(outboxFor(admin.email).map((message) => message.subject)).toContain('An API key was rolled');

    // A second roll with no overlap: both earlier secrets stop on the next request.
    const again = await call<KeyView & { key: string }>('POST', `/api-keys/${key.id}/roll`, { cookies: admin.cookies, body: { expiresInHours: 0 } });
    expect(again.status).toBe(200);
    expect(again.body.previousSecretExpiresAt).toBeNull();
    for (const stale of [key.key, rolled.body.key]) {
      const refused = await newWarehouse(stale);
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual(problem(401, 'unauthorized'));
    }
    expect((await newWarehouse(again.body.key)).status).toBe(201);
  });

  it('refuses an overlap longer than a week, or a key of no one, leaving the key as it was', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);
    expect((await call('POST', `/api-keys/${key.id}/roll`, { cookies: admin.cookies, body: { expiresInHours: 169 } })).status).toBe(400);
    expect((await call('POST', `/api-keys/${newKeyId(admin.tenantId, Date.now())}/roll`, { cookies: admin.cookies, body: { expiresInHours: 0 } })).status).toBe(
      404,
    );
    expect((await newWarehouse(key.key)).status).toBe(201);
  });

  it('a revoked key is refused on the next request', async () => {
    const admin = await newTenantWithAdmin();
    const key = await makeKey(admin);
    expect((await newWarehouse(key.key)).status).toBe(201);

    const revoked = await call('DELETE', `/api-keys/${key.id}`, { cookies: admin.cookies });
    expect(revoked.status).toBe(204);
    // Its last use's address went with it.
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKeyUse(key.id), ConsistentRead: true }))).Item).toBeUndefined();
    expect((await newWarehouse(key.key)).status).toBe(401);
    expect((await call('DELETE', `/api-keys/${key.id}`, { cookies: admin.cookies })).status).toBe(404);
    expect((await call('GET', '/api-keys', { cookies: admin.cookies })).body).toEqual([]);
  });
});

describe('tenants apart', () => {
  it("a key of tenant A never reaches tenant B: B's records are not found, B's keys not listed, a key rebuilt for B's id is refused", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const keyOfA = await makeKey(a);
    const warehouseOfB = await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: b.cookies, body: { name: 'B' } });

    const read = await call('GET', `/inventory/warehouses/${warehouseOfB.body.id}`, { headers: bearer(keyOfA.key) });
    expect(read.status).toBe(404);
    expect((await call('GET', '/inventory/warehouses', { headers: bearer(keyOfA.key) })).body).toEqual([]);
    // B's administrator cannot roll or revoke A's key either.
    expect((await call('DELETE', `/api-keys/${keyOfA.id}`, { cookies: b.cookies })).status).toBe(404);

    // The same secret under an id that names tenant B, with a valid checksum: no such key.
    const forgedId = newKeyId(b.tenantId, Date.now()).slice(0, 22) + keyOfA.id.slice(22);
    const body = `bo_test_${forgedId}_${keyOfA.key.slice(`bo_test_${keyOfA.id}_`.length, -6)}`;
    const forged = await call('GET', '/inventory/warehouses', { headers: bearer(body + checksumOf(body)) });
    expect(forged.status).toBe(401);
  });
});
