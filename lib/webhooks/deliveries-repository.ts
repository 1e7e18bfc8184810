import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DELIVERY_RETENTION_DAYS, type DeliveryRef, type DeliveryWork, type WebhookDelivery, type WebhookEvent } from './model';
import { db, tableName } from '../db/client';
import { conditionally, isConditionFailure } from '../db/conditions';
import { WEBHOOK_ITEMS } from '../db/item-types';
import { epochSeconds, fieldsOf, pick } from '../db/items';
import { gsi1, keys, WEBHOOK_DUE_SHARDS } from '../db/keys';

/**
 * Webhook deliveries: one item per event and endpoint, in the endpoint's list newest first
 * (keys.webhookDelivery), holding its attempts and the event it carries (so a retry needs no
 * other read), kept DELIVERY_RETENTION_DAYS. While pending it is also in the due index (gsi1
 * `webhookDue`, by `nextAttemptAt`), which the retry scheduler reads.
 *
 * Whoever attempts a delivery first claims it: `nextAttemptAt` is moved to the end of a lease
 * (a write conditioned on the value read), and the attempt is recorded only while that lease
 * is still the item's, so two schedulers (or the first attempt and a scheduler) never record
 * the same attempt twice, and an attempt whose process died is picked up once its lease ends.
 * A claimed item also holds `leased` until its attempt is recorded, which tells a lease from a
 * scheduled retry: an administrator's retry may bring a scheduled one forward, never take an
 * attempt's lease before it ends.
 */

const FIELDS = fieldsOf<WebhookDelivery>()(['id', 'tenantId', 'endpointId', 'eventId', 'eventType', 'status', 'attempts', 'nextAttemptAt', 'createdAt']);

export type DeliveryAttempt = WebhookDelivery['attempts'][number];

const keyOf = (delivery: DeliveryRef) => keys.webhookDelivery(delivery.tenantId, delivery.endpointId, delivery.createdAt, delivery.id);

const toWork = (item: Record<string, unknown>): DeliveryWork => ({ delivery: pick<WebhookDelivery>(item, FIELDS), event: item.event as WebhookEvent });

/**
 * Store a new delivery, pending and claimed until its `nextAttemptAt` (the first attempt's
 * lease). False when a delivery with its id is there already (lib/webhooks/delivery-id: the
 * same event to the same endpoint): nothing is written.
 */
export function insertDelivery(delivery: WebhookDelivery, event: WebhookEvent): Promise<boolean> {
  const due = delivery.status === 'pending' && delivery.nextAttemptAt !== null ? gsi1.webhookDue(delivery.id, delivery.nextAttemptAt) : {};
  return conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keyOf(delivery),
          ...due,
          type: WEBHOOK_ITEMS.delivery,
          ...delivery,
          event,
          leased: true,
          ttl: epochSeconds(delivery.createdAt) + DELIVERY_RETENTION_DAYS * 24 * 3600,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/**
 * Record an attempt (or none, when the delivery is given up without one) and its outcome,
 * while the caller's lease (`claimedUntil`) still holds. False when it no longer does (the
 * delivery was claimed again, or finished): nothing is written.
 */
export function recordAttempt(
  delivery: WebhookDelivery,
  attempt: DeliveryAttempt | null,
  outcome: { status: WebhookDelivery['status']; nextAttemptAt: string | null },
  claimedUntil: string,
): Promise<boolean> {
  const due = outcome.status === 'pending' && outcome.nextAttemptAt !== null ? gsi1.webhookDue(delivery.id, outcome.nextAttemptAt) : undefined;
  const sets = ['#status = :status', 'nextAttemptAt = :next'];
  const values: Record<string, unknown> = { ':status': outcome.status, ':next': outcome.nextAttemptAt, ':pending': 'pending', ':claim': claimedUntil };
  if (attempt) {
    sets.push('attempts = list_append(attempts, :attempt)');
    values[':attempt'] = [attempt];
  }
  if (due) {
    sets.push('gsi1pk = :gsi1pk', 'gsi1sk = :gsi1sk');
    Object.assign(values, { ':gsi1pk': due.gsi1pk, ':gsi1sk': due.gsi1sk });
  }
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(delivery),
        UpdateExpression: `SET ${sets.join(', ')} REMOVE leased${due ? '' : ', gsi1pk, gsi1sk'}`,
        ConditionExpression: '#status = :pending AND nextAttemptAt = :claim',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: values,
      }),
    ),
  );
}

/**
 * Claim a pending delivery whose `nextAttemptAt` is `seen` (what the caller read) until
 * `claimedUntil`; the claimed delivery, or undefined when another claimed or finished it first.
 */
