import type { DomainEvent, EventType } from '../domain/events';
import { DELIVERY_TIMEOUT_MS, RETRY_SCHEDULE_SECONDS, type WebhookDelivery, type WebhookEndpoint, type WebhookSecrets } from './model';
import { deliveryBody, signDelivery } from './signing';
import type { VettedTarget } from './ssrf';

/**
 * Delivering events to webhook endpoints, at least once: each event of a tenant goes to every
 * enabled endpoint of that tenant subscribed to its type (`dispatch`), as one delivery with its
 * attempts (`deliver`, then `runDue` for the retries). An attempt signs the thin event (./signing),
 * checks the target again (a name may resolve elsewhere since it was registered: DNS
 * rebinding), POSTs it with a DELIVERY_TIMEOUT_MS timeout without following redirects, and
 * records what came back. A 2xx succeeds; a 410 disables the endpoint at once (reason `gone`);
 * anything else is tried again on the Standard Webhooks schedule (RETRY_SCHEDULE_SECONDS),
 * never sooner than a `Retry-After` asks and never later than the schedule's last step, and
 * has failed after the last.
 *
 * Everything outside (the network, the clock, the store, the target check) comes in `deps`,
 * so the same code runs in a Lambda, in `npm start` and in tests.
 */

/**
 * The part of fetch a delivery uses, and the target as the guard took it (`target`, when the
 * guard answered one): a fetch that connects to exactly its addresses (./pinned-fetch) cannot
 * be sent elsewhere by a second DNS answer.
 */
export type FetchLike = (url: string, init: { method: 'POST'; headers: Record<string, string>; body: string; redirect: 'manual'; signal: AbortSignal; target?: VettedTarget }) => Promise<Response>;

type Attempt = WebhookDelivery['attempts'][number];

export interface DeliveryStore {
  insertDelivery(delivery: WebhookDelivery, event: DomainEvent): Promise<void>;
  recordAttempt(delivery: WebhookDelivery, attempt: Attempt | null, outcome: { status: WebhookDelivery['status']; nextAttemptAt: string | null }, claimedUntil: string): Promise<boolean>;
  listDue(now: string, limit: number): Promise<WebhookDelivery[]>;
  claimDelivery(delivery: WebhookDelivery, seen: string, claimedUntil: string): Promise<{ delivery: WebhookDelivery; event: DomainEvent } | undefined>;
}

export interface EndpointStore {
  getEndpoint(tenantId: string, id: string): Promise<WebhookEndpoint | undefined>;
  listEndpointsFor(tenantId: string, eventType: EventType): Promise<WebhookEndpoint[]>;
  getSecrets(tenantId: string, id: string): Promise<WebhookSecrets | undefined>;
  disableEndpoint(tenantId: string, id: string, reason: 'gone' | 'failing' | 'manual'): Promise<void>;
}

export interface DeliveryDeps {
  fetch: FetchLike;
  /** Epoch milliseconds. */
  now: () => number;
  /** Throws when the URL may not be delivered to (lib/webhooks/ssrf `vetTarget`, whose resolver it uses); the target checked, for `fetch` to connect to. */
  checkTarget: (url: string) => Promise<VettedTarget | void>;
  deliveries: DeliveryStore;
  endpoints: EndpointStore;
  newId: () => string;
  /** DELIVERY_TIMEOUT_MS unless a test says otherwise. */
  timeoutMs?: number;
  log?: (line: string) => void;
}

/** How much of an answer's body is kept. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * How long an attempt holds its delivery: the timeout and a margin. A delivery whose attempt's
 * process died is attempted again once this has passed.
 */
export const CLAIM_MS = DELIVERY_TIMEOUT_MS + 20_000;

const iso = (ms: number) => new Date(ms).toISOString();

/** A `Retry-After` value (seconds, or an HTTP date) as seconds from `nowMs`; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

/**
 * Seconds until the next attempt after `attemptsMade` attempts have failed, or undefined when
 * none is left: the schedule's step, later if the receiver's `Retry-After` asks, but never
 * later than the schedule's last step.
 */
export function nextRetryDelay(attemptsMade: number, retryAfter: number | undefined): number | undefined {
  const step = RETRY_SCHEDULE_SECONDS[attemptsMade - 1];
  if (step === undefined) return undefined;
  const last = RETRY_SCHEDULE_SECONDS[RETRY_SCHEDULE_SECONDS.length - 1] as number;
  return Math.min(Math.max(step, retryAfter ?? 0), last);
}

/** The first RESPONSE_EXCERPT_BYTES of a body, read no further than that. */
async function excerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/** Why no answer came, in words for the delivery's record. */
function failureText(error: unknown, timeoutMs: number): string {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `No answer within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (cause?.code) return `Connection failed: ${cause.code}`;
  return `Connection failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** What one attempt saw. */
interface AttemptResult {
  attempt: Attempt;
  retryAfter?: number;
}

async function post(event: DomainEvent, endpoint: WebhookEndpoint, secrets: WebhookSecrets, deps: DeliveryDeps): Promise<AttemptResult> {
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const started = deps.now();
  let target: VettedTarget | undefined;
  try {
    target = (await deps.checkTarget(endpoint.url)) ?? undefined;
  } catch (error) {
    return { attempt: { at: iso(started), statusCode: null, latencyMs: 0, response: `Not sent: ${error instanceof Error ? error.message : String(error)}` } };
  }
  const body = deliveryBody(event);
  const headers = { 'content-type': 'application/json', 'user-agent': 'backoffice-webhooks/1', ...signDelivery(event, body, secrets, started) };
  try {
    const response = await deps.fetch(endpoint.url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs), target });
    const text = await excerpt(response).catch(() => '');
    const latencyMs = Math.max(0, Math.round(deps.now() - started));
    return { attempt: { at: iso(started), statusCode: response.status, latencyMs, response: text }, retryAfter: retryAfterSeconds(response.headers.get('retry-after'), deps.now()) };
  } catch (error) {
    return { attempt: { at: iso(started), statusCode: null, latencyMs: Math.max(0, Math.round(deps.now() - started)), response: failureText(error, timeoutMs) } };
  }
}

