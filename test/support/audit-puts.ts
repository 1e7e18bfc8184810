import { expect } from 'vitest';
import type { AuditAction, AuditActor, AuditChange, AuditResourceType, AuditScope } from '../../lib/audit/model';
import { gsi1, keys } from '../../lib/db/keys';
import { settings } from '../../lib/settings';
import { EVENT_OF_ACTION } from '../../lib/events/catalogue';

/** A sort key of the trail: `occurredAt#id`, an ISO instant then a UUID. */
const ENTRY_SK = /^\d{4}-\d\d-\d\dT.*Z#[0-9a-f-]{36}$/;
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a test knows of the entry a change records; whatever it leaves out is matched loosely. */
export interface ExpectedAudit {
  /** The table the puts name (the handler tests' `test-table` unless told). */
  table?: string;
  trail: AuditScope;
  action: AuditAction;
  actor: AuditActor;
  resource: { type: AuditResourceType; id: string | null };
  requestId: string;
  sourceIp: string | null;
  userAgent: string | null;
  /** When the entry happened; unless told, any string (and the sort keys any instant). */
  occurredAt?: string;
  /** The entry's id; unless told, any string. */
  id?: string;
  /** The entry's expiry (epoch seconds); unless told, any number. */
  ttl?: number;
  changes?: AuditChange[] | null;
  /** The fields the change's domain event carries besides the resource's id and tenant (lib/events), when its action publishes one. */
  eventFields?: Record<string, unknown>;
}

/** The sort key every copy has: exact when the instant and the id are known, else its shape (and instant, when known). */
function sortKey({ occurredAt, id }: ExpectedAudit): unknown {
  if (occurredAt !== undefined && id !== undefined) return `${occurredAt}#${id}`;
  if (occurredAt !== undefined) return expect.stringMatching(new RegExp(`^${escaped(occurredAt)}#[0-9a-f-]{36}$`));
  return expect.stringMatching(ENTRY_SK);
}

/** The entry's attributes, the same in each of its copies: never its origin (IP address, User-Agent). */
const entryOf = (audit: ExpectedAudit) => ({
  type: 'AuditEntry',
  id: audit.id ?? expect.any(String),
  occurredAt: audit.occurredAt ?? expect.any(String),
  actor: audit.actor,
  action: audit.action,
  resource: audit.resource,
  requestId: audit.requestId,
  changes: audit.changes ?? null,
  ttl: audit.ttl ?? expect.any(Number),
});

/**
 * The put of the entry's origin, once, in an item apart (lib/audit/repository
 * `originItem`): its TTL the access records' period after the entry (exact when the instant is
 * known), never after the entry. None when the entry has no origin.
 */
export function expectedOriginPut(audit: ExpectedAudit) {
  if (audit.sourceIp === null && audit.userAgent === null) return undefined;
  const period = audit.occurredAt === undefined ? undefined : Math.floor(Date.parse(audit.occurredAt) / 1000) + settings.accessRecordRetentionDays * 86_400;
  const ttl = period === undefined ? expect.any(Number) : audit.ttl === undefined ? period : Math.min(period, audit.ttl);
  const pk = `${keys.auditTrailOf(audit.trail).pk}#ORIGIN`;
  return {
    TableName: audit.table ?? 'test-table',
    Item: { pk, sk: sortKey(audit), type: 'AuditOrigin', sourceIp: audit.sourceIp, userAgent: audit.userAgent, ttl },
  };
}

/** A lone entry's puts, in order (a failed login: lib/audit/repository `putLoneEntry`): the trail's copy, then its origin. */
export function expectedLonePuts(audit: ExpectedAudit) {
  const origin = expectedOriginPut(audit);
  return [expectedTrailPut(audit), ...(origin ? [origin] : [])];
}

/** The put of the trail's own copy of the entry (listed by action through gsi1): a lone put's input, or the first of `expectedAuditPuts`. */
export function expectedTrailPut(audit: ExpectedAudit) {
  const sk = sortKey(audit);
  return {
    TableName: audit.table ?? 'test-table',
    Item: { pk: keys.auditTrailOf(audit.trail).pk, sk, gsi1pk: gsi1.auditOfAction(audit.trail, audit.action).gsi1pk, gsi1sk: sk, ...entryOf(audit) },
  };
}

/**
 * The puts that record a change, last in its transaction (lib/audit/repository,
 * `auditItems`): the trail's copy (by action on gsi1), the actor's (its user id, else
 * `system` or `anonymous`; by resource type on gsi1) and the resource's when it has an id,
 * each the entry without its origin; its origin once (when it has one); then the change's
 * domain event when its action publishes one.
 */
export function expectedAuditPuts(audit: ExpectedAudit) {
  const { trail, actor, resource } = audit;
  const table = audit.table ?? 'test-table';
  const sk = sortKey(audit);
  const entry = entryOf(audit);
  const actorKey = actor.type === 'user' && actor.id !== null ? actor.id : actor.type;
  const puts: { Put: { TableName: string; Item: Record<string, unknown> } }[] = [
    { Put: expectedTrailPut(audit) },
    {
      Put: {
        TableName: table,
        Item: { pk: keys.auditOfActor(trail, actorKey).pk, sk, gsi1pk: gsi1.auditOfType(trail, resource.type).gsi1pk, gsi1sk: sk, ...entry },
      },
    },
  ];
  if (resource.id !== null) puts.push({ Put: { TableName: table, Item: { pk: keys.auditOfResource(trail, resource.id).pk, sk, ...entry } } });
  const origin = expectedOriginPut(audit);
  if (origin) puts.push({ Put: origin });
  // The change's domain event, in the same transaction (the outbox: lib/events).
  const type = EVENT_OF_ACTION[audit.action];
  if (type !== undefined && trail !== 'platform' && resource.id !== null) {
    const timestamp = audit.occurredAt ?? expect.any(String);
    puts.push({
      Put: {
        TableName: table,
        Item: {
          pk: keys.eventsOf(trail.tenantId).pk,
          sk: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z#[0-9a-f-]{36}$/) as unknown,
          gsi1pk: gsi1.eventsOfType(trail.tenantId, type).gsi1pk,
          gsi1sk: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z#[0-9a-f-]{36}$/) as unknown,
          type: 'Event',
          event: { id: expect.any(String), type, timestamp, data: { ...audit.eventFields, id: resource.id, tenantId: trail.tenantId } },
          ttl: expect.any(Number),
        },
      },
    });
  }
  return puts;
}
