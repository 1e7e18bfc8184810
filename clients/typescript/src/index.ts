/**
 * The typed browser client of the back-office API: openapi-fetch over the types generated
 * from the OpenAPI document (src/schema.ts, `npm run client`), with the session cookies on
 * every request, refresh on 401 (src/refresh.ts), typed problem errors (src/problem.ts) and
 * Idempotency-Key headers (src/idempotency.ts).
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import { refreshOn401, type RefreshOptions } from './refresh';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';
export { idempotencyKey } from './idempotency';
export { PROBLEM_TYPE_BASE, ProblemError, problemOf, unwrap, type CallResult, type DataOf, type FieldError, type Problem } from './problem';
export { NO_REFRESH_ON_401, REFRESH_PATH, refreshOn401, type RefreshOptions } from './refresh';

export type BackofficeClient = Client<paths>;

export interface BackofficeClientOptions extends Omit<ClientOptions, 'credentials'>, RefreshOptions {
  /** The API's origin (and stage prefix, if any), e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Middleware to run before the refresh middleware (which stays last, see src/refresh.ts). */
  middleware?: Middleware[];
}

/**
 * A client whose every request carries the session cookies (`credentials: 'include'`; they
 * are HttpOnly, so script never sees them) and that refreshes the session on 401 and retries
 * once. The API must list the page's origin in `ALLOWED_ORIGINS` (CORS and the CSRF check).
 */
export function createBackofficeClient({ onSessionExpired, middleware = [], ...options }: BackofficeClientOptions): BackofficeClient {
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
