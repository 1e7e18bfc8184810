/**
 * The typed client of the back-office API: openapi-fetch over the types generated from the
 * OpenAPI document (src/schema.ts, and its enumerations as arrays in src/enums.ts: `npm run client`). In a browser, with the session cookies
 * on every request and refresh on 401 (src/refresh.ts); on a server, with an API key instead
 * (src/api-key.ts). Both with typed problem errors (src/problem.ts) and Idempotency-Key
 * headers (src/idempotency.ts).
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { bearerKey, checkServerMode } from './api-key';
import { refreshOn401, type RefreshOptions } from './refresh';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';
export { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from './enums';
export { API_KEY_PATTERN } from './api-key';
export { idempotencyKey } from './idempotency';
export { PROBLEM_TYPE_BASE, ProblemError, problemOf, unwrap, type CallResult, type DataOf, type FieldError, type Problem } from './problem';
export { NO_REFRESH_ON_401, REFRESH_PATH, refreshOn401, type RefreshOptions } from './refresh';

export type BackofficeClient = Client<paths>;

interface CommonOptions extends Omit<ClientOptions, 'credentials'> {
  /** The API's origin (and stage prefix, if any), e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Middleware to run before the refresh middleware (which stays last, see src/refresh.ts); in server mode, after the key is set. */
  middleware?: Middleware[];
}

/** A browser's client: the session cookies, refreshed on 401. */
export interface SessionClientOptions extends CommonOptions, RefreshOptions {
  apiKey?: never;
}

/** A server's client: an API key on every request, no cookies, no refresh. */
export interface ApiKeyClientOptions extends CommonOptions {
  /** The key's whole text as POST /api-keys showed it (`bo_live_…`); from a secret store or the environment, never from source. */
  apiKey: string;
  /** A key has no session: nothing to expire. */
  onSessionExpired?: never;
}

export type BackofficeClientOptions = SessionClientOptions | ApiKeyClientOptions;

/**
 * Without `apiKey`, a browser's client: every request carries the session cookies
 * (`credentials: 'include'`; they are HttpOnly, so script never sees them) and a 401 refreshes
 * the session and retries once. The API must list the page's origin in `ALLOWED_ORIGINS`
 * (CORS and the CSRF check).
 *
 * With `apiKey`, a server's client: every request carries `Authorization: Bearer <apiKey>`
 * and no cookies (`credentials: 'omit'`), and a 401 is final (a key is not refreshed). It
 * throws at once in a browser (a window or a document), for a malformed key, and with
 * `onSessionExpired`.
 */
export function createBackofficeClient({ apiKey, onSessionExpired, middleware = [], ...options }: BackofficeClientOptions): BackofficeClient {
  if (apiKey !== undefined) {
    checkServerMode(apiKey, onSessionExpired);
    const client = createClient<paths>({ ...options, credentials: 'omit' });
    client.use(bearerKey(apiKey), ...middleware);
    return client;
  }
  const client = createClient<paths>({ ...options, credentials: 'include' });
  const refresh = refreshOn401({ onSessionExpired });
  client.use(...middleware, refresh);
  // Middleware added later still runs before the refresh: its retry must resend the request
  // as the other middleware made it, and its answer must pass through them.
  const use = client.use.bind(client);
  client.use = (...added: Middleware[]) => {
    client.eject(refresh);
    use(...added, refresh);
  };
  return client;
}
