import { randomUUID } from 'node:crypto';
import type { DomainEvent, EventFields } from './model';
import type { DerivedEventType } from './catalogue';

/**
 * A derived event (./catalogue, DERIVED_EVENTS) about resource `id` of a tenant, at the
 * instant of the change that revealed it (its audit entry's `occurredAt`): the same shape as
 * an action's event (lib/audit/record), for the change's repository to write in the change's
 * own transaction.
 */
export function derivedEvent(type: DerivedEventType, resource: { tenantId: string; id: string }, fields: EventFields, timestamp: string): DomainEvent {
  return { id: randomUUID(), type, timestamp, data: { ...fields, id: resource.id, tenantId: resource.tenantId } };
}
