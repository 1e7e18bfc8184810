import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Credentials, Session, User } from './model';
import { db, tableName, type TransactItem } from '../db/client';
import { USER_ITEMS, SESSION_ITEMS } from '../db/item-types';
import { epochSeconds, fieldsOf, pick, withoutNulls } from '../db/items';
import { keys } from '../db/keys';
import { queryAll } from '../db/query';
import type { UpdateParts } from '../db/update-parts';

/**
 * A user's account as items: the user, its credentials and its sessions, converted from and
 * to their stored form, the credential version's conditions, and the two reads the users'
 * writes and the session opening share. Below ./users, ./credentials, ./sessions and
 * ./session-opening, which import it and never each other in a circle (each re-exports what
 * it used to declare, for its callers).
 */

const USER_FIELDS = fieldsOf<User>()([
  'id',
  'tenantId',
  'name',
  'email',
  'role',
  'platformAdmin',
  'sessionsValidFrom',
  'credentialVersion',
  'sessionCount',
  'sessionOpenings',
  'createdAt',
  'updatedAt',
  'lastLoginAt',
  'totpEnabledAt',
  'recoveryCodesLeft',
]);

/** Item -> User. The secrets are not on the user item (lib/auth/credentials-repository). */
export function toUser(item: Record<string, unknown>): User {
  const user = pick<User>(item, USER_FIELDS);
  return {
    ...user,
    platformAdmin: user.platformAdmin === true,
    // A user older than the credential version has none: version 0.
    credentialVersion: typeof item.credentialVersion === 'number' ? item.credentialVersion : 0,
    lastLoginAt: user.lastLoginAt ?? null,
  };
}

const CREDENTIALS_FIELDS = fieldsOf<Credentials>()([
  'tenantId',
  'userId',
  'credentialVersion',
  'passwordHash',
  'resetTokenHash',
  'totpSecret',
  'totpLastStep',
  'totpPendingSecret',
  'recoveryCodeHashes',
]);

export function toCredentials(item: Record<string, unknown>): Credentials {
  const credentials = pick<Credentials>(item, CREDENTIALS_FIELDS);
  // Recovery codes are a string set (a use removes one atomically with DELETE).
  const codes = item.recoveryCodeHashes;
  return {
    ...credentials,
    // Credentials from before the version (moved by `npm run migrate` from a user without one): 0.
    credentialVersion: typeof item.credentialVersion === 'number' ? item.credentialVersion : 0,
    recoveryCodeHashes: codes instanceof Set ? [...(codes as Set<string>)] : null,
  };
}

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

const SESSION_FIELDS = fieldsOf<Session>()([
  'id',
  'tenantId',
  'userId',
  'status',
  'rememberMe',
  'createdAt',
  'lastActiveAt',
  'expiresAt',
  'ipAddress',
  'userAgent',
  'refreshJti',
  'previousRefreshJti',
  'rotatedAt',
  'revokedAt',
  'credentialVersion',
]);

export const toSession = (item: Record<string, unknown>): Session => pick<Session>(item, SESSION_FIELDS);

/** The Put of a new session, for a transaction (registration) or alone (login). */
export function sessionPut(session: Session): TransactItem & { Put: object } {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.session(session.tenantId, session.userId, session.id),
        type: SESSION_ITEMS.session,
        ...withoutNulls(session),
        ttl: epochSeconds(session.expiresAt),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * The credentials a check read are still the user's: the user exists (a removed one is not
 * written back as a stub) and the version did not move (a user older than versions has none,
 * read as 0).
 */
export function credentialsAsRead(version: number): UpdateParts {
  return {
    conditions: [
      'attribute_exists(pk)',
      version === 0 ? '(attribute_not_exists(credentialVersion) OR credentialVersion = :readCredentialVersion)' : 'credentialVersion = :readCredentialVersion',
    ],
    values: { ':readCredentialVersion': version },
  };
}

/**
 * The credentials change, on the user item: the version moves on from the one read (every
 * session opened at it ends), and `sessionsValidFrom` with it (for sessions older than
 * versions), in the change's transaction.
 */
export function credentialsChange(version: number, now: string): UpdateParts {
  return {
    set: ['credentialVersion = :nextCredentialVersion', 'sessionsValidFrom = :credentialsChangedAt', 'updatedAt = :credentialsChangedAt'],
    conditions: credentialsAsRead(version).conditions ?? [],
    values: { ...credentialsAsRead(version).values, ':nextCredentialVersion': version + 1, ':credentialsChangedAt': now },
  };
}

/** The credentials item's side of a change: its version moves on with the user item's, in the same transaction. */
export function credentialsItemChange(version: number): UpdateParts {
  return { set: ['credentialVersion = :nextCredentialVersion'], conditions: ['attribute_exists(pk)'], values: { ':nextCredentialVersion': version + 1 } };
}

/** The user's credential version as read, as the condition of a write that only extends a session (a refresh). */
export function credentialsCheck(user: Pick<User, 'tenantId' | 'id' | 'credentialVersion'>): TransactItem {
  const guard = credentialsAsRead(user.credentialVersion);
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: keys.user(user.tenantId, user.id),
      ConditionExpression: guard.conditions?.join(' AND '),
      ExpressionAttributeValues: guard.values,
    },
  };
}

export async function getUser(tenantId: string, userId: string): Promise<User | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(tenantId, userId), ConsistentRead: true }));
  return Item ? toUser(Item) : undefined;
}

/** Every session item of a user (any status), following the pagination. */
export async function listSessionsOfUser(tenantId: string, userId: string): Promise<Session[]> {
  const { pk, skPrefix } = keys.sessionsOfUser(tenantId, userId);
  return (await queryAll(pk, { skPrefix, consistent: true })).map(toSession);
}
