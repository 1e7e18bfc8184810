import { readAuthorizationState } from '../db/repositories/authorization';
import { Unauthorized } from '../errors';
import type { Principal } from './principal';
import { verifyAccessToken } from './tokens';

/**
 * The authorizer's decision for an access token: the token verifies (signature, type, iss,
 * aud, exp, claims), then in one round trip the session is active and belongs to the token's
 * user and tenant, the jti is not blacklisted, the user still exists and the tenant is
 * active. The principal carries the tenant recorded on the session.
 */
export async function authorize(accessToken: string | undefined, nowMs: number): Promise<Principal> {
  if (!accessToken) throw new Unauthorized('No access token');
  const claims = await verifyAccessToken(accessToken);
  const { tenant, user, session, jtiRevoked } = await readAuthorizationState({
    tenantId: claims.tenantId,
    userId: claims.sub,
    sessionId: claims.sessionId,
    jti: claims.jti,
  });

  if (!session || session.status !== 'ACTIVE' || Date.parse(session.expiresAt) <= nowMs) throw new Unauthorized('The session has ended');
  if (session.userId !== claims.sub || session.tenantId !== claims.tenantId) throw new Unauthorized('The session has ended');
  if (jtiRevoked) throw new Unauthorized('The token was revoked');
  if (!user || user.tenantId !== session.tenantId) throw new Unauthorized('The user no longer exists');
  if (!tenant || tenant.status !== 'ACTIVE') throw new Unauthorized('The tenant is not active');

  return {
    tenantId: session.tenantId,
    userId: user.id,
    sessionId: session.id,
    jti: claims.jti,
    role: user.role,
    platformAdmin: user.platformAdmin,
    name: user.name,
    email: user.email,
    tokenExpiresAt: claims.exp,
  };
}
