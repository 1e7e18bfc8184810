import { Webhook } from 'standardwebhooks';
import type { WebhookEvent, WebhookSecrets } from './model';

/** The headers Standard Webhooks 1.0 puts on a delivery, beside its JSON body. */
export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The body of a delivery: the event as a receiver sees it, `{ type, timestamp, data }` (its id is the `webhook-id`). */
export function deliveryBody(event: WebhookEvent): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
}

/**
 * The secrets that sign at `nowMs`: the current one, and the previous one until it expires
 * (a receiver rotating its secret verifies with either for 24 hours).
 */
export function signingSecrets(secrets: WebhookSecrets, nowMs: number): string[] {
  const previousLive = secrets.previous !== null && (secrets.previousExpiresAt === null || Date.parse(secrets.previousExpiresAt) > nowMs);
  return previousLive && secrets.previous !== null ? [secrets.current, secrets.previous] : [secrets.current];
}

/**
 * Sign one attempt of a delivery. `webhook-id` is the event's id (the same on every attempt, so
 * a receiver deduplicates by it), `webhook-timestamp` the attempt's time in seconds, and
 * `webhook-signature` one `v1,<base64>` per signing secret, space-separated.
 */
export function signDelivery(event: WebhookEvent, body: string, secrets: WebhookSecrets, nowMs: number): SignedHeaders {
  const at = new Date(Math.floor(nowMs / 1000) * 1000);
  const signatures = signingSecrets(secrets, nowMs).map((secret) => new Webhook(secret).sign(event.id, at, body));
  return { 'webhook-id': event.id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signatures.join(' ') };
}
