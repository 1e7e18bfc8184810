import type { DomainEvent, EventType } from '../domain/events';
import { deliveryIdOf } from './delivery-id';
import {
  DELIVERY_TIMEOUT_MS,
  FAILING_DISABLES_AFTER_MS,
  RETRY_SCHEDULE_SECONDS,
  type DeliveryRef,
  type DeliveryWork,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookSecrets,
} from './model';

export type { DeliveryRef, DeliveryWork } from './model';
import { deliveryBody, signDelivery } from './signing';
import type { VettedTarget } from './ssrf';

/**
 * Delivering events to webhook endpoints, at least once: each event of a tenant goes to every
 * enabled endpoint of that tenant subscribed to its type (`dispatch`), as one delivery with its
 * attempts (`deliver`, then `advance` or `runDue` for the retries). An attempt signs the thin
 * event (./signing), checks the target again (a name may resolve elsewhere since it was
 * registered: DNS rebinding), POSTs it with a DELIVERY_TIMEOUT_MS timeout without following
 * redirects, and records what came back. A 2xx succeeds; a 410 disables the endpoint at once
 * (reason `gone`); anything else is tried again on the Standard Webhooks schedule
 * (RETRY_SCHEDULE_SECONDS), never sooner than a `Retry-After` asks and never later than the
 * schedule's last step, and has failed after the last. An endpoint whose deliveries have failed
 * for FAILING_DISABLES_AFTER_MS without a success is disabled (reason `failing`).
 *
 * Every step reads the delivery's state and acts on it, so running one twice (a message
 * delivered twice, a function run again after it died) does no harm: a delivery's id follows
 * from its event and endpoint (./delivery-id), and an attempt is made only by whoever claimed it.
 *
 * Everything outside (the network, the clock, the store, the target check) comes in `deps`,
 * so the same code runs in a Lambda, in `npm start` and in tests.
 */

/**
 * The part of fetch a delivery uses, and the target as the guard took it (`target`, when the
 * guard answered one): a fetch that connects to exactly its addresses (./pinned-fetch) cannot
 * be sent elsewhere by a second DNS answer.
 */
export type FetchLike = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string; redirect: 'manual'; signal: AbortSignal; target?: VettedTarget },
) => Promise<Response>;

type Attempt = WebhookDelivery['attempts'][number];

export interface DeliveryStore {
  /** False when a delivery with its id exists already (nothing is written then). */
  insertDelivery(delivery: WebhookDelivery, event: WebhookEvent): Promise<boolean>;
  getDelivery(ref: DeliveryRef): Promise<DeliveryWork | undefined>;
  recordAttempt(
    delivery: WebhookDelivery,
    attempt: Attempt | null,
    outcome: { status: WebhookDelivery['status']; nextAttemptAt: string | null },
    claimedUntil: string,
  ): Promise<boolean>;
  listDue(now: string, limit: number): Promise<WebhookDelivery[]>;
  claimDelivery(delivery: WebhookDelivery, seen: string, claimedUntil: string): Promise<DeliveryWork | undefined>;
  /** Claim a delivery in whatever state it was read (an administrator's retry), if it is still in that state and no attempt's lease holds it at `now`. */
  reopenDelivery(read: WebhookDelivery, now: string, claimedUntil: string): Promise<DeliveryWork | undefined>;
}

export interface EndpointStore {
  getEndpoint(tenantId: string, id: string): Promise<WebhookEndpoint | undefined>;
  listEndpointsFor(tenantId: string, eventType: EventType): Promise<WebhookEndpoint[]>;
  getSecrets(tenantId: string, id: string): Promise<WebhookSecrets | undefined>;
  disableEndpoint(tenantId: string, id: string, reason: 'gone' | 'failing' | 'manual'): Promise<void>;
  /** Set when deliveries began failing (null: the last succeeded), if it is still `read`. */
  setFailingSince(endpoint: WebhookEndpoint, read: string | null, value: string | null): Promise<void>;
}

export interface DeliveryDeps {
  fetch: FetchLike;
  /** Epoch milliseconds. */
  now: () => number;
  /** Throws when the URL may not be delivered to (lib/webhooks/ssrf `vetTarget`, whose resolver it uses); the target checked, for `fetch` to connect to. */
  checkTarget: (url: string) => Promise<VettedTarget | void>;
  deliveries: DeliveryStore;
  endpoints: EndpointStore;
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

async function post(event: WebhookEvent, endpoint: WebhookEndpoint, secrets: WebhookSecrets, deps: DeliveryDeps): Promise<AttemptResult> {
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
    return {
      attempt: { at: iso(started), statusCode: response.status, latencyMs, response: text },
      retryAfter: retryAfterSeconds(response.headers.get('retry-after'), deps.now()),
    };
  } catch (error) {
    return {
      attempt: { at: iso(started), statusCode: null, latencyMs: Math.max(0, Math.round(deps.now() - started)), response: failureText(error, timeoutMs) },
    };
  }
}

