import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../db/batch';
import type { Credentials, Session } from './model';
import { db, tableName } from '../db/client';
import { keys, type Key } from '../db/keys';
import { toTenant, type Tenant } from '../tenants/repository';
import { toCredentials, toSession, toUser } from './items';
import type { User } from './users-repository';

/**
 * A user's secrets (lib/auth/model `credentialsSchema`): read only by the functions that
 * check a password or a code, written by those that change them. Every change of them goes
 * with the user item's credential version in one transaction (lib/auth/credential-state).
 */

export type { Credentials };
export { credentialsItem, credentialsPut, toCredentials } from './items';

export const credentialsKey = (user: { tenantId: string; id: string }): Key => keys.credentials(user.tenantId, user.id);

export async function getCredentials(user: { tenantId: string; id: string }): Promise<Credentials | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: credentialsKey(user), ConsistentRead: true }));
  return Item ? toCredentials(Item) : undefined;
}

/** What a password or code check needs of one account, read together: the user, its credentials, its tenant and (when asked) the caller's session. */
export interface AccountState {
  user: User | undefined;
  credentials: Credentials | undefined;
  tenant: Tenant | undefined;
  session: Session | undefined;
}

/** The account's state in one consistent BatchGetItem round trip. */
export async function readAccountState(ids: { tenantId: string; userId: string; sessionId?: string }): Promise<AccountState> {
  const wanted = [keys.user(ids.tenantId, ids.userId), keys.credentials(ids.tenantId, ids.userId), keys.tenant(ids.tenantId)];
  if (ids.sessionId) wanted.push(keys.session(ids.tenantId, ids.userId, ids.sessionId));
  const [user, credentials, tenant, session] = await getMany(wanted);
  return {
    user: user ? toUser(user) : undefined,
    credentials: credentials ? toCredentials(credentials) : undefined,
    tenant: tenant ? toTenant(tenant) : undefined,
    session: session ? toSession(session) : undefined,
  };
}

/**
 * The account that owns an e-mail, with what a password check needs: the e-mail's sentinel
 * (consistent: a new account is found at once), then `readSignInState`. Nothing found: all
 * undefined (login still runs bcrypt, against a decoy).
 */
export async function findSignInState(email: string): Promise<AccountState> {
  const { Item: sentinel } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }));
  if (!sentinel) return { user: undefined, credentials: undefined, tenant: undefined, session: undefined };
  return readAccountState({ tenantId: String(sentinel.tenantId), userId: String(sentinel.userId) });
}
