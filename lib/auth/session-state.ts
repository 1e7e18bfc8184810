/** The rule of a live session and the cap of sessions per user (lib/domain/session-liveness). */
export { isSessionLive, MAX_SESSIONS_PER_USER } from '../domain/session-liveness';

/** How often `lastActiveAt` may move: once a minute, not on every request. */
export const LAST_ACTIVE_RESOLUTION_MS = 60_000;
