import type { AuditRecord } from '../audit/model';
import { auditRecord } from '../audit/record';
import type { Principal } from '../auth/principal';
import { config } from '../config';
import { deleteApiKey, getApiKey, insertApiKey, listApiKeyPage, rollApiKey as storeRoll } from './repository';
import { getCompany } from '../companies/repository';
import { listAdministratorEmails } from '../auth/users-repository';
import { Conflict, Forbidden, NotFound, ValidationError } from '../errors';
import { mailer } from '../mail/mailer';
import { sendQuietly } from '../mail/send-quietly';
import { apiKeyMail } from '../mail/templates';
import { keyOrderedPage, type Page, type PageRequest } from '../pages';
import { hashKeyText, keyPrefixOf, newKeyId, newKeyText } from './format';
import type { ApiKey } from './model';
import type { ApiKeySecretView, ApiKeyView, CreateApiKeyInput } from './schemas';
import { allLevels, type ApiKeyScopes } from '../domain/key-scopes';

/** A tenant's administrators who hear of a new or rolled key: the first this many. */
const MAX_NOTIFIED_ADMINISTRATORS = 50;

const requireTenantAdmin = (principal: Principal, what: string): void => {
  if (principal.role !== 'ADMIN') throw new Forbidden(`Only a tenant administrator may ${what}`);
};

function view(key: ApiKey, nowMs: number): ApiKeyView {
  const previousWorks = key.previousExpiresAt !== null && Date.parse(key.previousExpiresAt) > nowMs;
  return {
    id: key.id,
    name: key.name,
    scopes: allLevels(key.scopes),
    companyId: key.companyId,
    prefix: key.prefix,
    createdBy: key.createdBy,
    createdAt: key.createdAt,
    expiresAt: key.expiresAt,
    lastUsedAt: key.lastUsedAt,
    lastUsedIp: key.lastUsedIp,
    rolledAt: key.rolledAt,
    previousSecretExpiresAt: previousWorks ? key.previousExpiresAt : null,
  };
}

const record = (principal: Principal, action: 'api_key.created' | 'api_key.rolled' | 'api_key.revoked', keyId: string, nowMs: number): AuditRecord =>
  auditRecord({ scope: { tenantId: principal.tenantId }, action, resource: { type: 'api_key', id: keyId } }, nowMs);

/** Tell every administrator of the tenant (a failure is logged, never the answer). */
async function notifyAdministrators(principal: Principal, change: Parameters<typeof apiKeyMail>[1]): Promise<void> {
  await sendQuietly(async () => {
    const send = await mailer();
    for (const email of await listAdministratorEmails(principal.tenantId, MAX_NOTIFIED_ADMINISTRATORS)) await send.send(apiKeyMail(email, change));
  }, 'API key notice');
}

/**
 * Make a key (tenant administrators): its text is answered this once, only its SHA-256 is
 * kept. Not idempotent by design: an Idempotency-Key would have to keep the answer, and with
 * it the secret; a retry makes a second key, which the list shows and DELETE revokes.
 */
export async function createApiKey(principal: Principal, input: CreateApiKeyInput, nowMs: number): Promise<ApiKeySecretView> {
  requireTenantAdmin(principal, 'create API keys');
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt).toISOString();
  if (expiresAt !== null && Date.parse(expiresAt) <= nowMs) throw ValidationError.of('expiresAt', 'must be in the future');
  if (input.companyId !== undefined && (input.scopes.companies ?? 'none') === 'none') {
    throw ValidationError.of('companyId', 'limits the companies a key reaches: grant companies read or write with it');
  }
  if (input.companyId !== undefined && !(await getCompany(principal.tenantId, input.companyId)))
    throw ValidationError.of('companyId', 'is no company of this tenant');
  const scopes: ApiKeyScopes = {};
  for (const [resource, level] of Object.entries(input.scopes) as [keyof ApiKeyScopes, string | undefined][]) {
    if (level === 'read' || level === 'write') scopes[resource] = level;
  }
  // A key id is random: a collision (one in 3,844 within one second of one tenant) draws another.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const id = newKeyId(principal.tenantId, nowMs);
    const text = newKeyText(config().API_KEY_ENVIRONMENT, id);
    const key: ApiKey = {
      id,
      tenantId: principal.tenantId,
      name: input.name,
      scopes,
      companyId: input.companyId ?? null,
      prefix: keyPrefixOf(text),
      createdBy: { id: principal.userId, name: principal.name },
      createdAt: new Date(nowMs).toISOString(),
      expiresAt,
      lastUsedAt: null,
      lastUsedIp: null,
      rolledAt: null,
      secretHash: hashKeyText(text),
      previousSecretHash: null,
      previousExpiresAt: null,
    };
    if (await insertApiKey(key, record(principal, 'api_key.created', id, nowMs))) {
      await notifyAdministrators(principal, { action: 'created', keyName: key.name, prefix: key.prefix, by: principal.name });
      return { ...view(key, nowMs), key: text };
    }
  }
  throw new Error('could not draw a free API key id');
}

/** A page of the tenant's keys, newest first (tenant administrators). */
export async function listApiKeys(principal: Principal, page: PageRequest, nowMs: number): Promise<Page<ApiKeyView>> {
  requireTenantAdmin(principal, 'see the API keys');
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'api-keys' } }, page, async (at) => {
    const { items, lastSk } = await listApiKeyPage(principal.tenantId, at, nowMs);
    return { items: items.map((key) => view(key, nowMs)), ...(lastSk === undefined ? {} : { lastSk }) };
  });
}

/**
 * A new secret for a key (tenant administrators): the one it replaces keeps working for
 * `expiresInHours` (0: it stops at once), so the systems holding it can move over. Two rolls at
 * once: one wins, the other is a 409 (each would otherwise believe its secret the only one).
 */
export async function rollApiKey(principal: Principal, keyId: string, expiresInHours: number, nowMs: number): Promise<ApiKeySecretView> {
  requireTenantAdmin(principal, 'roll API keys');
  const key = await getApiKey(principal.tenantId, keyId);
  if (!key) throw new NotFound('No such API key');
  const text = newKeyText(config().API_KEY_ENVIRONMENT, key.id);
  const roll = {
    secretHash: hashKeyText(text),
    prefix: keyPrefixOf(text),
    rolledAt: new Date(nowMs).toISOString(),
    previousExpiresAt: new Date(nowMs + expiresInHours * 3600 * 1000).toISOString(),
  };
  if (!(await storeRoll(key, key.secretHash, roll, record(principal, 'api_key.rolled', key.id, nowMs)))) {
    throw new Conflict('The key was rolled or revoked meanwhile; list the keys and try again');
  }
  await notifyAdministrators(principal, {
    action: 'rolled',
    keyName: key.name,
    prefix: roll.prefix,
    by: principal.name,
    ...(expiresInHours > 0 ? { previousWorksUntil: roll.previousExpiresAt } : {}),
  });
  const rolled: ApiKey = { ...key, ...roll, previousSecretHash: key.secretHash };
  return { ...view(rolled, nowMs), key: text };
}

/** Revoke a key (tenant administrators): the next request with it gets 401. */
export async function revokeApiKey(principal: Principal, keyId: string, nowMs: number): Promise<void> {
  requireTenantAdmin(principal, 'revoke API keys');
  if (!(await deleteApiKey(principal.tenantId, keyId, record(principal, 'api_key.revoked', keyId, nowMs)))) throw new NotFound('No such API key');
}
