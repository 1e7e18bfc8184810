import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKey } from './model';
import type { AuditRecord } from '../audit/model';
import { getMany } from '../db/batch';
import { db, tableName } from '../db/client';
import { storeConfig } from '../config';
import { conditionally } from '../db/conditions';
import { API_KEY_ITEMS } from '../db/item-types';
import { fieldsOf, pick, withoutNulls } from '../db/items';
import { keys } from '../db/keys';
import { queryAll } from '../db/query';
import { writeWithEntry } from '../audit/repository';

const FIELDS = fieldsOf<ApiKey>()([
  'id',
  'tenantId',
  'name',
  'scopes',
  'companyId',
  'prefix',
  'createdBy',
  'createdAt',
  'expiresAt',
  'lastUsedAt',
  'lastUsedIp',
  'rolledAt',
  'secretHash',
  'previousSecretHash',
  'previousExpiresAt',
]);

/** A key as read (absent fields as null). */
export const toApiKey = (item: Record<string, unknown>): ApiKey => pick<ApiKey>(item, FIELDS);

const apiKeyItem = (key: ApiKey) => ({ ...keys.apiKey(key.tenantId, key.id), type: API_KEY_ITEMS.apiKey, ...withoutNulls(key) });

/** Store a new key with its entry; false when its id is taken (a new id is drawn). */
export function insertApiKey(key: ApiKey, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry([{ Put: { TableName: tableName(), Item: apiKeyItem(key), ConditionExpression: 'attribute_not_exists(pk)' } }], audit);
}

export async function getApiKey(tenantId: string, keyId: string): Promise<ApiKey | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(tenantId, keyId), ConsistentRead: true }));
  return Item ? toApiKey(Item) : undefined;
}

/**
 * Each key with the address of its last use, while that record lasts (its item, apart from the
 * key, expires ACCESS_RECORD_RETENTION_DAYS after the use: null after, and before TTL's sweep
 * got to it). One BatchGetItem per 100 keys.
 */
async function withLastUseAddress(found: ApiKey[], nowMs: number): Promise<ApiKey[]> {
  if (found.length === 0) return found;
  const uses = await getMany(found.map((key) => keys.apiKeyUse(key.id)));
  const nowEpoch = Math.floor(nowMs / 1000);
  return found.map((key, index) => {
    const use = uses[index];
    const live = use !== undefined && typeof use.lastUsedIp === 'string' && !(typeof use.ttl === 'number' && use.ttl <= nowEpoch);
    return { ...key, lastUsedIp: live ? String(use.lastUsedIp) : null };
  });
}

/** A page of the tenant's keys, newest first, after the key `afterSk`, each with its last use's address (`withLastUseAddress`). */
export async function listApiKeyPage(
  tenantId: string,
  page: { limit: number; afterSk?: string },
  nowMs: number,
): Promise<{ items: ApiKey[]; lastSk?: string }> {
  const { pk, skPrefix } = keys.apiKeysOfTenant(tenantId);
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: page.afterSk === undefined ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk AND sk BETWEEN :prefix AND :after',
      ExpressionAttributeValues: page.afterSk === undefined ? { ':pk': pk, ':prefix': skPrefix } : { ':pk': pk, ':prefix': skPrefix, ':after': page.afterSk },
      ScanIndexForward: false,
      ConsistentRead: true,
      // One more, to know whether a next page exists; BETWEEN includes the last key of the page before.
      Limit: page.limit + 1 + (page.afterSk === undefined ? 0 : 1),
    }),
  );
  const after = page.afterSk === undefined ? Items : Items.filter((item) => item.sk !== page.afterSk);
  const items = after.slice(0, page.limit);
  return { items: await withLastUseAddress(items.map(toApiKey), nowMs), ...(after.length > page.limit ? { lastSk: String(items.at(-1)?.sk) } : {}) };
}

/** The secret a roll sets, and how long the one it replaces keeps working. */
export interface Roll {
  secretHash: string;
  prefix: string;
  rolledAt: string;
  previousExpiresAt: string;
}

/**
 * Replace a key's secret, conditioned on the secret read (`readHash`): of two parallel rolls
 * one wins and the other is refused (false), so no secret is replaced unseen. The replaced
 * secret keeps working until `previousExpiresAt`; a secret from before that is dropped.
 */
