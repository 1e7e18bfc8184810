import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { Conflict } from '../errors';
import { STOCK_LOW_THRESHOLD_PLACES, type Tenant, type TenantProfile } from './model';
import { TENANT_ITEMS } from '../db/item-types';
import { TENANT_JOB_ITEMS } from '../tenant-jobs/repository';

import { db, tableName } from '../db/client';
import type { Invitation } from '../auth/model';
import { auditItems, auditItemsUndone } from '../audit/repository';
import { baseInvitationPut } from '../auth/invitations-repository';
import { failedConditions } from '../db/conditions';
import { fieldsOf, pick, withoutNulls } from '../db/items';
import { gsi1, keys } from '../db/keys';
import { reviseItem } from '../audit/revisions-repository';
import { scaledFrom } from '../db/decimals';

export type { Tenant };

type OptionalFields = 'platform' | 'stockLowThresholdDays' | 'closedAt' | 'deletionDueAt';
const FIELDS = fieldsOf<Omit<Tenant, OptionalFields>>()([
  'id',
  'name',
  'brandName',
  'document',
  'address',
  'phone',
  'logoUrl',
  'plan',
  'mfaPolicy',
  'adminEmail',
  'status',
  'baseAccountUserId',
  'createdAt',
  'updatedAt',
]);

/** Item -> Tenant, dropping the key attributes (`platform` only on the marked tenant; `stockLowThresholdDays`, `closedAt` and `deletionDueAt` only when set). */
export const toTenant = (item: Record<string, unknown>): Tenant => ({
  ...pick<Omit<Tenant, OptionalFields>>(item, FIELDS),
  ...(typeof item.stockLowThresholdDays === 'number' ? { stockLowThresholdDays: item.stockLowThresholdDays } : {}),
  ...(typeof item.closedAt === 'string' ? { closedAt: item.closedAt } : {}),
  ...(typeof item.deletionDueAt === 'string' ? { deletionDueAt: item.deletionDueAt } : {}),
  mfaPolicy: (item.mfaPolicy as Tenant['mfaPolicy'] | undefined) ?? 'OFF',
  ...(item.platform === true ? { platform: true as const } : {}),
});

/**
 * The tenant's stock-low threshold (lib/inventory/stock-low) from its item, exactly: hundredths
 * of a day, or null when it is off (absent, the default) or the item is missing.
 */
export const stockLowThresholdOf = (item: Record<string, unknown> | undefined): bigint | null =>
  item?.stockLowThresholdDays === undefined || item.stockLowThresholdDays === null ? null : scaledFrom(item.stockLowThresholdDays, STOCK_LOW_THRESHOLD_PLACES);

/**
 * Create the tenant and claim its name in one transaction, with its base account's
 * invitation when it has one and the audit entry of the creation (last, so the indexes below
 * stay the tenant's own items); 409 when the name is taken.
 */
export async function insertTenant(tenant: Tenant, audit: AuditRecord, invitation?: Invitation): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.tenant(tenant.id), ...gsi1.tenantsByName(tenant.name), type: TENANT_ITEMS.tenant, ...withoutNulls(tenant) },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.tenantName(tenant.name), type: TENANT_ITEMS.name, tenantId: tenant.id },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...(invitation ? [baseInvitationPut(invitation)] : []),
          ...auditItems(audit),
        ],
      }),
    );
  } catch (error) {
    // The invitation and audit items have no condition: a failed one is the tenant's or its name's.
    if (failedConditions(error)) throw new Conflict(`A tenant named '${tenant.name}' already exists`);
    throw error;
  }
}

/**
 * Take back a tenant whose administrator's invitation could not be mailed: the tenant, its
 * name, the invitation and the creation's entry, in one transaction, so that the sign-up can
 * be tried again with the same name. Only while nobody registered into it (no base account).
 */
