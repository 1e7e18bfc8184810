import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { readAuthorizationState } from './authorization-repository';
import { auditRecord, userActor } from '../audit/record';
import {
  listSessionsOfUser,
  revokeActiveSession,
  revokeLiveSessions,
  revokeSession,
  revokeSessionAndJti,
  rotateRefreshJti,
  SESSIONS_PER_REVOCATION,
} from './sessions-repository';
import { withOptimisticRetries } from '../db/retry';
import { NotFound, Unauthorized } from '../errors';
import { countRefreshReuse, countSessionsRevoked } from '../metrics';
import type { IssuedTokens } from './tokens';
import type { Principal } from './principal';
import type { Session, User } from './model';
import type { IdempotentWrite } from '../idempotency/model';
import type { AuditRecord } from '../audit/model';
import type { MessageView, RevokedSessionsView, SessionView, UserView } from './schemas';
import { isSessionLive } from './session-state';
import { signAccessToken, signRefreshToken, verifyRefreshToken } from './tokens';

/** How long an already-rotated refresh token is a lost race rather than a replay (parallel tabs). */
export const REFRESH_GRACE_SECONDS = 10;

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

export const toUserView = (user: Pick<User, 'id' | 'name' | 'email' | 'tenantId'>): UserView => ({
  id: user.id,
  name: user.name,
  email: user.email,
  tenantId: user.tenantId,
});

const epoch = (ms: number) => Math.floor(ms / 1000);

async function issueTokens(session: Session, nowMs: number): Promise<{ tokens: IssuedTokens; refreshJti: string }> {
  const subject = { userId: session.userId, tenantId: session.tenantId, sessionId: session.id };
  const expiresAt = epoch(Date.parse(session.expiresAt));
  const access = await signAccessToken(subject, epoch(nowMs));
  const refresh = await signRefreshToken(subject, epoch(nowMs), expiresAt);
  return {
    refreshJti: refresh.jti,
    tokens: {
      accessToken: access.token,
      refreshToken: refresh.token,
      accessMaxAge: config().ACCESS_TOKEN_TTL_SECONDS,
      // Remember me: a persistent cookie until the session's absolute expiry; otherwise a
      // browser-session cookie that dies with the browser.
      refreshMaxAge: session.rememberMe ? Math.max(0, expiresAt - epoch(nowMs)) : undefined,
    },
  };
}

/**
 * A new session for a user who just proved who they are, with its first token pair, at the
 * credential version the proof was checked against (`credentialVersion`: the user's, or the
 * next one when the same transaction changes the credentials). The caller persists it, in the
 * transaction that is conditioned on that version (lib/auth/session-opening).
 */
export async function openSession(
  user: Pick<User, 'tenantId' | 'id'>,
  rememberMe: boolean,
  client: ClientInfo,
  nowMs: number,
  credentialVersion: number,
): Promise<{ session: Session; tokens: IssuedTokens }> {
  const { REFRESH_TOKEN_TTL_SECONDS, REMEMBER_ME_TTL_SECONDS } = config();
  const now = new Date(nowMs).toISOString();
  const lifetime = rememberMe ? REMEMBER_ME_TTL_SECONDS : REFRESH_TOKEN_TTL_SECONDS;
  const draft: Session = {
    id: randomUUID(),
    tenantId: user.tenantId,
    userId: user.id,
    status: 'ACTIVE',
    rememberMe,
    createdAt: now,
    lastActiveAt: now,
    expiresAt: new Date(nowMs + lifetime * 1000).toISOString(),
    ipAddress: client.ip,
    userAgent: client.userAgent.slice(0, 512),
    refreshJti: '',
    previousRefreshJti: null,
    rotatedAt: null,
    revokedAt: null,
    credentialVersion,
  };
  const { tokens, refreshJti } = await issueTokens(draft, nowMs);
  return { session: { ...draft, refreshJti }, tokens };
}

/**
 * Refresh with rotation and reuse detection (RFC 9700 section 4.14.2):
 * 1. verify the refresh token (signature, type, iss, aud, exp);
 * 2. read session, user and tenant in one round trip; all must still be active;
 * 3. the presented jti must be the session's current one. The one it replaced, within
 *    REFRESH_GRACE_SECONDS of the rotation, is a parallel tab that lost the race: 401 but the
 *    session lives. Any other jti is a replayed token: the whole session is revoked;
 * 4. a conditional write swaps in the new jti, so of parallel refreshes one wins.
 */
export async function refreshSession(refreshToken: string | undefined, nowMs: number): Promise<{ user: UserView; tokens: IssuedTokens }> {
  if (!refreshToken) throw new Unauthorized('No refresh token');
  const claims = await verifyRefreshToken(refreshToken);
  const { tenant, user, session } = await readAuthorizationState({ tenantId: claims.tenantId, userId: claims.sub, sessionId: claims.sessionId });
  const now = new Date(nowMs).toISOString();

  if (!session || !user || !tenant || tenant.status !== 'ACTIVE' || !isSessionLive(session, user, nowMs)) {
    throw new Unauthorized('The session has ended');
  }

  if (claims.jti !== session.refreshJti) {
    const lostRace =
      claims.jti === session.previousRefreshJti && session.rotatedAt !== null && nowMs - Date.parse(session.rotatedAt) <= REFRESH_GRACE_SECONDS * 1000;
    if (!lostRace) {
      await revokeSession(session, now, sessionRecord('auth.refresh_reuse_detected', session, user, nowMs));
      countRefreshReuse();
      countSessionsRevoked('refresh_reuse');
    }
    throw new Unauthorized(lostRace ? 'The refresh token was already used' : 'The refresh token was reused; the session is revoked');
  }

  const { tokens, refreshJti } = await issueTokens(session, nowMs);
  // Conditioned on the credential version read: a refresh cannot extend a session past a password reset.
  const rotated = await rotateRefreshJti(session, user, claims.jti, refreshJti, now, sessionRecord('auth.refresh', session, user, nowMs));
  if (rotated === 'credentials-changed') throw new Unauthorized('The session has ended');
  if (rotated === 'lost-race') throw new Unauthorized('The refresh token was already used');
  return { user: toUserView(user), tokens };
}

