import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Conflict, NotFound } from '../../errors';
import type { Tenant, TenantProfile } from '../../tenants/model';
import { TENANT_ITEMS } from '../item-types';

import { db, tableName } from '../client';
import { completionItems, keyTakenOver, type KeyCompletion } from './idempotency';
import { failedConditions, isConditionFailure } from '../conditions';
import { fieldsOf, pick, setOrRemove, withoutNulls } from '../items';
import { gsi1, keys } from '../keys';

export type { Tenant };

const FIELDS = fieldsOf<Omit<Tenant, 'platform'>>()(['id', 'name', 'brandName', 'document', 'address', 'phone', 'logoUrl', 'plan', 'adminEmail', 'status', 'baseAccountUserId', 'createdAt', 'updatedAt']);

/** Item -> Tenant, dropping the key attributes (`platform` only on the marked tenant). */
export const toTenant = (item: Record<string, unknown>): Tenant => ({
  ...pick<Omit<Tenant, 'platform'>>(item, FIELDS),
  ...(item.platform === true ? { platform: true as const } : {}),
});

/** Create the tenant and claim its name in one transaction; 409 when the name is taken. */
export async function insertTenant(tenant: Tenant, key?: KeyCompletion): Promise<void> {
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
          ...completionItems(key),
        ],
      }),
    );
  } catch (error) {
    keyTakenOver(error, 2);
    if (failedConditions(error)) throw new Conflict(`A tenant named '${tenant.name}' already exists`);
    throw error;
  }
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

/** Every tenant, by name, following the pagination to the end. */
export async function listTenants(): Promise<Tenant[]> {
  const tenants: Tenant[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': gsi1.allTenants().gsi1pk },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) tenants.push(toTenant(item));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return tenants;
}

/** Set profile fields (null clears one); 404 when the tenant does not exist. */
export async function updateTenantProfile(tenantId: string, changes: Partial<TenantProfile>, now: string): Promise<Tenant> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tenant(tenantId),
        ...setOrRemove({ ...changes, updatedAt: now }),
        ConditionExpression: 'attribute_exists(pk)',
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toTenant(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw new NotFound('No such tenant');
    throw error;
  }
}
