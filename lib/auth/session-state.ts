import type { Session, User } from './model';

/** How often `lastActiveAt` may move: once a minute, not on every request. */
export const LAST_ACTIVE_RESOLUTION_MS = 60_000;

/**
 * Whether a session still authenticates: active, before its absolute expiry, and not older
 * than the user's last password reset. The authorizer, refresh and the session list all
 * decide with this one rule.
 */
export function isSessionLive(session: Session, user: Pick<User, 'sessionsValidFrom'>, nowMs: number): boolean {
  return (
    session.status === 'ACTIVE' &&
    Date.parse(session.expiresAt) > nowMs &&
    (user.sessionsValidFrom === null || session.createdAt >= user.sessionsValidFrom)
  );
}
