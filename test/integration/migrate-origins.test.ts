import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, expect, it } from 'vitest';
import type { AuditEntry, AuditRecord } from '../../lib/audit/model';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { auditItems, moveOriginsOfTrail, readAuditPage } from '../../lib/audit/repository';
import { moveEntryOrigins, moveKeyAddresses } from '../../lib/privacy/access-records';
import { settings } from '../../lib/settings';
import { newTenantWithAdmin, useLocalStoreInProcess } from './api';

/**
 * `npm run migrate`, the audit entries' origins (lib/privacy/access-records): entries written
 * before the origin was kept apart hold the IP address and User-Agent on every copy. Once it
 * ran, a recent entry's origin is an item of its own expiring by the access records' rule, an
 * entry past that period has none, and no copy holds either; a second run changes nothing.
 */
beforeAll(useLocalStoreInProcess);

/** The migration reads every tenant's trail in the shared store (one Query each). */
const EVERY_TRAIL_MS = 120_000;
const DAY = 24 * 60 * 60;
const NOW = Date.now();
const item = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** An entry as an older version wrote it: its origin on each copy, no origin item. */
async function writeOld(record: AuditRecord, lone = false): Promise<void> {
  const puts = auditItems(record)
    .map((put) => put.Put?.Item ?? {})
    .filter((stored) => stored.type === 'AuditEntry')
    .slice(0, lone ? 1 : undefined)
    .map((stored) => ({ Put: { TableName: tableName(), Item: { ...stored, sourceIp: record.entry.sourceIp, userAgent: record.entry.userAgent } } }));
  await db().send(new TransactWriteCommand({ TransactItems: puts }));
}

const entryAt = (ageDays: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id: randomUUID(),
  occurredAt: new Date(NOW - ageDays * DAY * 1000).toISOString(),
  actor: { type: 'user', id: randomUUID(), name: 'Ana' },
  action: 'supplier.updated',
  resource: { type: 'supplier', id: randomUUID() },
  requestId: `it-${randomUUID()}`,
  sourceIp: '198.51.100.4',
  userAgent: 'migrate-origins.test',
  changes: null,
  ...overrides,
});

it("moves each recent entry's origin into its own item, drops an older one's, and leaves no copy holding either; a second run changes nothing", async () => {
  const scope = { tenantId: randomUUID() };
  const expiresAtEpoch = Math.floor(NOW / 1000) + 300 * DAY;
  const recent = entryAt(10);
  const old = entryAt(settings.accessRecordRetentionDays + 10);
  const lone = entryAt(5, { actor: { type: 'anonymous', id: null, name: null }, action: 'auth.login_failed', resource: { type: 'user', id: null } });
  const system = entryAt(3, { actor: { type: 'system', id: null, name: null }, sourceIp: null, userAgent: null });
  await writeOld({ scope, entry: recent, expiresAtEpoch });
  await writeOld({ scope, entry: old, expiresAtEpoch });
  await writeOld({ scope, entry: lone, expiresAtEpoch }, true);
  await writeOld({ scope, entry: system, expiresAtEpoch });

  expect(await moveOriginsOfTrail(scope, NOW)).toEqual({ moved: 2, dropped: 2 });

  const originOf = (entry: AuditEntry) => item(keys.auditOrigin(scope, entry.occurredAt, entry.id));
  const periodEnd = (entry: AuditEntry) => Math.floor(Date.parse(entry.occurredAt) / 1000) + settings.accessRecordRetentionDays * DAY;
  expect(await originOf(recent)).toEqual({
    ...keys.auditOrigin(scope, recent.occurredAt, recent.id),
    type: 'AuditOrigin',
    sourceIp: '198.51.100.4',
    userAgent: 'migrate-origins.test',
    ttl: periodEnd(recent),
  });
  expect(await originOf(lone)).toMatchObject({ sourceIp: '198.51.100.4', ttl: periodEnd(lone) });
  expect(await originOf(old)).toBeUndefined();
  expect(await originOf(system)).toBeUndefined();

  // No copy holds an origin any more, and none was created where there was none (the lone entry's actor and resource lists).
  const copies = [recent, old, system].flatMap((entry) => [
    keys.auditEntry(scope, entry.occurredAt, entry.id),
    keys.auditByActor(scope, entry.actor.id ?? entry.actor.type, entry.occurredAt, entry.id),
    keys.auditByResource(scope, entry.resource.id as string, entry.occurredAt, entry.id),
  ]);
  for (const key of copies) {
    const copy = await item(key);
    expect(copy, key.pk).toMatchObject({ type: 'AuditEntry', ttl: expiresAtEpoch });
    expect(copy).not.toHaveProperty('sourceIp');
    expect(copy).not.toHaveProperty('userAgent');
  }
  expect(await item(keys.auditEntry(scope, lone.occurredAt, lone.id))).not.toHaveProperty('sourceIp');
  expect(await item(keys.auditByActor(scope, 'anonymous', lone.occurredAt, lone.id))).toBeUndefined();

  // Read as a route reads them: the recent ones with their origin, the old one without.
  const { entries } = await readAuditPage(scope, { filter: {}, fromSk: '0', toSk: '~', limit: 10 });
  expect(entries).toEqual([system, lone, recent, { ...old, sourceIp: null, userAgent: null }]);

  expect(await moveOriginsOfTrail(scope, NOW)).toEqual({ moved: 0, dropped: 0 });
  expect(await originOf(recent)).toMatchObject({ ttl: periodEnd(recent) });
});

