import { readAuthorizationState } from './authorization-repository';
import { touchSession } from './sessions-repository';
import { Unauthorized } from '../errors';
import type { MfaPolicy } from '../tenants/model';
import type { User } from './model';
import type { Principal } from './principal';
import { isSessionLive, LAST_ACTIVE_RESOLUTION_MS } from './session-state';
import { verifyAccessToken } from './tokens';

/**
 * Whether the tenant's policy requires a second factor of this user, who has none yet: from
 * the tenant and the user the authorizer reads anyway, so the rule costs no round trip.
 */
export function mustEnrolSecondFactor(policy: MfaPolicy, user: Pick<User, 'role' | 'totpEnabledAt'> & { platformAdmin?: boolean }): boolean {
  if (user.totpEnabledAt) return false;
  // A platform administrator always needs one (create-admin enrols it; docs/administration.md).
  return user.platformAdmin === true || policy === 'ALL' || (policy === 'ADMINS' && user.role === 'ADMIN');
}

/**
 * The authorizer's decision for an access token: the token verifies (signature, type, iss,
 * aud, exp, claims), then in one round trip the session is active and belongs to the token's
 * user and tenant, the jti is not blacklisted, the user still exists and the tenant is
 * active. The principal carries the tenant recorded on the session.
 *
 * `lastActiveAt` moves at most once a minute: a second, conditional write only when the
 * recorded value is older than that.
 */
export async function authorize(accessToken: string | undefined, nowMs: number): Promise<Principal> {
  // Only a string is a token (a cookie jar is built from client-chosen names).
  if (typeof accessToken !== 'string' || !accessToken) throw new Unauthorized('No access token');
  const claims = await verifyAccessToken(accessToken);
  const { tenant, user, session, jtiRevoked } = await readAuthorizationState({
    tenantId: claims.tenantId,
    userId: claims.sub,
    sessionId: claims.sessionId,
    jti: claims.jti,
  });

  if (!user || user.tenantId !== claims.tenantId) throw new Unauthorized('The user no longer exists');
  if (!session || session.userId !== claims.sub || session.tenantId !== claims.tenantId || !isSessionLive(session, user, nowMs)) {
    throw new Unauthorized('The session has ended');
  }
  if (jtiRevoked) throw new Unauthorized('The token was revoked');
  if (!tenant || tenant.status !== 'ACTIVE') throw new Unauthorized('The tenant is not active');

  if (nowMs - Date.parse(session.lastActiveAt) >= LAST_ACTIVE_RESOLUTION_MS) {
    await touchSession(session, new Date(nowMs).toISOString(), new Date(nowMs - LAST_ACTIVE_RESOLUTION_MS).toISOString());
  }

  return {
    kind: 'user',
    tenantId: session.tenantId,
    userId: user.id,
    sessionId: session.id,
    jti: claims.jti,
    role: user.role,
    platformAdmin: user.platformAdmin,
    name: user.name,
    email: user.email,
    tokenExpiresAt: claims.exp,
    sessionsValidFrom: user.sessionsValidFrom,
    credentialVersion: user.credentialVersion,
    mfaEnrolmentRequired: mustEnrolSecondFactor(tenant.mfaPolicy, user),
  };
}
