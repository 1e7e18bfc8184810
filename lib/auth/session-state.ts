/** The rule of a live session and the cap of sessions per user (lib/domain/session-liveness). */
export { isSessionLive, MAX_SESSIONS_PER_USER } from '../domain/session-liveness';

/**
 * The user as of the credentials a check read: their version is the one the session it opens
 * is bound to (and its write conditioned on). The user item, read beside them in a
 * BatchGetItem that is no snapshot, may already carry a newer one; the write's condition then
 * fails, as it should.
 */
export const atCheckedVersion = <U extends { credentialVersion: number }>(user: U, credentials: { credentialVersion: number }): U => ({
  ...user,
  credentialVersion: credentials.credentialVersion,
});

/** How often `lastActiveAt` may move: once a minute, not on every request. */
export const LAST_ACTIVE_RESOLUTION_MS = 60_000;