export async function takeBackTenant(tenant: Tenant, invitation: Invitation, audit: AuditRecord): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: tableName(), Key: keys.tenant(tenant.id), ConditionExpression: 'attribute_not_exists(baseAccountUserId)' } },
        {
          Delete: {
            TableName: tableName(),
            Key: keys.tenantName(tenant.name),
            ConditionExpression: 'tenantId = :id',
            ExpressionAttributeValues: { ':id': tenant.id },
          },
        },
        { Delete: { TableName: tableName(), Key: keys.invitation(invitation.tenantId, invitation.email) } },
        ...auditItemsUndone(audit),
      ],
    }),
  );
}

export async function getTenant(tenantId: string): Promise<Tenant | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenant(tenantId), ConsistentRead: true }));
  return Item ? toTenant(Item) : undefined;
}

/** The id of the tenant with this name (slug), through its uniqueness sentinel. */
export async function findTenantIdByName(name: string): Promise<string | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenantName(name), ConsistentRead: true }));
  return Item ? String(Item.tenantId) : undefined;
}

/** The first characters of tenant names (slugs), in name order: one index shard each (keys `gsi1.tenantsByName`). */
export const TENANT_NAME_SHARDS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Where a page of tenants ends: the last tenant's name and id (its shard is the name's first character). */
export interface TenantPosition {
  name: string;
  id: string;
}

/** One Query of a tenant shard: up to `limit` tenants by name, from `startKey`. */
async function queryShard(
  shard: string,
  limit: number,
  startKey: Record<string, unknown> | undefined,
): Promise<{ items: Record<string, unknown>[]; lastKey?: Record<string, unknown> }> {
  const result = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1.tenantShard(shard).gsi1pk },
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: result.Items ?? [], ...(result.LastEvaluatedKey ? { lastKey: result.LastEvaluatedKey } : {}) };
}

/**
 * A page of the platform's tenants by name, after `after`: the shards in name order, from
 * the one the page stands in, until the page and one more are found. The shards are read in
 * waves of 1, 2, 4, 8 ... in parallel, so a page inside a well-filled shard is one Query,
 * and a page over sparse shards (a young platform) at most six round trips, not one per
 * shard; what a wave reads past the page is the price of that.
 */
export async function listTenantPage(page: { limit: number; after?: TenantPosition }): Promise<{ tenants: Tenant[]; last?: TenantPosition }> {
  const found: Record<string, unknown>[] = [];
  const firstShard = page.after ? Math.max(0, TENANT_NAME_SHARDS.indexOf(page.after.name.charAt(0))) : 0;
  const resumeKey = page.after ? { ...gsi1.tenantsByName(page.after.name), ...keys.tenant(page.after.id) } : undefined;
  for (let shard = firstShard, wave = 1; shard < TENANT_NAME_SHARDS.length && found.length <= page.limit; shard += wave, wave *= 2) {
    const shards = [...TENANT_NAME_SHARDS.slice(shard, shard + wave)];
    const wanted = page.limit + 1 - found.length;
    const results = await Promise.all(shards.map((name, index) => queryShard(name, wanted, shard === firstShard && index === 0 ? resumeKey : undefined)));
    for (const [index, result] of results.entries()) {
      found.push(...result.items);
      // A shard past DynamoDB's 1 MB a response: the rest of it comes before the next shard's.
      for (let lastKey = result.lastKey; lastKey && found.length <= page.limit;) {
        const more = await queryShard(shards[index] as string, page.limit + 1 - found.length, lastKey);
        found.push(...more.items);
        lastKey = more.lastKey;
      }
      if (found.length > page.limit) break;
    }
  }
  const tenants = found.slice(0, page.limit).map(toTenant);
  const last = tenants.at(-1);
  return { tenants, ...(found.length > page.limit && last ? { last: { name: last.name, id: last.id } } : {}) };
}

/** The audit record of a profile change, from the tenant as it was and as it becomes (lib/tenants/service). */
export type TenantAudit = (before: Tenant, after: Tenant) => AuditRecord;

