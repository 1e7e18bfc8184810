import { PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuditAction, AuditEntry, AuditRecord, AuditResourceType, AuditScope } from './model';
import { storeConfig } from '../config';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { conditionally, failedConditions } from '../db/conditions';
import { AUDIT_ITEMS, EVENT_ITEMS } from '../db/item-types';
import { EVENT_RETENTION_DAYS, type DomainEvent } from '../events/model';
import { fieldsOf, pick } from '../db/items';
import { gsi1, keys } from '../db/keys';

const FIELDS = fieldsOf<AuditEntry>()(['id', 'occurredAt', 'actor', 'action', 'resource', 'requestId', 'sourceIp', 'userAgent', 'changes']);

/** An entry without its origin: what each of its copies holds (the origin is an item apart, see `originItem`). */
type StoredEntry = Omit<AuditEntry, 'sourceIp' | 'userAgent'>;

/** The entry's attributes, the same in each of its copies: everything but its origin. */
const entryAttributes = ({ entry, expiresAtEpoch }: AuditRecord) => {
  const { sourceIp: _ip, userAgent: _agent, ...stored } = entry;
  return { type: AUDIT_ITEMS.entry, ...(stored satisfies StoredEntry), ttl: expiresAtEpoch };
};

/**
 * When an entry's origin expires (TTL, epoch seconds): ACCESS_RECORD_RETENTION_DAYS after the
 * entry occurred (Marco Civil Art. 15: access records for 6 months), never after the entry.
 */
export function originExpiresAtEpoch(record: Pick<AuditRecord, 'entry' | 'expiresAtEpoch'>): number {
  const period = Math.floor(Date.parse(record.entry.occurredAt) / 1000) + storeConfig().ACCESS_RECORD_RETENTION_DAYS * 24 * 3600;
  return Math.min(period, record.expiresAtEpoch);
}

/**
 * An entry's origin, once per entry, apart from its copies (docs/decisions.md, "Access records
 * apart from the trail"): its own TTL removes the IP address and User-Agent after the access
 * records' period while the entry stays. None when the entry has no origin (a job, a script).
 */
function originItem(record: AuditRecord): Record<string, unknown> | undefined {
  const { scope, entry } = record;
  if (entry.sourceIp === null && entry.userAgent === null) return undefined;
  return {
    ...keys.auditOrigin(scope, entry.occurredAt, entry.id),
    type: AUDIT_ITEMS.origin,
    sourceIp: entry.sourceIp,
    userAgent: entry.userAgent,
    ttl: originExpiresAtEpoch(record),
  };
}

/** The key an actor's list is under: the user's or the API key's id, else `system` or `anonymous`. */
const actorKey = (entry: AuditEntry): string =>
  (entry.actor.type === 'user' || entry.actor.type === 'api-key') && entry.actor.id !== null ? entry.actor.id : entry.actor.type;

/** A domain event as stored: in its tenant's list by time (and by type on gsi1), kept EVENT_RETENTION_DAYS. */
const eventItem = (event: DomainEvent) => ({
  ...keys.event(event.data.tenantId, event.timestamp, event.id),
  ...gsi1.eventsByType(event.data.tenantId, event.type, event.timestamp, event.id),
  type: EVENT_ITEMS.event,
  event,
  ttl: Math.floor(Date.parse(event.timestamp) / 1000) + EVENT_RETENTION_DAYS * 24 * 3600,
});

/** The trail's own copy, listed by action through gsi1. */
const trailCopy = (record: AuditRecord) => ({
  ...keys.auditEntry(record.scope, record.entry.occurredAt, record.entry.id),
  ...gsi1.auditByAction(record.scope, record.entry.action, record.entry.occurredAt, record.entry.id),
  ...entryAttributes(record),
});

/**
 * The puts that record a change, for the change's own transaction: the entry, without its
 * origin, in each list a filter reads (lib/db/keys, `auditEntry`): the trail (by action on
 * gsi1), its actor's (by resource type on gsi1) and its resource's when it has an id; and its
 * origin once, in an item of its own that expires sooner (`originItem`). An entry's id is new,
 * so the puts need no condition; if the transaction fails, none is written.
 */
