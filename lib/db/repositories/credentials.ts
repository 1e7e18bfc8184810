import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../batch';
import type { Credentials, Session } from '../../auth/model';
import { db, tableName } from '../client';
import { USER_ITEMS } from '../item-types';
import { fieldsOf, pick, withoutNulls } from '../items';
import { keys, type Key } from '../keys';
import { toSession } from './sessions';
import { toTenant, type Tenant } from './tenants';
import { toUser, type User } from './users';

/**
 * A user's secrets (lib/auth/model `credentialsSchema`): read only by the functions that
 * check a password or a code, written by those that change them. Every change of them goes
 * with the user item's credential version in one transaction (lib/auth/credential-state).
 */

export type { Credentials };

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const FIELDS = fieldsOf<Credentials>()(['tenantId', 'userId', 'credentialVersion', 'passwordHash', 'resetTokenHash', 'totpSecret', 'totpLastStep', 'totpPendingSecret', 'recoveryCodeHashes']);

export function toCredentials(item: Record<string, unknown>): Credentials {
  const credentials = pick<Credentials>(item, FIELDS);
  // Recovery codes are a string set (a use removes one atomically with DELETE).
  const codes = item.recoveryCodeHashes;
  return {
    ...credentials,
    // Credentials from before the version (moved by `npm run migrate` from a user without one): 0.
    credentialVersion: typeof item.credentialVersion === 'number' ? item.credentialVersion : 0,
    recoveryCodeHashes: codes instanceof Set ? [...(codes as Set<string>)] : null,
  };
}

export const credentialsKey = (user: { tenantId: string; id: string }): Key => keys.credentials(user.tenantId, user.id);

/** The item of a user's credentials, as stored (recovery codes as a string set, which DynamoDB cannot hold empty). */
export function credentialsItem(credentials: Credentials): Record<string, unknown> {
  const { recoveryCodeHashes, ...rest } = credentials;
  return {
    ...keys.credentials(credentials.tenantId, credentials.userId),
    type: USER_ITEMS.credentials,
    ...withoutNulls(rest),
    ...(recoveryCodeHashes?.length ? { recoveryCodeHashes: new Set(recoveryCodeHashes) } : {}),
  };
}

/** The Put of a new user's credentials, for the transaction that creates the user. */
export const credentialsPut = (credentials: Credentials): TransactItem => ({
  Put: { TableName: tableName(), Item: credentialsItem(credentials), ConditionExpression: 'attribute_not_exists(pk)' },
});

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