/**
 * Set profile fields (null clears one); 404 when the tenant does not exist. Read the tenant
 * (consistent), then write the fields with the change's audit entry in one transaction,
 * conditioned on the tenant's `revision` (absent on a tenant never changed: 0) being the one
 * read and moving it on: the entry's before is exactly the profile replaced, and when another
 * change got in between, the condition fails and the change is made again on the new state.
 */
export function updateTenantProfile(tenantId: string, changes: Partial<TenantProfile>, now: string, audit: TenantAudit): Promise<Tenant> {
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<TenantProfile>;
  return reviseItem(
    keys.tenant(tenantId),
    toTenant,
    (before) => ({ after: { ...before, ...given, updatedAt: now }, fields: { ...given, updatedAt: now } }),
    audit,
    'No such tenant',
  );
}

/**
 * Set the tenant's administrative e-mail with the invitation of its base account, in one
 * transaction with the change's entry (and any profile changes given with it), revised as a
 * profile change is. 409 when the tenant already has its base account: the e-mail only
 * decides who may open it.
 */
export function setTenantAdminEmail(
  tenantId: string,
  changes: Partial<TenantProfile>,
  invitation: Invitation,
  now: string,
  audit: TenantAudit,
): Promise<Tenant> {
  const given = { ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)), adminEmail: invitation.email };
  return reviseItem(
    keys.tenant(tenantId),
    toTenant,
    (before) => {
      if (before.baseAccountUserId !== null) throw new Conflict('The tenant already has its administrator: invite other users from the tenant');
      return { after: { ...before, ...given, updatedAt: now }, fields: { ...given, updatedAt: now } };
    },
    audit,
    'No such tenant',
    [baseInvitationPut(invitation)],
  );
}

/**
 * Close a tenant: CLOSED, `closedAt` and `deletionDueAt` on its item, its place in the deletion
 * schedule and the close's entry, in one transaction conditioned on the status `expected` (the
 * one the service read): a close or reopen that got in between fails it, answered 409.
 */
export async function markTenantClosed(
  tenantId: string,
  expected: Tenant['status'],
  closedAt: string,
  deletionDueAt: string,
  audit: AuditRecord,
): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.tenant(tenantId),
              UpdateExpression: 'SET #status = :closed, closedAt = :closedAt, deletionDueAt = :due, updatedAt = :closedAt',
              ConditionExpression: 'attribute_exists(pk) AND #status = :expected',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':closed': 'CLOSED', ':closedAt': closedAt, ':due': deletionDueAt, ':expected': expected },
            },
          },
          {
            Put: {
              TableName: tableName(),
              Item: { ...keys.tenantDeletionDue(deletionDueAt, tenantId), type: TENANT_JOB_ITEMS.deletionDue, tenantId, deletionDueAt },
            },
          },
          ...auditItems(audit),
        ],
      }),
    );
  } catch (error) {
    if (failedConditions(error)) throw new Conflict('The tenant changed meanwhile: read it again');
    throw error;
  }
}

/**
 * Undo a close: ACTIVE again, its place in the schedule removed, with the reopen's entry, in
 * one transaction conditioned on the tenant being still CLOSED with this due time: once the
 * deletion job marked it DELETING, the condition fails (409).
 */
export async function markTenantReopened(tenantId: string, deletionDueAt: string, now: string, audit: AuditRecord): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.tenant(tenantId),
              UpdateExpression: 'SET #status = :active, updatedAt = :now REMOVE closedAt, deletionDueAt',
              ConditionExpression: '#status = :closed AND deletionDueAt = :due',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':active': 'ACTIVE', ':closed': 'CLOSED', ':due': deletionDueAt, ':now': now },
            },
          },
          { Delete: { TableName: tableName(), Key: keys.tenantDeletionDue(deletionDueAt, tenantId), ConditionExpression: 'attribute_exists(pk)' } },
          ...auditItems(audit),
        ],
      }),
    );
  } catch (error) {
    if (failedConditions(error)) throw new Conflict('The tenant is no longer closed: its deletion started, or it was reopened');
    throw error;
  }
}