export function auditItems(record: AuditRecord): TransactItem[] {
  const { scope, entry } = record;
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: trailCopy(record) } },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.auditByActor(scope, actorKey(entry), entry.occurredAt, entry.id),
          ...gsi1.auditByType(scope, entry.resource.type, entry.occurredAt, entry.id),
          ...entryAttributes(record),
        },
      },
    },
  ];
  if (entry.resource.id !== null) {
    items.push({
      Put: { TableName: tableName(), Item: { ...keys.auditByResource(scope, entry.resource.id, entry.occurredAt, entry.id), ...entryAttributes(record) } },
    });
  }
  const origin = originItem(record);
  if (origin) items.push({ Put: { TableName: tableName(), Item: origin } });
  // The change's domain event (the transactional outbox, lib/events): in the same transaction as the entry.
  if (record.event) items.push(eventPut(record.event));
  return items;
}

/** The put of a domain event for its change's transaction: an action's (above), or a derived one (lib/events/catalogue `DERIVED_EVENTS`). */
export const eventPut = (event: DomainEvent): TransactItem => ({ Put: { TableName: tableName(), Item: eventItem(event) } });

/**
 * A change and its entry in one transaction. False when the condition of the change's first
 * item failed (nothing was written); any other cancellation is thrown.
 */
export async function writeWithEntry(change: TransactItem[], audit: AuditRecord): Promise<boolean> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [...change, ...auditItems(audit)] }));
    return true;
  } catch (error) {
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}

/**
 * An event that changes nothing else (a failed login): the trail's copy alone, so it is listed
 * unfiltered, by action and by time, then its origin: two unconditional puts at one write unit
 * each, not a transaction (four), as a flood of failed logins would pay for. There is no change
 * to keep them together with; an origin put that fails leaves the entry answering null.
 */
export async function putLoneEntry(record: AuditRecord): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: trailCopy(record) }));
  const origin = originItem(record);
  if (origin) await db().send(new PutCommand({ TableName: tableName(), Item: origin }));
}

/**
 * The deletes that take an entry back, for the transaction that undoes its change (an
 * invitation whose e-mail could not be sent): an entry never outlives its change.
 */
export const auditItemsUndone = (record: AuditRecord): TransactItem[] =>
  auditItems(record).map((item) => ({ Delete: { TableName: tableName(), Key: { pk: item.Put?.Item?.pk as string, sk: item.Put?.Item?.sk as string } } }));

/** What a page of the trail asks for. */
export interface AuditFilter {
  actorId?: string;
  action?: AuditAction;
  resourceType?: AuditResourceType;
  resourceId?: string;
}

export interface AuditPageRequest {
  filter: AuditFilter;
  /** Sort-key bounds, both inclusive (`occurredAt#id`). */
  fromSk: string;
  toSk: string;
  limit: number;
  /** Where the previous page stopped (the keys of the list read), from its cursor. */
  after?: Record<string, string>;
}

/** Which list a filter reads: the narrowest one it names; whatever else it names is checked on the entries read. */
function listFor(scope: AuditScope, filter: AuditFilter): { index?: 'gsi1'; keyName: string; key: string; checked: (keyof AuditFilter)[] } {
  const rest = (used: keyof AuditFilter) =>
    (['actorId', 'action', 'resourceType', 'resourceId'] as const).filter((name) => name !== used && filter[name] !== undefined);
  if (filter.resourceId !== undefined) return { keyName: 'pk', key: keys.auditOfResource(scope, filter.resourceId).pk, checked: rest('resourceId') };
  if (filter.actorId !== undefined) return { keyName: 'pk', key: keys.auditOfActor(scope, filter.actorId).pk, checked: rest('actorId') };
  if (filter.action !== undefined) return { index: 'gsi1', keyName: 'gsi1pk', key: gsi1.auditOfAction(scope, filter.action).gsi1pk, checked: rest('action') };
  if (filter.resourceType !== undefined) return { index: 'gsi1', keyName: 'gsi1pk', key: gsi1.auditOfType(scope, filter.resourceType).gsi1pk, checked: [] };
  return { keyName: 'pk', key: keys.auditTrailOf(scope).pk, checked: [] };
}

/**
 * Where each filter is checked on an entry read from a list that is not its own. The actor
 * `system` has no id: its entries are the ones whose actor's type is `system`.
 */