it(
  "reaches every listed tenant's trail and the platform's",
  async () => {
    const admin = await newTenantWithAdmin();
    const expiresAtEpoch = Math.floor(NOW / 1000) + 300 * DAY;
    const tenantEntry = entryAt(1);
    const platformEntry = entryAt(2, { action: 'tenant.created', resource: { type: 'tenant', id: admin.tenantId } });
    await writeOld({ scope: { tenantId: admin.tenantId }, entry: tenantEntry, expiresAtEpoch });
    await writeOld({ scope: 'platform', entry: platformEntry, expiresAtEpoch });

    const totals = await moveEntryOrigins(NOW);
    expect(totals.trails).toBeGreaterThanOrEqual(2);
    expect(totals.moved).toBeGreaterThanOrEqual(2);
    expect(await item(keys.auditOrigin({ tenantId: admin.tenantId }, tenantEntry.occurredAt, tenantEntry.id))).toMatchObject({
      sourceIp: '198.51.100.4',
      userAgent: 'migrate-origins.test',
    });
    expect(await item(keys.auditOrigin('platform', platformEntry.occurredAt, platformEntry.id))).toMatchObject({
      sourceIp: '198.51.100.4',
      userAgent: 'migrate-origins.test',
    });
    // Nothing left to move on a second run.
    expect(await moveEntryOrigins(NOW)).toMatchObject({ moved: 0, dropped: 0 });
  },
  EVERY_TRAIL_MS,
);

it(
  "moves a recent API key's last-use address to its own item, expiring 6 months after the use, and drops an older one",
  async () => {
    const admin = await newTenantWithAdmin();
    // Keys as an older version wrote them: the address on the key.
    const keyAt = (ageDays: number) => {
      const id = randomUUID();
      const lastUsedAt = new Date(NOW - ageDays * DAY * 1000).toISOString();
      return {
        id,
        lastUsedAt,
        item: {
          ...keys.apiKey(admin.tenantId, id),
          type: 'ApiKey',
          id,
          tenantId: admin.tenantId,
          name: `key ${ageDays}`,
          scopes: {},
          prefix: 'bo_test_x',
          createdBy: admin.userId,
          createdAt: lastUsedAt,
          secretHash: 'h',
          lastUsedAt,
          lastUsedIp: '198.51.100.7',
        },
      };
    };
    const recent = keyAt(10);
    const old = keyAt(settings.accessRecordRetentionDays + 1);
    for (const key of [recent, old]) await db().send(new PutCommand({ TableName: tableName(), Item: key.item }));

    const totals = await moveKeyAddresses(NOW);
    expect(totals.moved).toBeGreaterThanOrEqual(1);
    expect(totals.dropped).toBeGreaterThanOrEqual(1);
    const { lastUsedIp: _address, ...withoutAddress } = recent.item;
    expect(await item(keys.apiKey(admin.tenantId, recent.id))).toEqual(withoutAddress);
    expect(await item(keys.apiKeyUse(recent.id))).toEqual({
      ...keys.apiKeyUse(recent.id),
      type: 'ApiKeyUse',
      tenantId: admin.tenantId,
      lastUsedAt: recent.lastUsedAt,
      lastUsedIp: '198.51.100.7',
      ttl: Math.floor(Date.parse(recent.lastUsedAt) / 1000) + settings.accessRecordRetentionDays * DAY,
    });
    expect((await item(keys.apiKey(admin.tenantId, old.id)))?.lastUsedIp).toBeUndefined();
    expect(await item(keys.apiKeyUse(old.id))).toBeUndefined();
    // Nothing left to move on a second run.
    expect(await moveKeyAddresses(NOW)).toEqual({ moved: 0, dropped: 0 });
  },
  EVERY_TRAIL_MS,
);
