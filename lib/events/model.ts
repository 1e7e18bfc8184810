/**
 * Domain events: what changed in a tenant, for the systems around it (webhooks, and
 * GET /events for a receiver that was down). Each is written in the same DynamoDB transaction
 * as its change, beside the change's audit entry (a transactional outbox: lib/audit/record
 * makes the event with the entry, by ./catalogue; lib/audit/repository writes both), so an
 * event exists if and only if its change does. Thin: a receiver routes on `data` and reads the
 * rest with an API key. Kept EVENT_RETENTION_DAYS.
 */

export { EVENT_TYPES, type DomainEvent, type EventFields, type EventType } from '../domain/events';

/** How long events are kept (DynamoDB TTL): GET /events reaches back this far. */
export const EVENT_RETENTION_DAYS = 30;