type FilterPath = { expression: string; names: Record<string, string> };
const FILTER_PATHS: Record<keyof AuditFilter, (value: string) => FilterPath> = {
  actorId: (value): FilterPath =>
    value === 'system'
      ? { expression: '#actor.#actorType = :actorId', names: { '#actor': 'actor', '#actorType': 'type' } }
      : { expression: '#actor.#id = :actorId', names: { '#actor': 'actor', '#id': 'id' } },
  action: () => ({ expression: '#action = :action', names: { '#action': 'action' } }),
  resourceType: () => ({ expression: '#resource.#type = :resourceType', names: { '#resource': 'resource', '#type': 'type' } }),
  resourceId: () => ({ expression: '#resource.#id = :resourceId', names: { '#resource': 'resource', '#id': 'id' } }),
};

/**
 * One Query per page, newest first, on the list the filter names (see `listFor`); a second
 * filter is checked on the entries that Query reads, so such a page may hold fewer than
 * `limit` entries (even none) and still have a next one. Lists on gsi1 are eventually
 * consistent (an entry shows there within about a second).
 */
export async function readAuditPage(scope: AuditScope, request: AuditPageRequest): Promise<{ entries: AuditEntry[]; next?: Record<string, string> }> {
  const list = listFor(scope, request.filter);
  const sortKey = list.index ? 'gsi1sk' : 'sk';
  const names: Record<string, string> = { '#key': list.keyName, '#sort': sortKey };
  const values: Record<string, unknown> = { ':key': list.key, ':from': request.fromSk, ':to': request.toSk };
  const filters: string[] = [];
  for (const name of list.checked) {
    const value = request.filter[name] as string;
    const path = FILTER_PATHS[name](value);
    filters.push(path.expression);
    Object.assign(names, path.names);
    values[`:${name}`] = value;
  }
  const input: QueryCommandInput = {
    TableName: tableName(),
    ...(list.index ? { IndexName: list.index } : { ConsistentRead: true }),
    KeyConditionExpression: '#key = :key AND #sort BETWEEN :from AND :to',
    ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: false,
    // One more than the page: without a second filter, a next page exists only if that one came back.
    Limit: request.limit + 1,
    ...(request.after ? { ExclusiveStartKey: request.after } : {}),
  };
  const { Items = [], LastEvaluatedKey } = await db().send(new QueryCommand(input));
  const page = Items.slice(0, request.limit);
  const last = page.at(-1);
  const positionOf = (item: Record<string, unknown>) => {
    const position: Record<string, string> = { pk: item.pk as string, sk: item.sk as string };
    if (list.index) Object.assign(position, { gsi1pk: item.gsi1pk as string, gsi1sk: item.gsi1sk as string });
    return position;
  };
  const next = Items.length > request.limit && last ? positionOf(last) : LastEvaluatedKey ? (LastEvaluatedKey as Record<string, string>) : undefined;
  const wholeTrail = list.keyName === 'pk' && list.key === keys.auditTrailOf(scope).pk;
  return {
    entries: await withOrigins(
      scope,
      page.map((item) => pick<AuditEntry>(item, FIELDS)),
      wholeTrail,
    ),
    ...(next ? { next } : {}),
  };
}

/**
 * Entries read from a list, each with its origin. A page of the whole trail holds every entry
 * of its time range, so their origins are the origin list's same range: one Query, billed by
 * the bytes read (a 50-entry page's origins, about 10 KB, are 3 read units). A filtered page's
 * range holds other entries' origins too: its own are read by key, one BatchGetItem (100 keys a
 * call, unprocessed keys asked again: lib/db/batch), one read unit each. Both are consistent,
 * so an entry just written shows its origin. An entry whose origin has expired (or that never
 * had one) answers null for both; one written before origins were kept apart still holds them
 * on its copies until `npm run migrate` moves them, and they are not read from there.
 */
async function withOrigins(scope: AuditScope, entries: AuditEntry[], wholeTrail: boolean): Promise<AuditEntry[]> {
  if (entries.length === 0) return entries;
  const keyList = entries.map((entry) => keys.auditOrigin(scope, entry.occurredAt, entry.id));
  const origins = wholeTrail ? await originsInRange(keyList) : await getMany(keyList);
  const nowEpoch = Math.floor(Date.now() / 1000);
  return entries.map((entry, index) => {
    const origin = origins[index];
    // TTL removes an item within days of its time, not at it: one past its time is already gone.
    const live = origin !== undefined && !(typeof origin.ttl === 'number' && origin.ttl <= nowEpoch);
    return {
      ...entry,
      sourceIp: live ? ((origin.sourceIp as string | null | undefined) ?? null) : null,
      userAgent: live ? ((origin.userAgent as string | null | undefined) ?? null) : null,
    };
  });
}

