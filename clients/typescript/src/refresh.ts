import type { Middleware } from 'openapi-fetch';

/**
 * The operations whose 401 is not "the access token is missing or stale": the public ones
 * that answer 401 themselves (bad credentials, the refresh token is gone, the second-factor
 * challenge is over). Refreshing there would be wrong or would loop; every other 401 of the
 * document says "refresh and retry once". test/unit/client.test.ts checks this list against
 * the document.
 */
export const NO_REFRESH_ON_401: ReadonlySet<string> = new Set(['POST /auth/login', 'POST /auth/refresh', 'POST /auth/mfa/verify']);

export const REFRESH_PATH = '/auth/refresh';

export interface RefreshOptions {
  /**
   * Called once each time a refresh is refused (the session is over: show the login page).
   * The requests that waited for that refresh answer their original 401.
   */
  onSessionExpired?: () => void;
}

/**
 * Refresh on 401, single-flight, retry once.
 *
 * The access cookie lives 15 minutes; the refresh cookie (Path=/auth) renews it. When a call
 * answers 401, this middleware sends POST /auth/refresh and, if that succeeds, sends the call
 * again, once. Calls that answer 401 while a refresh is under way wait for that same refresh
 * instead of starting their own: the server lets only one of several parallel refreshes with
 * one token win, and an older token presented later counts as a replay. A call sent before a
 * refresh that has since succeeded is retried without refreshing again. When the refresh is
 * refused, each waiting call gets its original 401 and `onSessionExpired` runs once; when
 * the refresh cannot be sent at all (network), the calls reject with that error.
 *
 * fetch consumes a request's body, so each call is cloned before it is sent: the retry sends
 * the same method, URL, headers (an Idempotency-Key included) and body. The client keeps this
 * middleware last, so the clone is the request as every other middleware left it.
 */
export function refreshOn401({ onSessionExpired }: RefreshOptions = {}): Middleware {
  /** The copy to resend of each call in flight, and how many refreshes had succeeded when it left. */
  const sent = new Map<string, { copy: Request; generation: number }>();
  let generation = 0;
  let refreshing: Promise<boolean> | undefined;

  async function attemptRefresh(baseUrl: string, fetch: typeof globalThis.fetch): Promise<boolean> {
    const response = await fetch(new Request(`${baseUrl}${REFRESH_PATH}`, { method: 'POST', credentials: 'include' }));
    await response.body?.cancel();
    if (response.ok) {
      generation += 1;
      return true;
    }
    onSessionExpired?.();
    return false;
  }

  /** One refresh at a time; every 401 that arrives meanwhile shares its outcome. */
  function refreshOnce(baseUrl: string, fetch: typeof globalThis.fetch): Promise<boolean> {
    refreshing ??= attemptRefresh(baseUrl, fetch).finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  return {
    onRequest({ request, schemaPath, id }) {
      if (NO_REFRESH_ON_401.has(`${request.method} ${schemaPath}`)) return;
      sent.set(id, { copy: request.clone(), generation });
    },
    async onResponse({ response, id, options }) {
      const call = sent.get(id);
      sent.delete(id);
      if (call === undefined || response.status !== 401) return undefined;
      const renewed = call.generation < generation || (await refreshOnce(options.baseUrl, options.fetch));
      if (!renewed) return undefined;
      await response.body?.cancel();
      // Called as a plain function: a browser's own fetch called as a method of another object
      // (`options.fetch(...)`, openapi-fetch's default) throws "Illegal invocation".
      const { fetch } = options;
      return fetch(call.copy);
    },
    onError({ id }) {
      sent.delete(id);
    },
  };
}
