import * as z from 'zod/mini';
import { EVENT_TYPES, type DomainEvent } from '../domain/events';
import { schema } from '../domain/schema';

/**
 * Webhooks: endpoints a tenant administrator registers to receive the tenant's domain events
 * (lib/events), signed as Standard Webhooks 1.0 says (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>`), delivered at least once with retries.
 */

/** A registered endpoint, as stored (its signing secrets live apart: `webhookSecretsSchema`). */
export const webhookEndpointSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    tenantId: z.uuid(),
    url: z.string(),
    description: z.nullable(z.string()),
    /** The event types it receives (at least one). */
    events: z.array(z.enum(EVENT_TYPES)),
    enabled: z.boolean(),
    /** Why it was disabled (`gone`: it answered 410; `failing`: 3 days of failures; `manual`), null while enabled. */
    disabledReason: z.nullable(z.enum(['gone', 'failing', 'manual'])),
    /** Since when its deliveries fail, without a success since (null: the last one succeeded, or none failed). */
    failingSince: z.nullable(z.iso.datetime()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  }),
);
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/**
 * An endpoint's signing secrets (`whsec_` + base64 of 24 random bytes), in an item of their own
 * so that only the functions that sign or rotate may read them (as a user's credentials).
 * After a rotation the previous one signs too, until `previousExpiresAt` (24 hours).
 */
export const webhookSecretsSchema = /* @__PURE__ */ schema(() =>
  z.object({
    tenantId: z.uuid(),
    endpointId: z.uuid(),
    current: z.string(),
    previous: z.nullable(z.string()),
    previousExpiresAt: z.nullable(z.iso.datetime()),
  }),
);
export type WebhookSecrets = z.infer<typeof webhookSecretsSchema>;

/** What a delivery carries: a domain event, or the `ping` an administrator sends to test an endpoint. */
export const DELIVERED_TYPES = [...EVENT_TYPES, 'ping'] as const;
export type DeliveredType = (typeof DELIVERED_TYPES)[number];

/** The event `POST /webhook-endpoints/{id}/test` sends: `data` names the endpoint. Never stored as an event, never in GET /events. */
export interface PingEvent {
  id: string;
  type: 'ping';
  timestamp: string;
  data: { id: string; tenantId: string };
}

/** What a delivery carries. */
export type WebhookEvent = DomainEvent | PingEvent;

/** One delivery of one event to one endpoint, with its attempts (kept 30 days, successful ones included). */
export const webhookDeliverySchema = /* @__PURE__ */ schema(() =>
  z.object({
    /** lib/webhooks/delivery-id: one per event and endpoint, and it locates the record. */
    id: z.string(),
    tenantId: z.uuid(),
    endpointId: z.uuid(),
    eventId: z.string(),
    eventType: z.enum(DELIVERED_TYPES),
    status: z.enum(['pending', 'succeeded', 'failed']),
    attempts: z.array(
      z.object({
        at: z.iso.datetime(),
        /** The receiver's status code, or null when no answer came (timeout, refused, DNS). */
        statusCode: z.nullable(z.number().check(z.int())),
        latencyMs: z.number().check(z.int()),
        /** The first 1 KB of the answer's body, or why no answer came. */
        response: z.string(),
      }),
    ),
    /** When the next attempt is due (null: none). */
    nextAttemptAt: z.nullable(z.iso.datetime()),
    createdAt: z.iso.datetime(),
  }),
);
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A delivery with the event it carries. */
export interface DeliveryWork {
  delivery: WebhookDelivery;
  event: WebhookEvent;
}

/** Where a delivery's record is (the endpoint's list, by time). */
export type DeliveryRef = Pick<WebhookDelivery, 'tenantId' | 'endpointId' | 'createdAt' | 'id'>;

/**
 * The Standard Webhooks retry schedule, after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 14 h, 20 h, 24 h (about 3 days in all). After the last, the delivery has failed; an
 * endpoint that failed every delivery for 3 days is disabled and its tenant's administrators told.
 */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;

/** How long a receiver has to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;

/** Failures for this long, without a success, disable an endpoint (reason `failing`). */
export const FAILING_DISABLES_AFTER_MS = 3 * 24 * 3600 * 1000;

/** How long delivery records and events are kept. */
export const DELIVERY_RETENTION_DAYS = 30;