/**
 * What an attempt's failure leads to:
 * - `schedule`: the next step of the schedule (the engine's attempts);
 * - `stop`: the delivery has failed (an administrator's retry of a finished delivery, a ping).
 * `health`: whether the attempt counts towards the endpoint's health (410 disables it; failures
 * for FAILING_DISABLES_AFTER_MS disable it; a success clears them). A ping does not.
 */
interface AttemptMode {
  afterFailure: 'schedule' | 'stop';
  health: boolean;
}

const SCHEDULED: AttemptMode = { afterFailure: 'schedule', health: true };

/** Keep the endpoint's failing time, and disable it once it has failed long enough. */
async function noteHealth(endpoint: WebhookEndpoint, succeeded: boolean, deps: DeliveryDeps): Promise<void> {
  const now = deps.now();
  if (succeeded) {
    if (endpoint.failingSince !== null) await deps.endpoints.setFailingSince(endpoint, endpoint.failingSince, null);
    return;
  }
  if (endpoint.failingSince === null) {
    await deps.endpoints.setFailingSince(endpoint, null, iso(now));
  } else if (now - Date.parse(endpoint.failingSince) >= FAILING_DISABLES_AFTER_MS) {
    await deps.endpoints.disableEndpoint(endpoint.tenantId, endpoint.id, 'failing');
    deps.log?.(`[webhooks] endpoint ${endpoint.id} failed since ${endpoint.failingSince}: disabled`);
  }
}

/**
 * One attempt of a delivery this caller has claimed until `claimedUntil`: POST, record the
 * attempt and decide what follows. The delivery as recorded (unchanged when the claim was lost).
 */
export async function attemptDelivery(
  delivery: WebhookDelivery,
  event: WebhookEvent,
  endpoint: WebhookEndpoint,
  secrets: WebhookSecrets,
  claimedUntil: string,
  deps: DeliveryDeps,
  mode: AttemptMode = SCHEDULED,
): Promise<WebhookDelivery> {
  const { attempt, retryAfter } = await post(event, endpoint, secrets, deps);
  const attempts = [...delivery.attempts, attempt];
  const code = attempt.statusCode;
  const succeeded = code !== null && code >= 200 && code < 300;
  let outcome: { status: WebhookDelivery['status']; nextAttemptAt: string | null };
  if (succeeded) {
    outcome = { status: 'succeeded', nextAttemptAt: null };
  } else if (code === 410 && mode.health) {
    // Gone: the receiver says it will never want these again. Stop now rather than in 3 days.
    await deps.endpoints.disableEndpoint(endpoint.tenantId, endpoint.id, 'gone');
    deps.log?.(`[webhooks] endpoint ${endpoint.id} answered 410: disabled`);
    outcome = { status: 'failed', nextAttemptAt: null };
  } else {
    const delay = mode.afterFailure === 'schedule' ? nextRetryDelay(attempts.length, retryAfter) : undefined;
    outcome = delay === undefined ? { status: 'failed', nextAttemptAt: null } : { status: 'pending', nextAttemptAt: iso(deps.now() + delay * 1000) };
  }
  const recorded = await deps.deliveries.recordAttempt(delivery, attempt, outcome, claimedUntil);
  if (!recorded) {
    deps.log?.(`[webhooks] delivery ${delivery.id}: claimed by another attempt, this one's outcome not recorded`);
    return delivery;
  }
  if (mode.health && code !== 410) await noteHealth(endpoint, succeeded, deps);
  return { ...delivery, attempts, ...outcome };
}

/** A new delivery of `event` to `endpoint`: pending, claimed for CLAIM_MS by whoever makes it. */
function newDelivery(event: WebhookEvent, endpoint: WebhookEndpoint, claimedUntil: string): WebhookDelivery {
  return {
    id: deliveryIdOf(endpoint.id, event.timestamp, event.id),
    tenantId: endpoint.tenantId,
    endpointId: endpoint.id,
    eventId: event.id,
    eventType: event.type,
    status: 'pending',
    attempts: [],
    nextAttemptAt: claimedUntil,
    createdAt: event.timestamp,
  };
}

/**
 * The delivery of `event` to `endpoint`, and its first attempt. The delivery is stored before
 * the attempt, claimed for CLAIM_MS, so a process that dies mid-attempt leaves it to the
 * retries. When it was stored already (the event is handled again), it is advanced instead.
 */
