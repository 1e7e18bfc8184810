import { Unauthorized } from '../errors';
import type { Role } from './model';

export type { Role };

/**
 * Who is calling, as established by the authorizer from the session record (never from a
 * claim the client could forge). API Gateway hands it to the function as string values.
 */
export interface Principal {
  tenantId: string;
  userId: string;
  sessionId: string;
  jti: string;
  role: Role;
  platformAdmin: boolean;
  name: string;
  email: string;
  /** Access token expiry, epoch seconds (how long a jti must stay blacklisted). */
  tokenExpiresAt: number;
  /** Sessions created before this instant are void (the rule of sessions older than credential versions); null when never. */
  sessionsValidFrom: string | null;
  /** The user's credential version: a session opened at another one is dead (lib/auth/session-state). */
  credentialVersion: number;
  /**
   * The tenant requires a second factor of this user, who has none: every route but the
   * enrolment ones answers 403 (issue 17; lib/http/handler).
   */
  mfaEnrolmentRequired: boolean;
}

/** The authorizer context: API Gateway turns every value into a string. */
export type PrincipalContext = Record<keyof Principal, string>;

export function toAuthorizerContext(principal: Principal): PrincipalContext {
  return {
    tenantId: principal.tenantId,
    userId: principal.userId,
    sessionId: principal.sessionId,
    jti: principal.jti,
    role: principal.role,
    platformAdmin: String(principal.platformAdmin),
    name: principal.name,
    email: principal.email,
    tokenExpiresAt: String(principal.tokenExpiresAt),
    sessionsValidFrom: principal.sessionsValidFrom ?? '',
    credentialVersion: String(principal.credentialVersion),
    mfaEnrolmentRequired: String(principal.mfaEnrolmentRequired),
  };
}

/** Read the principal back from `requestContext.authorizer`; 401 when it is not there. */
export function fromAuthorizerContext(context: Record<string, unknown> | null | undefined): Principal {
  const value = (key: keyof Principal): string => {
    const raw = context?.[key];
    if (typeof raw === 'string' && raw !== '') return raw;
    if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
    throw new Unauthorized();
  };
  const role = value('role');
  if (role !== 'ADMIN' && role !== 'MEMBER') throw new Unauthorized();
  const credentialVersion = Number(value('credentialVersion'));
  if (!Number.isInteger(credentialVersion)) throw new Unauthorized();
  return {
    tenantId: value('tenantId'),
    userId: value('userId'),
    sessionId: value('sessionId'),
    jti: value('jti'),
    role,
    platformAdmin: value('platformAdmin') === 'true',
    name: value('name'),
    email: value('email'),
    tokenExpiresAt: Number(value('tokenExpiresAt')),
    sessionsValidFrom: typeof context?.sessionsValidFrom === 'string' && context.sessionsValidFrom !== '' ? context.sessionsValidFrom : null,
    credentialVersion,
    mfaEnrolmentRequired: context?.mfaEnrolmentRequired === 'true' || context?.mfaEnrolmentRequired === true,
  };
}
