import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { keys, type Key } from '../db/keys';
import type { ApiKey } from '../api-keys/model';
import { toApiKey } from '../api-keys/repository';
import { toSession, type Session } from './sessions-repository';
import { toTenant, type Tenant } from '../tenants/repository';
import { toUser, type User } from './users-repository';

export interface AuthorizationState {
  tenant: Tenant | undefined;
  user: User | undefined;
  session: Session | undefined;
  /** True when this access token's jti is on the blacklist (logged out). */
  jtiRevoked: boolean;
}

/** Read items in one consistent BatchGetItem (again for keys the store left unprocessed, which is rare: throttling). */
async function readConsistently(wanted: Key[]): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let pending: Key[] = wanted;
  // The SDK already retried the request itself.
  for (let attempt = 0; pending.length > 0 && attempt < 3; attempt += 1) {
    const result = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
    found.push(...(result.Responses?.[tableName()] ?? []));
    pending = (result.UnprocessedKeys?.[tableName()]?.Keys as Key[] | undefined) ?? [];
  }
  if (pending.length > 0) throw Object.assign(new Error('Unprocessed keys after retries'), { name: 'ThrottlingException' });
  return found;
}

/**
 * Everything the authorizer needs, in one consistent BatchGetItem round trip: tenant, user,
 * session and the jti blacklist entry. `jti` is optional (refresh has no access jti).
 */
export async function readAuthorizationState(ids: { tenantId: string; userId: string; sessionId: string; jti?: string }): Promise<AuthorizationState> {
  const wanted: Key[] = [keys.tenant(ids.tenantId), keys.user(ids.tenantId, ids.userId), keys.session(ids.tenantId, ids.userId, ids.sessionId)];
  if (ids.jti) wanted.push(keys.revokedJti(ids.tenantId, ids.userId, ids.jti));

  const found = await readConsistently(wanted);
  const bySk = (sk: string) => found.find((item) => item.sk === sk && item.pk === wanted.find((key) => key.sk === sk)?.pk);
  const tenant = bySk(keys.tenant(ids.tenantId).sk);
  const user = bySk(keys.user(ids.tenantId, ids.userId).sk);
  const session = bySk(keys.session(ids.tenantId, ids.userId, ids.sessionId).sk);
  const revoked = ids.jti ? bySk(keys.revokedJti(ids.tenantId, ids.userId, ids.jti).sk) : undefined;
  return {
    tenant: tenant ? toTenant(tenant) : undefined,
    user: user ? toUser(user) : undefined,
    session: session ? toSession(session) : undefined,
    jtiRevoked: revoked !== undefined,
  };
}

/** What the authorizer needs for an API key: the key and its tenant, in one round trip. */
export async function readKeyAuthorizationState(tenantId: string, keyId: string): Promise<{ tenant: Tenant | undefined; key: ApiKey | undefined }> {
  const tenantKey = keys.tenant(tenantId);
  const keyKey = keys.apiKey(tenantId, keyId);
  const found = await readConsistently([tenantKey, keyKey]);
  const item = (wanted: Key) => found.find((candidate) => candidate.pk === wanted.pk && candidate.sk === wanted.sk);
  const tenant = item(tenantKey);
  const key = item(keyKey);
  return { tenant: tenant ? toTenant(tenant) : undefined, key: key ? toApiKey(key) : undefined };
}