/**
 * One attempt of a delivery this caller has claimed until `claimedUntil`: POST, record the
 * attempt and decide what follows. The delivery as recorded (unchanged when the claim was lost).
 */
export async function attemptDelivery(
  delivery: WebhookDelivery,
  event: DomainEvent,
  endpoint: WebhookEndpoint,
  secrets: WebhookSecrets,
  claimedUntil: string,
  deps: DeliveryDeps,
): Promise<WebhookDelivery> {
  const { attempt, retryAfter } = await post(event, endpoint, secrets, deps);
  const attempts = [...delivery.attempts, attempt];
  const code = attempt.statusCode;
  let outcome: { status: WebhookDelivery['status']; nextAttemptAt: string | null };
  if (code !== null && code >= 200 && code < 300) {
    outcome = { status: 'succeeded', nextAttemptAt: null };
  } else if (code === 410) {
    // Gone: the receiver says it will never want these again. Stop now rather than in 3 days.
    await deps.endpoints.disableEndpoint(endpoint.tenantId, endpoint.id, 'gone');
    deps.log?.(`[webhooks] endpoint ${endpoint.id} answered 410: disabled`);
    outcome = { status: 'failed', nextAttemptAt: null };
  } else {
    const delay = nextRetryDelay(attempts.length, retryAfter);
    outcome = delay === undefined ? { status: 'failed', nextAttemptAt: null } : { status: 'pending', nextAttemptAt: iso(deps.now() + delay * 1000) };
  }
  const recorded = await deps.deliveries.recordAttempt(delivery, attempt, outcome, claimedUntil);
  if (!recorded) {
    deps.log?.(`[webhooks] delivery ${delivery.id}: claimed by another attempt, this one's outcome not recorded`);
    return delivery;
  }
  return { ...delivery, attempts, ...outcome };
}

/**
 * A new delivery of `event` to `endpoint`, and its first attempt. The delivery is stored before
 * the attempt, claimed for CLAIM_MS, so a process that dies mid-attempt leaves it to the retries.
 */
export async function deliver(event: DomainEvent, endpoint: WebhookEndpoint, secrets: WebhookSecrets, deps: DeliveryDeps): Promise<WebhookDelivery> {
  const now = deps.now();
  const claimedUntil = iso(now + CLAIM_MS);
  const delivery: WebhookDelivery = {
    id: deps.newId(),
    tenantId: endpoint.tenantId,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    attempts: [],
    nextAttemptAt: claimedUntil,
    createdAt: iso(now),
  };
  await deps.deliveries.insertDelivery(delivery, event);
  return attemptDelivery(delivery, event, endpoint, secrets, claimedUntil, deps);
}

/**
 * Fan-out: one delivery of the event to each enabled endpoint of its tenant subscribed to its
 * type, first attempts side by side. An endpoint whose secrets are missing is skipped (logged).
 */
export async function dispatch(event: DomainEvent, deps: DeliveryDeps): Promise<WebhookDelivery[]> {
  const endpoints = await deps.endpoints.listEndpointsFor(event.data.tenantId, event.type);
  const done = await Promise.all(
    endpoints.map(async (endpoint) => {
      const secrets = await deps.endpoints.getSecrets(endpoint.tenantId, endpoint.id);
      if (!secrets) {
        deps.log?.(`[webhooks] endpoint ${endpoint.id} has no signing secrets: ${event.type} ${event.id} not delivered`);
        return undefined;
      }
      return deliver(event, endpoint, secrets, deps);
    }),
  );
  return done.filter((delivery): delivery is WebhookDelivery => delivery !== undefined);
}

/**
 * The retries due now: each pending delivery whose `nextAttemptAt` has passed is claimed, then
 * attempted; one whose endpoint is gone, disabled or without secrets has failed without an
 * attempt. The deliveries attempted or closed.
 */
export async function runDue(deps: DeliveryDeps, limit = 25): Promise<WebhookDelivery[]> {
  const now = deps.now();
  const due = await deps.deliveries.listDue(iso(now), limit);
  const results = await Promise.all(
    due.map(async (seen) => {
      if (seen.nextAttemptAt === null) return undefined;
      const claimedUntil = iso(now + CLAIM_MS);
      const claimed = await deps.deliveries.claimDelivery(seen, seen.nextAttemptAt, claimedUntil);
      if (!claimed) return undefined;
      const { delivery, event } = claimed;
      const [endpoint, secrets] = await Promise.all([deps.endpoints.getEndpoint(delivery.tenantId, delivery.endpointId), deps.endpoints.getSecrets(delivery.tenantId, delivery.endpointId)]);
      if (!endpoint || !endpoint.enabled || !secrets) {
        const outcome = { status: 'failed' as const, nextAttemptAt: null };
        return (await deps.deliveries.recordAttempt(delivery, null, outcome, claimedUntil)) ? { ...delivery, ...outcome } : undefined;
      }
      return attemptDelivery(delivery, event, endpoint, secrets, claimedUntil, deps);
    }),
  );
  return results.filter((delivery): delivery is WebhookDelivery => delivery !== undefined);
}
