import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import type { EventType } from '../domain/events';
import type { WebhookEndpoint, WebhookSecrets } from './model';
import { db, tableName } from '../db/client';
import { WEBHOOK_ITEMS } from '../db/item-types';
import { fieldsOf, pick, setOrRemove, withoutNulls } from '../db/items';
import { keys } from '../db/keys';
import { auditItems, writeWithEntry } from '../audit/repository';
import { conditionally, failedConditions } from '../db/conditions';

/**
 * Webhook endpoints and their signing secrets: two items, the endpoint in its tenant's
 * partition (`WEBHOOK#<id>`), the secrets in a partition of their own that only the functions
 * that sign or rotate may read (lib/db/keys `webhookSecrets`). Both are written and deleted
 * together, with the change's audit entry, in one transaction.
 */

const ENDPOINT_FIELDS = fieldsOf<WebhookEndpoint>()([
  'id',
  'tenantId',
  'url',
  'description',
  'events',
  'enabled',
  'disabledReason',
  'failingSince',
  'createdAt',
  'updatedAt',
]);
const SECRET_FIELDS = fieldsOf<WebhookSecrets>()(['tenantId', 'endpointId', 'current', 'previous', 'previousExpiresAt']);

/** An endpoint as read (absent fields as null). */
export const toEndpoint = (item: Record<string, unknown>): WebhookEndpoint => pick<WebhookEndpoint>(item, ENDPOINT_FIELDS);
const toSecrets = (item: Record<string, unknown>): WebhookSecrets => pick<WebhookSecrets>(item, SECRET_FIELDS);

const endpointItem = (endpoint: WebhookEndpoint) => ({
  ...keys.webhookEndpoint(endpoint.tenantId, endpoint.id),
  type: WEBHOOK_ITEMS.endpoint,
  ...withoutNulls(endpoint),
});
const secretsItem = (secrets: WebhookSecrets) => ({
  ...keys.webhookSecrets(secrets.tenantId, secrets.endpointId),
  type: WEBHOOK_ITEMS.secrets,
  ...withoutNulls(secrets),
});

/** Store a new endpoint and its secrets with the entry; false when its id is taken. */
export async function insertEndpoint(
  endpoint: WebhookEndpoint,
  secrets: WebhookSecrets,
  audit: AuditRecord,
  maxPerTenant: number,
): Promise<'stored' | 'id-taken' | 'full'> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: endpointItem(endpoint), ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: tableName(), Item: secretsItem(secrets), ConditionExpression: 'attribute_not_exists(pk)' } },
          // The tenant's count, conditioned on staying under the cap: N registrations at once store at most the cap.
          {
            Update: {
              TableName: tableName(),
              Key: keys.webhookEndpointCount(endpoint.tenantId),
              UpdateExpression: 'ADD #n :one',
              ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
              ExpressionAttributeNames: { '#n': 'n' },
              ExpressionAttributeValues: { ':one': 1, ':max': maxPerTenant },
            },
          },
          ...auditItems(audit),
        ],
      }),
    );
    return 'stored';
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(2)) return 'full';
    if (failed?.includes(0) || failed?.includes(1)) return 'id-taken';
    throw error;
  }
}

export async function getEndpoint(tenantId: string, id: string): Promise<WebhookEndpoint | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookEndpoint(tenantId, id), ConsistentRead: true }));
  return Item ? toEndpoint(Item) : undefined;
}

/** A page of the tenant's endpoints, by id, after the key `afterSk`. */
export async function listEndpointPage(tenantId: string, page: { limit: number; afterSk?: string }): Promise<{ items: WebhookEndpoint[]; lastSk?: string }> {
  const { pk, skPrefix } = keys.webhookEndpointsOf(tenantId);
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: page.afterSk === undefined ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk AND sk BETWEEN :after AND :end',
      ExpressionAttributeValues:
        page.afterSk === undefined ? { ':pk': pk, ':prefix': skPrefix } : { ':pk': pk, ':after': page.afterSk, ':end': `${skPrefix}\uffff` },
      ConsistentRead: true,
      // One more, to know whether a next page exists; BETWEEN includes the last key of the page before.
      Limit: page.limit + 1 + (page.afterSk === undefined ? 0 : 1),
    }),
  );
  const after = page.afterSk === undefined ? Items : Items.filter((item) => item.sk !== page.afterSk);
  const items = after.slice(0, page.limit);
  return { items: items.map(toEndpoint), ...(after.length > page.limit ? { lastSk: String(items.at(-1)?.sk) } : {}) };
}

/**
 * The tenant's enabled endpoints subscribed to `eventType`: what a delivery fans an event out
 * to. Reads every page of the tenant's endpoints (a tenant has few), strongly consistent, so an
 * endpoint disabled or unsubscribed a moment ago is not delivered to.
 */
