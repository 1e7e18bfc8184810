import { BadRequest, Forbidden, Unauthorized } from '../errors';
import type { Role } from './model';

export type { Role };

/**
 * Who is calling, as established by the authorizer from the store (never from a claim the
 * client could forge). API Gateway hands it to the function as string values.
 *
 * `Principal` is a signed-in user (the cookie session); `KeyPrincipal` a system calling with
 * an API key (lib/api-keys). Routes a key may use get either (`Caller`); every other
 * protected route gets a `Principal` only (lib/http/handler refuses a key there, after the
 * authorizer did).
 */
export interface Principal {
  kind: 'user';
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
   * enrolment ones answers 403 (lib/http/handler).
   */
  mfaEnrolmentRequired: boolean;
}

/**
 * A system calling with an API key. Within the resources its scopes grant (checked by the
 * authorizer) it acts as the tenant's administrator would: the key belongs to the tenant,
 * not to the administrator who made it (docs/decisions.md, "API keys").
 */
export interface KeyPrincipal {
  kind: 'api-key';
  tenantId: string;
  keyId: string;
  /** The key's name, as the audit trail shows it. */
  name: string;
  /** The one company the key may reach, or null for every company of the tenant. */
  companyId: string | null;
  role: 'ADMIN';
  platformAdmin: false;
  mfaEnrolmentRequired: false;
}

/** Whoever may call a route that API keys can use. */
export type Caller = Principal | KeyPrincipal;

/** What a caller counts as in per-caller limits and owns Idempotency-Keys as: a user's id, or `key:` and a key's. */
export const callerId = (caller: Caller): string => (caller.kind === 'user' ? caller.userId : `key:${caller.keyId}`);

/** The authorizer context: API Gateway turns every value into a string. */
export type PrincipalContext = Record<string, string>;

/**
 * Refusals the authorizer decides and the function words: a request with both a session cookie
 * and an API key (400), and a valid API key this route, scope or company is not open to (403,
 * saying which). An authorizer can only answer 401, 403 or 500, and its 403 is the gateway's
 * one fixed text; so it lets such a request through with a refusal and no principal at all,
 * and the function's first step (`fromAuthorizerContext`) answers the problem document.
 */
export type Refusal = 'both-credentials' | 'forbidden';

export const refusalContext = (refusal: Refusal, detail: string): PrincipalContext => ({ refusal, detail });

export function toAuthorizerContext(caller: Caller): PrincipalContext {
  if (caller.kind === 'api-key') {
    return {
      kind: caller.kind,
      tenantId: caller.tenantId,
      keyId: caller.keyId,
      name: caller.name,
      companyId: caller.companyId ?? '',
      role: caller.role,
      platformAdmin: 'false',
      mfaEnrolmentRequired: 'false',
    };
  }
  return {
    kind: caller.kind,
    tenantId: caller.tenantId,
    userId: caller.userId,
    sessionId: caller.sessionId,
    jti: caller.jti,
    role: caller.role,
    platformAdmin: String(caller.platformAdmin),
    name: caller.name,
    email: caller.email,
    tokenExpiresAt: String(caller.tokenExpiresAt),
    sessionsValidFrom: caller.sessionsValidFrom ?? '',
    credentialVersion: String(caller.credentialVersion),
    mfaEnrolmentRequired: String(caller.mfaEnrolmentRequired),
  };
}

/** Read the caller back from `requestContext.authorizer`; 401 when it is not there, 400 for both credentials at once. */
export function fromAuthorizerContext(context: Record<string, unknown> | null | undefined): Caller {
  if (context?.refusal !== undefined) {
    const detail = typeof context.detail === 'string' ? context.detail : undefined;
    if (context.refusal === 'both-credentials') throw new BadRequest(detail);
    throw new Forbidden(detail);
  }
  const value = (key: string): string => {
    const raw = context?.[key];
    if (typeof raw === 'string' && raw !== '') return raw;
    if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
    throw new Unauthorized();
  };
  if (context?.kind === 'api-key') {
    const companyId = context.companyId;
    return {
      kind: 'api-key',
      tenantId: value('tenantId'),
      keyId: value('keyId'),
      name: value('name'),
      companyId: typeof companyId === 'string' && companyId !== '' ? companyId : null,
      role: 'ADMIN',
      platformAdmin: false,
      mfaEnrolmentRequired: false,
    };
  }
  const role = value('role');
  if (role !== 'ADMIN' && role !== 'MEMBER') throw new Unauthorized();
  const credentialVersion = Number(value('credentialVersion'));
  if (!Number.isInteger(credentialVersion)) throw new Unauthorized();
  return {
    kind: 'user',
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