/**
 * How an opening records each live session it ends to stay within MAX_SESSIONS_PER_USER: one
 * `session.evicted` entry per session, the opening user as the actor.
 */
export const evictionRecord =
  (user: { id: string; name: string }, nowMs: number) =>
  (evicted: Session): AuditRecord =>
    sessionRecord('session.evicted', { tenantId: evicted.tenantId, id: evicted.id }, user, nowMs);

/** The entry of an event of one session of the user (the refresh route is public: the session's user is the actor). */
const sessionRecord = (
  action: 'auth.refresh' | 'auth.refresh_reuse_detected' | 'auth.logout' | 'session.revoked' | 'session.evicted',
  session: { tenantId: string; id: string },
  user: { id: string; name: string },
  nowMs: number,
) => auditRecord({ scope: { tenantId: session.tenantId }, action, resource: { type: 'session', id: session.id }, actor: userActor(user) }, nowMs);

/** Logout: the session is revoked and the access token's jti blacklisted until it expires. */
export async function endSession(principal: Principal, nowMs: number): Promise<void> {
  await revokeSessionAndJti(
    { tenantId: principal.tenantId, userId: principal.userId, sessionId: principal.sessionId, jti: principal.jti, jtiExpiresAt: principal.tokenExpiresAt },
    new Date(nowMs).toISOString(),
    sessionRecord('auth.logout', { tenantId: principal.tenantId, id: principal.sessionId }, { id: principal.userId, name: principal.name }, nowMs),
  );
  countSessionsRevoked('logout');
}

/** The caller's live sessions in the caller's tenant, newest first. */
export async function listActiveSessions(principal: Principal, nowMs: number): Promise<SessionView[]> {
  const sessions = await listSessionsOfUser(principal.tenantId, principal.userId);
  return sessions
    .filter((session) => isSessionLive(session, principal, nowMs))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
    .map((session) => ({
      id: session.id,
      createdAt: session.createdAt,
      lastActiveAt: session.lastActiveAt,
      expiresAt: session.expiresAt,
      ipAddress: session.ipAddress,
      userAgent: session.userAgent,
      current: session.id === principal.sessionId,
    }));
}

/**
 * Revoke one of the caller's own live sessions; 404 for any other id (someone else's, an
 * ended one, an unknown one). Takes effect on that session's very next request.
 */
export async function revokeOwnSession(principal: Principal, sessionId: string, nowMs: number, idempotency?: IdempotentWrite): Promise<MessageView> {
  const view: MessageView = { message: 'Session revoked' };
  const revoked = await revokeActiveSession(
    { tenantId: principal.tenantId, userId: principal.userId, sessionId },
    new Date(nowMs).toISOString(),
    principal,
    sessionRecord('session.revoked', { tenantId: principal.tenantId, id: sessionId }, { id: principal.userId, name: principal.name }, nowMs),
    idempotency && { write: idempotency, view },
  );
  if (!revoked) throw new NotFound('No such session');
  countSessionsRevoked('revoked');
  return view;
}

/**
 * Ends every live session of the caller but the current one, in one transaction with its
 * entry (beyond SESSIONS_PER_REVOCATION sessions, in batches, the entry with the first). A
 * session that ended meanwhile fails it, and the sessions are read again; one opened after
 * the read is not touched.
 */
export async function revokeOtherSessions(principal: Principal, nowMs: number): Promise<RevokedSessionsView> {
  const now = new Date(nowMs).toISOString();
  const record = auditRecord(
    { scope: { tenantId: principal.tenantId }, action: 'session.revoked_others', resource: { type: 'user', id: principal.userId } },
    nowMs,
  );
  let revoked = 0;
  for (let batch = 0; ; batch += 1) {
    const others = await withOptimisticRetries<string[]>(async () => {
      const live = (await listSessionsOfUser(principal.tenantId, principal.userId))
        .filter((session) => session.id !== principal.sessionId && isSessionLive(session, principal, nowMs))
        .slice(0, SESSIONS_PER_REVOCATION)
        .map((session) => session.id);
      // The first batch writes the entry even when there is nothing to revoke: the request happened.
      if (live.length === 0 && batch > 0) return { retry: false, value: live };
      const done = await revokeLiveSessions(principal.tenantId, principal.userId, live, now, principal, batch === 0 ? record : null);
      return done ? { retry: false, value: live } : { retry: true };
    });
    revoked += others.length;
    if (others.length < SESSIONS_PER_REVOCATION) {
      countSessionsRevoked('others_revoked', revoked);
      return { revoked };
    }
  }
}