export async function listEndpointsFor(tenantId: string, eventType: EventType): Promise<WebhookEndpoint[]> {
  const { pk, skPrefix } = keys.webhookEndpointsOf(tenantId);
  const found: WebhookEndpoint[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'enabled = :true AND contains(events, :type)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ':true': true, ':type': eventType },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    found.push(...(page.Items ?? []).map(toEndpoint));
    start = page.LastEvaluatedKey;
  } while (start);
  return found;
}

/** What an update may change. */
export type EndpointChanges = Partial<Pick<WebhookEndpoint, 'url' | 'events' | 'enabled' | 'description' | 'disabledReason' | 'failingSince'>>;

/**
 * Change an endpoint with its entry, conditioned on the version read (`read.updatedAt`): of two
 * parallel updates one wins and the other is refused (false), as is an update of an endpoint
 * deleted meanwhile. A null value removes the field.
 */
export function updateEndpoint(read: WebhookEndpoint, changes: EndpointChanges, updatedAt: string, audit: AuditRecord): Promise<boolean> {
  const update = setOrRemove({ ...changes, updatedAt });
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: keys.webhookEndpoint(read.tenantId, read.id),
          ...update,
          ConditionExpression: 'updatedAt = :read',
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':read': read.updatedAt },
        },
      },
    ],
    audit,
  );
}

/** Delete an endpoint and its secrets with the entry; false when there is no such endpoint. */
export function deleteEndpoint(tenantId: string, id: string, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry(
    [
      { Delete: { TableName: tableName(), Key: keys.webhookEndpoint(tenantId, id), ConditionExpression: 'attribute_exists(pk)' } },
      { Delete: { TableName: tableName(), Key: keys.webhookSecrets(tenantId, id) } },
      {
        Update: {
          TableName: tableName(),
          Key: keys.webhookEndpointCount(tenantId),
          UpdateExpression: 'ADD #n :minus',
          ExpressionAttributeNames: { '#n': 'n' },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ],
    audit,
  );
}

/** An endpoint's signing secrets (the current one, and the previous one until it expires). */
export async function getSecrets(tenantId: string, id: string): Promise<WebhookSecrets | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.webhookSecrets(tenantId, id), ConsistentRead: true }));
  return Item ? toSecrets(Item) : undefined;
}

/**
 * A new current secret, conditioned on the current one read (`readCurrent`), which becomes the
 * previous one until `previousExpiresAt`; the one before it is dropped. Of two parallel rotations
 * one wins and the other is refused (false), as is a rotation of an endpoint deleted meanwhile.
 */
export function rotateSecrets(
  tenantId: string,
  id: string,
  readCurrent: string,
  current: string,
  previousExpiresAt: string,
  audit: AuditRecord,
): Promise<boolean> {
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: keys.webhookSecrets(tenantId, id),
          UpdateExpression: 'SET #current = :current, previous = :read, previousExpiresAt = :expires',
          ConditionExpression: '#current = :read',
          ExpressionAttributeNames: { '#current': 'current' },
          ExpressionAttributeValues: { ':current': current, ':read': readCurrent, ':expires': previousExpiresAt },
        },
      },
    ],
    audit,
  );
}

/**
 * Disable an enabled endpoint for `reason` with its entry (lib/webhooks/service `disableEndpoint`
 * builds it), at the entry's instant. False when it was already disabled (its first reason stays)
 * or deleted: nothing is written then.
 */
export function disableEndpoint(tenantId: string, id: string, reason: NonNullable<WebhookEndpoint['disabledReason']>, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: keys.webhookEndpoint(tenantId, id),
          UpdateExpression: 'SET enabled = :false, disabledReason = :reason, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND enabled = :true',
          ExpressionAttributeValues: { ':false': false, ':true': true, ':reason': reason, ':now': audit.entry.occurredAt },
        },
      },
    ],
    audit,
  );
}

/**
 * Since when an endpoint's deliveries fail (null: the last succeeded), if it is still `read`:
 * one write when the endpoint turns failing or healthy, none per attempt. Not a change of the
 * endpoint by anyone (no entry, and `updatedAt` stays, so an administrator's edit is not refused
 * for it); nothing is written to an endpoint deleted meanwhile.
 */
export async function setFailingSince(endpoint: Pick<WebhookEndpoint, 'tenantId' | 'id'>, read: string | null, value: string | null): Promise<void> {
  await conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookEndpoint(endpoint.tenantId, endpoint.id),
        UpdateExpression: value === null ? 'REMOVE failingSince' : 'SET failingSince = :value',
        ConditionExpression: read === null ? 'attribute_exists(pk) AND attribute_not_exists(failingSince)' : 'attribute_exists(pk) AND failingSince = :read',
        ...(value === null && read === null
          ? {}
          : { ExpressionAttributeValues: { ...(value === null ? {} : { ':value': value }), ...(read === null ? {} : { ':read': read }) } }),
      }),
    ),
  );
}
