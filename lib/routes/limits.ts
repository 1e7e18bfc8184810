/** The rate limits and timeouts the manifest's routes share, by what they protect (lib/rate-limit enforces them). */
import type { RateLimit } from '../rate-limit';

/**
 * Every request made with an API key takes a slot of its key's window, whatever the route:
 * 600 a minute per key, answered past it with 429, `Retry-After` and the RateLimit headers
 * (lib/http/middleware/rate-limit).
 */
export const API_KEY_RATE_LIMIT = { limit: 600, windowSeconds: 60 } as const;

/** The API key routes' own limit, per administrator: keys are made and rolled now and then. */
export const API_KEY_CHANGES = { per: 'user', limit: 20, windowSeconds: 3600, scope: 'api-key-changes' } as const satisfies RateLimit;

/** Sending to an endpoint on an administrator's word (a ping, a retry), per administrator: each is a request to the receiver of up to 10 s. */
export const WEBHOOK_SENDS = { per: 'user', limit: 60, windowSeconds: 3600, scope: 'webhook-sends' } as const satisfies RateLimit;

/**
 * Purchase orders e-mailed on a person's or a key's word, per user (or key): an order goes to any
 * address given, through the service's own SES identity, so their number is bounded like any mail.
 */
export const PURCHASE_ORDER_SENDS = { per: 'user', limit: 30, windowSeconds: 3600, scope: 'purchase-order-sends' } as const satisfies RateLimit;

/** The functions that send to a receiver while the caller waits: the receiver's 10 s and a margin. */
export const WEBHOOK_SEND_TIMEOUT_SECONDS = 20;

/** The webhook endpoint routes' own limit, per administrator, in one window: endpoints are registered and changed now and then. */
export const WEBHOOK_ENDPOINT_CHANGES = { per: 'user', limit: 30, windowSeconds: 3600, scope: 'webhook-endpoint-changes' } as const satisfies RateLimit;

/**
 * The password attempts of one e-mail from one address, 5 per 15 minutes: login and every
 * route that checks the current password (change-password, the second factor's step-up)
 * count in this one window. A correct password clears it (lib/rate-limit, `clearOnSuccess`).
 */
export const PASSWORD_ATTEMPTS = {
  per: 'email-and-ip',
  limit: 5,
  windowSeconds: 900,
  counts: 'attempts',
  scope: 'password-attempts',
} as const satisfies RateLimit;

/**
 * The sign-in and registration attempts of one address, 30 per 15 minutes, whatever the
 * e-mail: rotating addresses no longer buys bcrypt. A success gives its slot back, so an
 * office behind one NAT counts only its mistakes.
 */
export const SIGN_IN_ATTEMPTS_PER_IP = { per: 'ip', limit: 30, windowSeconds: 900, counts: 'attempts', scope: 'sign-in-per-ip' } as const satisfies RateLimit;

/** Imports write thousands of records each: a few an hour per administrator. */
export const IMPORTS_STARTED = { per: 'user', limit: 20, windowSeconds: 3600, scope: 'imports' } as const satisfies RateLimit;

/** Exports read the whole of a list each: as many an hour per user as imports. */
export const EXPORTS_STARTED = { per: 'user', limit: 20, windowSeconds: 3600, scope: 'exports' } as const satisfies RateLimit;
