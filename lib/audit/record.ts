import { randomUUID } from 'node:crypto';
import { storeConfig } from '../config';
import { currentOrigin } from './context';
import type { DomainEvent, EventFields } from '../domain/events';
import { EVENT_OF_ACTION } from '../events/catalogue';
import type { AuditAction, AuditActor, AuditChange, AuditRecord, AuditResourceType, AuditScope } from './model';

/** A User-Agent is the client's to choose: kept to its first 512 characters. */
export const MAX_USER_AGENT = 512;

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, name: null };
export const ANONYMOUS_ACTOR: AuditActor = { type: 'anonymous', id: null, name: null };
export const userActor = (user: { id: string; name: string }): AuditActor => ({ type: 'user', id: user.id, name: user.name });
export const keyActor = (key: { id: string; name: string }): AuditActor => ({ type: 'api-key', id: key.id, name: key.name });

/** What a service says about its change; the request it happens in supplies the rest. */
export interface AuditEvent {
  scope: AuditScope;
  action: AuditAction;
  resource: { type: AuditResourceType; id: string | null };
  /** For updates (lib/audit/record `changesOf`). */
  changes?: AuditChange[];
  /** Who, when the request does not say (a public route: the user who logged in, registered or reset). */
  actor?: AuditActor;
  /** What the change's domain event carries besides the resource's id and tenant (lib/events: the fields a receiver routes on). */
  eventFields?: EventFields;
}

/**
 * The audit record of a change made at `nowMs`, for its repository to write in the change's
 * own transaction. The actor is the event's, else the signed-in caller's, else the system's
 * (outside a request) or nobody's (a public request).
 */
export function auditRecord(event: AuditEvent, nowMs: number): AuditRecord {
  const origin = currentOrigin();
  const occurredAt = new Date(nowMs).toISOString();
  const published = domainEvent(event, occurredAt);
  return {
    ...(published ? { event: published } : {}),
    scope: event.scope,
    entry: {
      id: randomUUID(),
      occurredAt,
      actor: event.actor ?? origin?.actor ?? (origin ? ANONYMOUS_ACTOR : SYSTEM_ACTOR),
      action: event.action,
      resource: event.resource,
      requestId: origin?.requestId ?? `system-${randomUUID()}`,
      sourceIp: origin?.sourceIp ?? null,
      userAgent: origin?.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      changes: event.changes ?? null,
    },
    expiresAtEpoch: Math.floor(nowMs / 1000) + storeConfig().AUDIT_RETENTION_DAYS * 24 * 60 * 60,
  };
}

/**
 * The domain event of a tenant's change whose action publishes one (lib/events/catalogue,
 * EVENT_OF_ACTION), at the instant of its entry; none for the platform's trail or a change
 * without a resource id.
 */
function domainEvent(event: AuditEvent, timestamp: string): DomainEvent | undefined {
  const type = EVENT_OF_ACTION[event.action];
  if (type === undefined || event.scope === 'platform' || event.resource.id === null) return undefined;
  return { id: randomUUID(), type, timestamp, data: { ...event.eventFields, id: event.resource.id, tenantId: event.scope.tenantId } };
}

/**
 * The fields of `fields` whose value differs between `before` and `after`, with both values
 * (absent as null). Values compare as JSON, so an address object that did not change is not a change.
 */
export function changesOf<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): AuditChange[] {
  const changes: AuditChange[] = [];
  for (const field of fields) {
    const was = before[field] ?? null;
    const is = after[field] ?? null;
    if (JSON.stringify(was) !== JSON.stringify(is)) changes.push({ field, before: was, after: is });
  }
  return changes;
}
