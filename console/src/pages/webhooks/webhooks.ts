/**
 * The webhooks section's rules, apart from React and from the API client (as api-keys.ts, so
 * the browser tests may import them): the event types an endpoint may receive, the register and
 * edit forms' bodies and checks, and the delivery log's query. The enumerations are the API's
 * own, from the generated client (clients/typescript/src/enums.ts); console/test compares the rest.
 */
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES as API_WEBHOOK_EVENT_TYPES } from '../../../../clients/typescript/src/enums';

/** The event types an endpoint may receive, in the order the API lists them (its own enumeration, from the generated client). */
export const WEBHOOK_EVENT_TYPES = API_WEBHOOK_EVENT_TYPES;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a delivery may carry: the event types, and `ping`, the test an administrator sends (POST /webhook-endpoints/{id}/test). */
export const DELIVERED_TYPES = [...WEBHOOK_EVENT_TYPES, 'ping'] as const;
export type DeliveredType = (typeof DELIVERED_TYPES)[number];

/** A delivery's states, as GET /webhook-endpoints/{id}/deliveries filters them. */
export const DELIVERY_STATUSES = WEBHOOK_DELIVERY_STATUSES;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export type DisabledReason = 'gone' | 'failing' | 'manual';

/** The longest description the API takes. */
export const MAX_DESCRIPTION = 500;

/** The register and edit forms as typed: the events checked, the description empty for none. */
export interface EndpointForm {
  url: string;
  description: string;
  events: readonly WebhookEventType[];
  enabled: boolean;
}

export const EMPTY_ENDPOINT_FORM: EndpointForm = { url: '', description: '', events: [], enabled: true };

/** An endpoint as listed: what the edit form starts from. */
export interface ListedEndpoint {
  url: string;
  description: string | null;
  events: readonly string[];
  enabled: boolean;
}

const isEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

/** The edit form filled with a listed endpoint (an event type this console does not know is dropped). */
export function formOf(endpoint: ListedEndpoint): EndpointForm {
  return { url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events.filter(isEventType), enabled: endpoint.enabled };
}

/** The form with one event type checked or not, kept in the API's order. */
export function withEvent(form: EndpointForm, type: WebhookEventType, checked: boolean): EndpointForm {
  const chosen = new Set(form.events);
  if (checked) chosen.add(type);
  else chosen.delete(type);
  return { ...form, events: WEBHOOK_EVENT_TYPES.filter((candidate) => chosen.has(candidate)) };
}

/** The form with every event type checked, or none. */
export const withAllEvents = (form: EndpointForm, all: boolean): EndpointForm => ({ ...form, events: all ? [...WEBHOOK_EVENT_TYPES] : [] });

/** The form's own checks before it is sent, by field; whether the URL is https on a public address is the server's to say. */
export function endpointFormProblems(form: EndpointForm): { url?: 'required' | 'invalid'; events?: 'pickOne' } {
  const url = form.url.trim();
  return {
    ...(url ? (URL.canParse(url) ? {} : { url: 'invalid' as const }) : { url: 'required' as const }),
    ...(form.events.length > 0 ? {} : { events: 'pickOne' as const }),
  };
}

export interface CreateEndpointBody {
  url: string;
  events: WebhookEventType[];
  description?: string;
}

/** POST /webhook-endpoints' body: the URL and description trimmed, the description only when given. */
export function createEndpointBody(form: EndpointForm): CreateEndpointBody {
  const description = form.description.trim();
  return { url: form.url.trim(), events: [...form.events], ...(description ? { description } : {}) };
}

export interface UpdateEndpointBody {
  url?: string;
  events?: WebhookEventType[];
  description?: string | null;
  enabled?: boolean;
}

/**
 * PATCH /webhook-endpoints/{id}'s body: only what changed (the API refuses an empty body, and a
 * URL sent again would be checked again); an emptied description is `null`, which clears it.
 */
export function updateEndpointBody(before: ListedEndpoint, form: EndpointForm): UpdateEndpointBody {
  const body: UpdateEndpointBody = {};
  const url = form.url.trim();
  if (url !== before.url) body.url = url;
  const events = [...form.events];
  if (events.length !== before.events.length || events.some((type) => !before.events.includes(type))) body.events = events;
  const description = form.description.trim() || null;
  if (description !== before.description) body.description = description;
  if (form.enabled !== before.enabled) body.enabled = form.enabled;
  return body;
}

/** What a listed endpoint's state is: receiving, or disabled and why (an unknown reason reads as manual). */
export function endpointState(endpoint: { enabled: boolean; disabledReason: string | null }): 'enabled' | DisabledReason {
  if (endpoint.enabled) return 'enabled';
  return endpoint.disabledReason === 'gone' || endpoint.disabledReason === 'failing' ? endpoint.disabledReason : 'manual';
}

/** The delivery log's filters as chosen: empty strings for "any". */
export interface DeliveryFilters {
  status: string;
  eventType: string;
}

export const NO_DELIVERY_FILTERS: DeliveryFilters = { status: '', eventType: '' };

export const DELIVERIES_PAGE_SIZE = 20;

export interface DeliveriesQuery {
  limit: number;
  status?: DeliveryStatus;
  eventType?: DeliveredType;
  cursor?: string;
}

const isDeliveredType = (value: string): value is DeliveredType => (DELIVERED_TYPES as readonly string[]).includes(value);
const isStatus = (value: string): value is DeliveryStatus => (DELIVERY_STATUSES as readonly string[]).includes(value);

/** GET /webhook-endpoints/{id}/deliveries' query: only the filters chosen (the API refuses empty or unknown ones) and the cursor. */
export function deliveriesQuery(filters: DeliveryFilters, cursor: string | undefined, limit = DELIVERIES_PAGE_SIZE): DeliveriesQuery {
  return {
    limit,
    ...(isStatus(filters.status) ? { status: filters.status } : {}),
    ...(isDeliveredType(filters.eventType) ? { eventType: filters.eventType } : {}),
    ...(cursor ? { cursor } : {}),
  };
}

/** An attempt's answer in short: its status code, or that none came (timeout, refused connection, target refused). */
export type AttemptOutcome = { kind: 'answered'; statusCode: number; ok: boolean } | { kind: 'noAnswer' };

export function attemptOutcome(statusCode: number | null): AttemptOutcome {
  return statusCode === null ? { kind: 'noAnswer' } : { kind: 'answered', statusCode, ok: statusCode >= 200 && statusCode < 300 };
}

/** What a send now (a test, a retry) got back: its last attempt's answer and latency; undefined before any attempt. */
export function lastAttemptOf<A extends { statusCode: number | null; latencyMs: number }>(delivery: {
  attempts: readonly A[];
}): (AttemptOutcome & { latencyMs: number }) | undefined {
  const last = delivery.attempts.at(-1);
  return last ? { ...attemptOutcome(last.statusCode), latencyMs: last.latencyMs } : undefined;
}