export function rollApiKey(key: Pick<ApiKey, 'tenantId' | 'id'>, readHash: string, roll: Roll, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: keys.apiKey(key.tenantId, key.id),
          UpdateExpression:
            'SET secretHash = :hash, prefix = :prefix, rolledAt = :rolledAt, previousSecretHash = :read, previousExpiresAt = :previousExpiresAt',
          ConditionExpression: 'secretHash = :read',
          ExpressionAttributeValues: {
            ':hash': roll.secretHash,
            ':prefix': roll.prefix,
            ':rolledAt': roll.rolledAt,
            ':read': readHash,
            ':previousExpiresAt': roll.previousExpiresAt,
          },
        },
      },
    ],
    audit,
  );
}

/** Delete a key, with its last use's address and its entry; false when there is no such key. */
export function deleteApiKey(tenantId: string, keyId: string, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry(
    [
      { Delete: { TableName: tableName(), Key: keys.apiKey(tenantId, keyId), ConditionExpression: 'attribute_exists(pk)' } },
      { Delete: { TableName: tableName(), Key: keys.apiKeyUse(keyId) } },
    ],
    audit,
  );
}

/**
 * Record a use of a key, only when the recorded use is older than `staleBefore` (at most once
 * per LAST_USED_RESOLUTION_MS whatever the traffic), and never on a key deleted meanwhile:
 * `lastUsedAt` on the key (an address it held before is removed), then the address in its own
 * item, which TTL removes at `addressExpiresAt` (epoch seconds): an access record, kept for
 * its period and no longer, however long the key lives unused.
 */
export async function touchApiKey(tenantId: string, keyId: string, now: string, ip: string, staleBefore: string, addressExpiresAt: number): Promise<void> {
  const touched = await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(tenantId, keyId),
        UpdateExpression: 'SET lastUsedAt = :now REMOVE lastUsedIp',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale)',
        ExpressionAttributeValues: { ':now': now, ':stale': staleBefore },
      }),
    ),
  );
  if (!touched) return;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiKeyUse(keyId),
      UpdateExpression: 'SET #type = :type, tenantId = :tenant, lastUsedAt = :now, lastUsedIp = :ip, #ttl = :ttl',
      ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':type': API_KEY_ITEMS.use, ':tenant': tenantId, ':now': now, ':ip': ip, ':ttl': addressExpiresAt },
    }),
  );
}

/**
 * `npm run migrate`: the keys of a tenant written before a last use's address was kept apart
 * hold it on the key. An address still inside the access records' period moves to its own
 * item, expiring as a new one would (never over a newer use's); an older one is dropped. Each
 * key is changed only if it still holds the address read. Idempotent.
 */
export async function moveKeyAddressesOf(tenantId: string, nowMs: number): Promise<{ moved: number; dropped: number }> {
  const { pk, skPrefix } = keys.apiKeysOfTenant(tenantId);
  const found = (await queryAll(pk, { skPrefix, consistent: true })).filter((item) => typeof item.lastUsedIp === 'string');
  const period = storeConfig().ACCESS_RECORD_RETENTION_DAYS * 24 * 3600;
  const totals = { moved: 0, dropped: 0 };
  for (const item of found) {
    const key = toApiKey(item);
    const expiresAt = key.lastUsedAt === null ? 0 : Math.floor(Date.parse(key.lastUsedAt) / 1000) + period;
    const live = expiresAt > Math.floor(nowMs / 1000);
    if (live) {
      await conditionally(
        db().send(
          new PutCommand({
            TableName: tableName(),
            Item: { ...keys.apiKeyUse(key.id), type: API_KEY_ITEMS.use, tenantId, lastUsedAt: key.lastUsedAt, lastUsedIp: key.lastUsedIp, ttl: expiresAt },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    }
    const removed = await conditionally(
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.apiKey(tenantId, key.id),
          UpdateExpression: 'REMOVE lastUsedIp',
          ConditionExpression: 'lastUsedIp = :read',
          ExpressionAttributeValues: { ':read': key.lastUsedIp },
        }),
      ),
    );
    if (removed) totals[live ? 'moved' : 'dropped'] += 1;
  }
  return totals;
}