export async function deliver(
  event: WebhookEvent,
  endpoint: WebhookEndpoint,
  secrets: WebhookSecrets,
  deps: DeliveryDeps,
  mode: AttemptMode = SCHEDULED,
): Promise<WebhookDelivery> {
  const claimedUntil = iso(deps.now() + CLAIM_MS);
  const delivery = newDelivery(event, endpoint, claimedUntil);
  if (!(await deps.deliveries.insertDelivery(delivery, event))) {
    const existing = await advance(delivery, deps);
    return existing ?? delivery;
  }
  return attemptDelivery(delivery, event, endpoint, secrets, claimedUntil, deps, mode);
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
 * The attempt of a pending delivery due now, read as `seen`: claimed, then attempted; one whose
 * endpoint is gone, disabled or without secrets has failed without an attempt. The delivery as
 * attempted or closed, or undefined when another claimed it first.
 */
export async function retryDelivery(seen: WebhookDelivery, deps: DeliveryDeps): Promise<WebhookDelivery | undefined> {
  if (seen.status !== 'pending' || seen.nextAttemptAt === null) return undefined;
  const claimedUntil = iso(deps.now() + CLAIM_MS);
  const claimed = await deps.deliveries.claimDelivery(seen, seen.nextAttemptAt, claimedUntil);
  if (!claimed) return undefined;
  const { delivery, event } = claimed;
  const [endpoint, secrets] = await Promise.all([
    deps.endpoints.getEndpoint(delivery.tenantId, delivery.endpointId),
    deps.endpoints.getSecrets(delivery.tenantId, delivery.endpointId),
  ]);
  if (!endpoint || !endpoint.enabled || !secrets) {
    const outcome = { status: 'failed' as const, nextAttemptAt: null };
    return (await deps.deliveries.recordAttempt(delivery, null, outcome, claimedUntil)) ? { ...delivery, ...outcome } : undefined;
  }
  return attemptDelivery(delivery, event, endpoint, secrets, claimedUntil, deps);
}

/**
 * Move a delivery on from what the store holds now: a pending one that is due is attempted
 * (`retryDelivery`); one not yet due, or finished, is left as it is. The delivery as it stands
 * after (undefined when there is no such delivery). What a queued wake-up runs.
 */
export async function advance(ref: DeliveryRef, deps: DeliveryDeps): Promise<WebhookDelivery | undefined> {
  const work = await deps.deliveries.getDelivery(ref);
  if (!work) return undefined;
  const { delivery } = work;
  if (delivery.status !== 'pending' || delivery.nextAttemptAt === null || Date.parse(delivery.nextAttemptAt) > deps.now()) return delivery;
  return (await retryDelivery(delivery, deps)) ?? (await deps.deliveries.getDelivery(ref))?.delivery;
}

/** Seconds until a delivery's next step is due (0: now), or undefined when it has none. */
export function secondsUntilDue(delivery: WebhookDelivery, nowMs: number): number | undefined {
  if (delivery.status !== 'pending' || delivery.nextAttemptAt === null) return undefined;
  return Math.max(0, Math.ceil((Date.parse(delivery.nextAttemptAt) - nowMs) / 1000));
}

/**
 * The retries due now, from the due index: each pending delivery whose `nextAttemptAt` has
 * passed (`retryDelivery`). The deliveries attempted or closed.
 */
export async function runDue(deps: DeliveryDeps, limit = 25): Promise<WebhookDelivery[]> {
  const due = await deps.deliveries.listDue(iso(deps.now()), limit);
  const results = await Promise.all(due.map((seen) => retryDelivery(seen, deps)));
  return results.filter((delivery): delivery is WebhookDelivery => delivery !== undefined);
}

/**
 * An administrator's retry: one attempt now, whatever the delivery's state. A pending delivery
 * keeps its schedule after a failure; a finished one has failed again. The delivery as recorded,
 * or undefined when it changed meanwhile or an attempt holds it (its lease has not ended).
 */
export async function retryNow(
  read: WebhookDelivery,
  endpoint: WebhookEndpoint,
  secrets: WebhookSecrets,
  deps: DeliveryDeps,
): Promise<WebhookDelivery | undefined> {
  const nowMs = deps.now();
  const claimedUntil = iso(nowMs + CLAIM_MS);
  const claimed = await deps.deliveries.reopenDelivery(read, iso(nowMs), claimedUntil);
  if (!claimed) return undefined;
  return attemptDelivery(claimed.delivery, claimed.event, endpoint, secrets, claimedUntil, deps, {
    afterFailure: read.status === 'pending' ? 'schedule' : 'stop',
    health: true,
  });
}

/** Send a `ping` to an endpoint now (enabled or not): one attempt, recorded in its log, no retry, no effect on its health. */
export function ping(event: WebhookEvent, endpoint: WebhookEndpoint, secrets: WebhookSecrets, deps: DeliveryDeps): Promise<WebhookDelivery> {
  return deliver(event, endpoint, secrets, deps, { afterFailure: 'stop', health: false });
}