/** The origins under `keyList` (one partition, newest first), read as the range from the last key to the first; missing ones undefined. */
async function originsInRange(keyList: { pk: string; sk: string }[]): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const sks = keyList.map((key) => key.sk).sort();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        ConsistentRead: true,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
        ExpressionAttributeValues: { ':pk': keyList[0]?.pk, ':first': sks[0], ':last': sks.at(-1) },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) found.set(item.sk as string, item);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return keyList.map((key) => found.get(key.sk));
}

/**
 * The one-off move of one trail's origins (`npm run migrate`, lib/privacy/access-records):
 * entries written before origins were kept apart hold them on each copy. Each such entry, read
 * from the trail (which holds every entry), gets its origin item, expiring by the same rule as
 * a new one's, unless its period is already over (then the origin is only dropped); then the IP
 * address and User-Agent are removed from its copies, the trail's last, so a run cut short is
 * found again by the next. Idempotent: the origin is put only if absent, a removal only from a
 * copy that exists, and a moved entry is no longer read.
 */
export async function moveOriginsOfTrail(scope: AuditScope, nowMs: number): Promise<{ moved: number; dropped: number }> {
  const counts = { moved: 0, dropped: 0 };
  const nowEpoch = Math.floor(nowMs / 1000);
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'attribute_exists(sourceIp) OR attribute_exists(userAgent)',
        ExpressionAttributeValues: { ':pk': keys.auditTrailOf(scope).pk },
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      const entry = pick<AuditEntry>(item, FIELDS);
      const record: AuditRecord = { scope, entry, expiresAtEpoch: typeof item.ttl === 'number' ? item.ttl : Number.MAX_SAFE_INTEGER };
      const origin = originItem(record);
      if (origin && (origin.ttl as number) > nowEpoch) {
        await conditionally(db().send(new PutCommand({ TableName: tableName(), Item: origin, ConditionExpression: 'attribute_not_exists(pk)' })));
        counts.moved += 1;
      } else {
        counts.dropped += 1;
      }
      const copies = [
        keys.auditByActor(scope, actorKey(entry), entry.occurredAt, entry.id),
        ...(entry.resource.id !== null ? [keys.auditByResource(scope, entry.resource.id, entry.occurredAt, entry.id)] : []),
        keys.auditEntry(scope, entry.occurredAt, entry.id),
      ];
      for (const Key of copies) {
        // A lone entry (a failed login) has the trail's copy only: the condition keeps the others from being created.
        await conditionally(
          db().send(
            new UpdateCommand({ TableName: tableName(), Key, UpdateExpression: 'REMOVE sourceIp, userAgent', ConditionExpression: 'attribute_exists(pk)' }),
          ),
        );
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return counts;
}

/**
 * Rewrites an entry's actor and changes in each of its copies (the trail's, its actor's list
 * and its resource's: the keys `auditItems` writes), one UpdateItem each, leaving its ids,
 * action, times, keys and index attributes as they are. A copy that is gone (TTL) is left
 * gone. For anonymizing a removed user (lib/auth/anonymize): the actor's id stays, so the
 * actor's list key is the same before and after.
 */
export async function rewriteEntryCopies(scope: AuditScope, entry: AuditEntry, next: Pick<AuditEntry, 'actor' | 'changes'>): Promise<void> {
  const copies = [keys.auditEntry(scope, entry.occurredAt, entry.id), keys.auditByActor(scope, actorKey(entry), entry.occurredAt, entry.id)];
  if (entry.resource.id !== null) copies.push(keys.auditByResource(scope, entry.resource.id, entry.occurredAt, entry.id));
  for (const key of copies) {
    await conditionally(
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key,
          UpdateExpression: 'SET #actor = :actor, #changes = :changes',
          ConditionExpression: 'attribute_exists(pk) AND #id = :id',
          ExpressionAttributeNames: { '#actor': 'actor', '#changes': 'changes', '#id': 'id' },
          ExpressionAttributeValues: { ':actor': next.actor, ':changes': next.changes, ':id': entry.id },
        }),
      ),
    );
  }
}
