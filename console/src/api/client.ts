import { createBackofficeClient, idempotencyKey, ProblemError, unwrap } from '@backoffice/client';

/**
 * The console's one API client: the typed client of clients/typescript, on the page's own
 * origin (the console is served beside the API, so the SameSite=Strict cookies travel), with
 * its refresh on 401. When the refresh fails the session has ended: the app goes back to
 * sign-in, keeping where the user was (app/session.tsx registers that handler).
 */
let onSessionExpired: () => void = () => undefined;

export function whenSessionExpires(handler: () => void): void {
  onSessionExpired = handler;
}

export const api = createBackofficeClient({
  baseUrl: typeof window === 'undefined' ? 'http://127.0.0.1:3000' : window.location.origin,
  onSessionExpired: () => onSessionExpired(),
});

export { idempotencyKey, ProblemError, unwrap };

/** The `cursor` of a list's next page, from its `Link: <…?cursor=…>; rel="next"` header (none on the last page). */
export function nextCursorOf(response: Response): string | undefined {
  const link = response.headers.get('Link');
  if (!link) return undefined;
  const next = /<([^>]+)>\s*;\s*rel="?next"?/.exec(link)?.[1];
  if (!next) return undefined;
  return new URL(next, window.location.origin).searchParams.get('cursor') ?? undefined;
}

/** A list page with its next cursor, for the routes that page with a `Link` header. */
export async function linkPage<T>(call: Promise<{ data?: T[]; error?: unknown; response: Response }>): Promise<{ items: T[]; nextCursor: string | undefined }> {
  const result = await call;
  const items = (await unwrap(result)) ?? [];
  return { items, nextCursor: nextCursorOf(result.response) };
}

/** The Idempotency-Key header of a create, kept by the form that sends it (a retry reuses it). */
export type IdempotencyHeader = ReturnType<typeof idempotencyKey>;

/**
 * What a page adds to a resource's mutation (api/<resource>.ts): its own follow-up on success,
 * run before the hook reads the resource's queries again, so a dialog closes and its notice
 * shows while the list refreshes.
 */
export interface MutationCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => unknown;
}
