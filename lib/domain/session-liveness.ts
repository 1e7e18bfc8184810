/**
 * The one rule of a live session, shared by the authorizer, refresh, the session list, the
 * revocations and the cap of sessions per user (lib/auth/session-opening). Plain
 * shapes, so that the authorizer loads no model schema and the repositories may use it.
 */

/** What the rule reads of a session. */
export interface SessionFacts {
  status: string;
  expiresAt: string;
  createdAt: string;
  /** The user's credential version when the session opened; absent on sessions older than versions. */
  credentialVersion?: number | null;
}

/** What the rule reads of the session's user. */
export interface CredentialFacts {
  credentialVersion: number;
  sessionsValidFrom: string | null;
}

/**
 * The most sessions a user keeps: a new one past it ends the oldest (dead ones go first), in
 * the transaction that opens it. So the session list and revoke-others read a bounded number
 * of items.
 */
export const MAX_SESSIONS_PER_USER = 50;

/**
 * Whether a session still authenticates: active, before its absolute expiry, and opened at
 * the user's current credential version (a password change or reset, a second factor turned
 * on, off or reset all move it on, whatever the clocks say). A session opened before versions
 * existed has none: for it, the older rule, not older than `sessionsValidFrom`.
 */
export function isSessionLive(session: SessionFacts, user: CredentialFacts, nowMs: number): boolean {
  if (session.status !== 'ACTIVE' || Date.parse(session.expiresAt) <= nowMs) return false;
  if (session.credentialVersion !== null && session.credentialVersion !== undefined) return session.credentialVersion === user.credentialVersion;
  return user.sessionsValidFrom === null || session.createdAt >= user.sessionsValidFrom;
}
