import type { Middleware } from 'openapi-fetch';

/**
 * Server mode: the client sends an API key (`Authorization: Bearer bo_live_…`) instead of the
 * session cookies. Keys are for servers (a point of sale's back end, a store's, an ERP): the
 * API refuses a key sent with an `Origin` header, and a key in a page is a leaked key, so the
 * client refuses to hold one in a browser.
 */

/**
 * The text of a whole API key, `bo_<live|test>_<keyId>_<secret><checksum>`: the server's
 * `API_KEY_PATTERN` (lib/api-keys/format.ts), copied because this package ships alone and
 * imports nothing of the server's; test/unit/client.test.ts holds the two equal.
 */
export const API_KEY_PATTERN = 'bo_(?:live|test)_[0-9A-Za-z]{30}_[0-9A-Za-z]{49}';

const WHOLE_KEY = new RegExp(`^${API_KEY_PATTERN}$`);

/** Whether this runs in a page (a window or a document), where an API key has no place. */
const inBrowser = (): boolean => 'document' in globalThis || 'window' in globalThis;

/**
 * Refuse, when the client is made, what would fail on every call or leak the key: a browser,
 * a malformed key (its text is never repeated in the message), and a session callback.
 */
export function checkServerMode(apiKey: string, onSessionExpired: unknown): void {
  if (inBrowser()) {
    throw new Error(
      'createBackofficeClient: API keys are for servers, not browsers (a key in a page is a leaked key, and the API refuses a key sent with an Origin header); in a browser, leave out apiKey and sign in with the session cookies',
    );
  }
  if (typeof apiKey !== 'string' || !WHOLE_KEY.test(apiKey)) {
    throw new Error(
      'createBackofficeClient: apiKey is not a back-office API key: expected bo_live_… or bo_test_… whole, as POST /api-keys showed it, without spaces or line breaks',
    );
  }
  if (onSessionExpired !== undefined) {
    throw new Error('createBackofficeClient: onSessionExpired does not go with apiKey: a key has no session to expire and is never refreshed');
  }
}

/** The middleware that puts the key on every request, over any Authorization header a call set. */
export function bearerKey(apiKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${apiKey}`);
    },
  };
}
