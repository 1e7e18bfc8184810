import type { KeyPrincipal } from '../auth/principal';
import { config, storeConfig } from '../config';
import { readKeyAuthorizationState } from '../auth/authorization-repository';
import { touchApiKey } from './repository';
import { Forbidden, Unauthorized } from '../errors';
import { keyTextMatches, parseKeyText } from './format';
import { LAST_USED_RESOLUTION_MS } from './model';
import { scopesAllow, type RouteKeyAccess } from '../domain/key-scopes';

/** What the authorizer knows of a request that carries an API key. */
export interface KeyRequest {
  /** The text after `Bearer `. */
  keyText: string;
  /** What the route's manifest entry says a key needs (`false`: cookie sessions only). */
  needs: RouteKeyAccess;
  method: string;
  /** The route's path parameters (the company a company route names). */
  pathParameters: Record<string, string | undefined> | null | undefined;
  /** The caller's address, recorded as the key's last use. */
  ip: string;
}

/**
 * The authorizer's decision for an API key, cheapest checks first: the text is a well-formed
 * key of this stage's environment with a valid checksum (no read for a typo or a forgery), and
 * the route takes keys at all; then one BatchGetItem of the key and its tenant, the
 * hash compared in constant time (the current secret, or the one a roll replaced while it
 * still works), the expiry, the tenant's status, the scopes and the company.
 *
 * Throws Unauthorized (401: not a valid key) or Forbidden (403: a valid key this route or
 * this company is not open to). `lastUsedAt` moves at most once per LAST_USED_RESOLUTION_MS.
 */
export async function authorizeKey(request: KeyRequest, nowMs: number): Promise<KeyPrincipal> {
  const parsed = parseKeyText(request.keyText);
  if (!parsed) throw new Unauthorized('Not an API key (its format or checksum is wrong)');
  if (parsed.environment !== config().API_KEY_ENVIRONMENT) throw new Unauthorized(`A ${parsed.environment} key is not valid on this stage`);
  if (request.needs === false) throw new Forbidden('API keys cannot use this route: it takes a signed-in session');

  const { tenant, key } = await readKeyAuthorizationState(parsed.tenantId, parsed.keyId);
  if (!key || key.tenantId !== parsed.tenantId) throw new Unauthorized('No such API key');
  const current = keyTextMatches(request.keyText, key.secretHash);
  const previous =
    !current &&
    key.previousSecretHash !== null &&
    key.previousExpiresAt !== null &&
    Date.parse(key.previousExpiresAt) > nowMs &&
    keyTextMatches(request.keyText, key.previousSecretHash);
  if (!current && !previous) throw new Unauthorized('No such API key');
  if (key.expiresAt !== null && Date.parse(key.expiresAt) <= nowMs) throw new Unauthorized('The API key has expired');
  if (!tenant || tenant.status !== 'ACTIVE') throw new Unauthorized('The tenant is not active');

  if (!scopesAllow(key.scopes, request.needs)) throw new Forbidden(`The API key may not ${request.needs.access} ${request.needs.resource}`);
  if (key.companyId !== null && request.needs.resource === 'companies') {
    const named = request.pathParameters?.id;
    // A key of one company can neither create another nor reach one by its id.
    if (request.method === 'POST' && named === undefined) throw new Forbidden('The API key is limited to one company and cannot create another');
    if (named !== undefined && named !== key.companyId) throw new Forbidden('The API key is limited to another company');
  }

  if (key.lastUsedAt === null || nowMs - Date.parse(key.lastUsedAt) >= LAST_USED_RESOLUTION_MS) {
    const addressExpiresAt = Math.floor(nowMs / 1000) + storeConfig().ACCESS_RECORD_RETENTION_DAYS * 24 * 3600;
    await touchApiKey(
      key.tenantId,
      key.id,
      new Date(nowMs).toISOString(),
      request.ip,
      new Date(nowMs - LAST_USED_RESOLUTION_MS).toISOString(),
      addressExpiresAt,
    );
  }
  return {
    kind: 'api-key',
    tenantId: key.tenantId,
    keyId: key.id,
    name: key.name,
    companyId: key.companyId,
    role: 'ADMIN',
    platformAdmin: false,
    mfaEnrolmentRequired: false,
  };
}