export async function claimDelivery(delivery: WebhookDelivery, seen: string, claimedUntil: string): Promise<DeliveryWork | undefined> {
  const due = gsi1.webhookDue(delivery.id, claimedUntil);
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(delivery),
        UpdateExpression: 'SET nextAttemptAt = :claim, leased = :leased, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
        ConditionExpression: '#status = :pending AND nextAttemptAt = :seen',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':claim': claimedUntil,
          ':leased': true,
          ':gsi1pk': due.gsi1pk,
          ':gsi1sk': due.gsi1sk,
          ':pending': 'pending',
          ':seen': seen,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? toWork(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * The pending deliveries due at `now` (their `nextAttemptAt` passed), oldest due first within
 * each shard, at most `limit` per shard. The index is eventually consistent: each is claimed
 * (`claimDelivery`) before it is attempted.
 */
export async function listDue(now: string, limit: number): Promise<WebhookDelivery[]> {
  const shards = await Promise.all(
    Array.from({ length: WEBHOOK_DUE_SHARDS }, (_, shard) =>
      db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
          ExpressionAttributeValues: { ':pk': gsi1.webhookDueShard(shard).gsi1pk, ':now': `${now}#\uffff` },
          Limit: limit,
        }),
      ),
    ),
  );
  return shards.flatMap(({ Items = [] }) => Items.filter((item) => item.type === WEBHOOK_ITEMS.delivery).map((item) => pick<WebhookDelivery>(item, FIELDS)));
}

/** One delivery, with its event. */
export async function getDelivery(ref: DeliveryRef): Promise<DeliveryWork | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keyOf(ref), ConsistentRead: true }));
  return Item ? toWork(Item) : undefined;
}

/**
 * Claim a delivery for an administrator's retry, whatever its state, while it is still as read
 * (its status, its attempts, and for a pending one its `nextAttemptAt`) and no attempt holds
 * it (no lease, or one that ended before `now`): pending until `claimedUntil`, back in the due
 * index. Undefined when it changed meanwhile or another attempt is under way.
 */
export async function reopenDelivery(read: WebhookDelivery, now: string, claimedUntil: string): Promise<DeliveryWork | undefined> {
  const due = gsi1.webhookDue(read.id, claimedUntil);
  const pendingAsRead = read.status === 'pending' && read.nextAttemptAt !== null;
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(read),
        UpdateExpression: 'SET #status = :pending, nextAttemptAt = :claim, leased = :leased, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
        ConditionExpression: `#status = :read AND size(attempts) = :attempts${pendingAsRead ? ' AND nextAttemptAt = :seen' : ''} AND (attribute_not_exists(leased) OR nextAttemptAt < :now)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':claim': claimedUntil,
          ':leased': true,
          ':now': now,
          ':gsi1pk': due.gsi1pk,
          ':gsi1sk': due.gsi1sk,
          ':read': read.status,
          ':attempts': read.attempts.length,
          ...(pendingAsRead ? { ':seen': read.nextAttemptAt } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? toWork(Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** The endpoint's deliveries, newest first (at most `limit`). */
export async function listDeliveries(tenantId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
  return (await listDeliveryPage(tenantId, endpointId, { limit })).items;
}

/** Reads of one page at most: a filter that matches few deliveries answers a short page with a next one. */
const MAX_READS_PER_PAGE = 5;

/**
 * A page of the endpoint's deliveries, newest first, after the sort key `afterSk`, with only
 * the status and event type asked for (checked on the items read, so a filtered page may be
 * short and still have a next one). `lastSk` when another may follow.
 */
export async function listDeliveryPage(
  tenantId: string,
  endpointId: string,
  page: { limit: number; afterSk?: string; status?: WebhookDelivery['status']; eventType?: WebhookDelivery['eventType'] },
): Promise<{ items: WebhookDelivery[]; lastSk?: string }> {
  const pk = keys.webhookDeliveriesOf(tenantId, endpointId).pk;
  const filters: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':pk': pk };
  if (page.status !== undefined) {
    filters.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = page.status;
  }
  if (page.eventType !== undefined) {
    filters.push('eventType = :eventType');
    values[':eventType'] = page.eventType;
  }
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined = page.afterSk === undefined ? undefined : { pk, sk: page.afterSk };
  for (let read = 0; read < MAX_READS_PER_PAGE; read += 1) {
    const answer = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        ConsistentRead: true,
        // One more than the page, to know whether a next one exists.
        Limit: page.limit + 1 - found.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    found.push(...(answer.Items ?? []));
    start = answer.LastEvaluatedKey;
    if (found.length > page.limit || !start) break;
  }
  const items = found.slice(0, page.limit);
  const lastSk = found.length > page.limit ? String(items.at(-1)?.sk) : start ? String(start.sk) : undefined;
  return { items: items.map((item) => pick<WebhookDelivery>(item, FIELDS)), ...(lastSk === undefined ? {} : { lastSk }) };
}
