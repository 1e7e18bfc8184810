import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import type { Credentials, Session, User } from './model';
import { USER_ITEMS } from '../db/item-types';

import { Conflict, Forbidden, NotFound } from '../errors';
import { db, tableName, type TransactItem } from '../db/client';
import { conditionally, failedConditions } from '../db/conditions';
import { withoutNulls } from '../db/items';
import { keys } from '../db/keys';
import { auditItems } from '../audit/repository';
import { credentialsAsRead, credentialsChange, credentialsItem, credentialsItemChange, credentialsPut, getUser, sessionPut, toUser } from './items';
import { openSessionInTransaction, type UserGround } from './session-opening';
import { updateItem } from '../db/update-parts';
import { sortName } from '../db/name-order';
import { getMany } from '../db/batch';
import { queryAll, queryPage } from '../db/query';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';

export type { User };
export { getUser, toUser } from './items';

/** The user, its e-mail sentinel (both conditioned on being new), its entry in the tenant's list by name and its credentials. */
function userPuts(user: User, credentials: Credentials): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.user(user.tenantId, user.id), type: USER_ITEMS.user, ...withoutNulls(user) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.email(user.email), type: USER_ITEMS.email, email: user.email, tenantId: user.tenantId, userId: user.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { TableName: tableName(), Item: { ...keys.userListing(user.tenantId, sortName(user.name), user.id), type: USER_ITEMS.listing, userId: user.id } } },
    credentialsPut(credentials),
  ];
}

/** One more (or one fewer) administrator in the tenant's count; a decrement keeps at least one. */
function adminCountWrite(tenantId: string, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.tenantAdmins(tenantId),
      UpdateExpression: 'SET #type = :type ADD n :delta',
      ...(delta < 0
        ? { ConditionExpression: 'n > :one', ExpressionAttributeValues: { ':type': USER_ITEMS.adminCount, ':delta': delta, ':one': 1 } }
        : { ExpressionAttributeValues: { ':type': USER_ITEMS.adminCount, ':delta': delta } }),
      ExpressionAttributeNames: { '#type': 'type' },
    },
  };
}

/**
 * How a registration is allowed into its tenant, re-checked inside the transaction: the
 * pending invitation of its e-mail with the presented token (used up by the registration),
 * and, for the invitation of the tenant's base account, the claim of that account.
 */
export interface Admission {
  nowEpoch: number;
  /** SHA-256 of the token the registrant presents; it must be the pending invitation's. */
  tokenHash: string;
  /** The invitation is the base account's: the tenant must still have none, with this e-mail as its `adminEmail`. */
  baseAccount: boolean;
}

function admissionChecks(user: User, admission: Admission): TransactItem[] {
  // Single use: the invitation is consumed by the registration that presents its token.
  const invitation: TransactItem = {
    Delete: {
      TableName: tableName(),
      Key: keys.invitation(user.tenantId, user.email),
      ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now AND tokenHash = :token',
      ExpressionAttributeValues: { ':now': admission.nowEpoch, ':token': admission.tokenHash },
    },
  };
  if (!admission.baseAccount) return [invitation];
  return [
    invitation,
    {
      Update: {
        TableName: tableName(),
        Key: keys.tenant(user.tenantId),
        UpdateExpression: 'SET baseAccountUserId = :user',
        ConditionExpression: 'attribute_exists(pk) AND #status = :active AND attribute_not_exists(baseAccountUserId) AND adminEmail = :email',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':user': user.id, ':active': 'ACTIVE', ':email': user.email },
      },
    },
    adminCountWrite(user.tenantId, 1),
  ];
}

/**
 * Registration in one transaction: the user, its e-mail sentinel (409 when taken), its
 * credentials, the admission (the invitation with its token, and for a base account the
 * tenant's claim; 403 when refused or lost to a concurrent request) and the first session.
 * A refused admission answers 403 even when the e-mail is taken too, so a caller who is not
 * admitted learns nothing about the address.
 */
export async function insertUserWithSession(user: User, credentials: Credentials, admission: Admission, session: Session, audit: AuditRecord): Promise<void> {
  const [userPut, emailPut, ...rest] = userPuts(user, credentials) as [TransactItem, TransactItem, ...TransactItem[]];
  try {
    await db().send(
      new TransactWriteCommand({ TransactItems: [userPut, emailPut, ...admissionChecks(user, admission), sessionPut(session), ...rest, ...auditItems(audit)] }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.some((index) => index >= 2 && index < 2 + (admission.baseAccount ? 3 : 1)))
      throw new Forbidden('Registration into this tenant is not permitted for this e-mail');
    if (failed?.includes(1)) throw new Conflict('An account with this e-mail already exists');
    throw error;
  }
}

/** The user owning an e-mail, through its sentinel (consistent: a new account is found at once). */
export async function findUserByEmail(email: string): Promise<User | undefined> {
  const { Item: sentinel } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true }));
  if (!sentinel) return undefined;
  return getUser(String(sentinel.tenantId), String(sentinel.userId));
}

/**
 * create-admin: a new platform administrator, admitted only into a tenant marked `platform`
 * (a tenant create-admin made, never one signed up through POST /tenants). The mark is
 * checked in the same transaction as the user and e-mail writes.
 */
export async function insertPlatformAdmin(user: User, credentials: Credentials, audit: AuditRecord): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          ...userPuts({ ...user, platformAdmin: true }, credentials),
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.tenant(user.tenantId),
              ConditionExpression: 'platform = :yes',
              ExpressionAttributeValues: { ':yes': true },
            },
          },
          ...auditItems(audit),
        ],
      }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(1)) throw new Conflict('An account with this e-mail already exists');
    // userPuts is four items (the user, its e-mail, its list entry, its credentials): the tenant's check is the fifth.
    if (failed?.includes(4)) throw new Forbidden('The tenant is not the platform tenant (it was not created by create-admin)');
    throw error;
  }
}

/**
 * create-admin --promote: in one transaction with its entry, grant the platform
 * administrator profile, replace the credentials (the password given, the second factor
 * enrolled, no pending reset token) and move the credential version on, which ends every
 * session (the rule of a password reset). The condition makes sure the item is still the
 * account that owns this e-mail, at the version read.
 */
export async function promoteToPlatformAdmin(
  user: Pick<User, 'tenantId' | 'id' | 'email' | 'credentialVersion'>,
  credentials: Credentials,
  now: string,
  audit: AuditRecord,
): Promise<void> {
  const change = credentialsChange(user.credentialVersion, now);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          updateItem(tableName(), keys.user(user.tenantId, user.id), change, {
            set: ['platformAdmin = :yes', 'totpEnabledAt = :credentialsChangedAt', 'recoveryCodesLeft = :recoveryCodesLeft'],
            conditions: ['attribute_exists(pk)', 'email = :email'],
            values: { ':yes': true, ':email': user.email, ':recoveryCodesLeft': credentials.recoveryCodeHashes?.length ?? 0 },
          }),
          { Put: { TableName: tableName(), Item: credentialsItem(credentials) } },
          ...auditItems(audit),
        ],
      }),
    );
  } catch (error) {
    if (failedConditions(error)?.includes(0)) throw new Conflict('The account changed meanwhile; run the command again');
    throw error;
  }
}

/** A page of the tenant's users by name (one Query of the list, one BatchGet of the page's users), after the entry `afterSk`. */
export async function listUserPage(tenantId: string, page: { limit: number; afterSk?: string }): Promise<{ items: User[]; lastSk?: string }> {
  const { items, more } = await queryPage(keys.userListingOf(tenantId).pk, page);
  const users = (await getMany(items.map((item) => keys.user(tenantId, String(item.userId))))).flatMap((item) => (item ? [toUser(item)] : []));
  return { items: users, ...(more ? { lastSk: items.at(-1)?.sk as string } : {}) };
}

/**
 * The tenant's administrator count exists before a role change or a removal relies on it. A
 * tenant whose users predate it gets it from a count of its users, written only if nobody
 * wrote it first; from then on every change keeps it.
 */
async function ensureAdminCount(tenantId: string): Promise<void> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.tenantAdmins(tenantId), ConsistentRead: true }));
  if (Item) return;
  const { pk, skPrefix } = keys.usersOfTenant(tenantId);
  const admins = (await queryAll(pk, { skPrefix, consistent: true })).filter((item) => item.type === USER_ITEMS.user && item.role === 'ADMIN').length;
  await conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.tenantAdmins(tenantId), type: USER_ITEMS.adminCount, n: admins },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

const LAST_ADMIN = 'A tenant keeps at least one administrator: promote another user first';

/**
 * The shape of an administrator's change to a user: read the user (404 when the tenant has
 * none), let `writes` say what to write (always the change's audit entry), write it in one
 * transaction in which an update of the administrator count, if any, is conditioned on
 * leaving one (its failed condition is the last administrator: 409), and read again when
 * another write got there first.
 */
async function changeUser<T>(tenantId: string, userId: string, change: (user: User) => { writes: TransactItem[]; result: T }): Promise<T> {
  await ensureAdminCount(tenantId);
  return withOptimisticRetries<T>(async () => {
    const user = await getUser(tenantId, userId);
    if (!user) throw new NotFound('No such user');
    const planned = change(user);
    try {
      await db().send(new TransactWriteCommand({ TransactItems: planned.writes }));
      return { retry: false, value: planned.result };
    } catch (error) {
      const codes = cancellationCodes(error);
      const countIndex = planned.writes.findIndex((item) => item.Update?.Key?.sk === keys.tenantAdmins(tenantId).sk);
      if (countIndex >= 0 && codes[countIndex] === 'ConditionalCheckFailed') throw new Conflict(LAST_ADMIN);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/**
 * Sets a user's role, in one transaction with the tenant's administrator count (a demotion is
 * conditioned on leaving one, so two administrators demoting each other at once leave one:
 * the second gets 409). The user item is conditioned on the role read, so a concurrent change
 * makes it read again. 404 when the tenant has no such user.
 */
export function setUserRole(tenantId: string, userId: string, role: User['role'], now: string, audit: (before: User) => AuditRecord): Promise<User> {
  return changeUser(tenantId, userId, (user) => {
    // No change, but a request that happened: its entry alone, on condition that the role is still the one read.
    if (user.role === role) {
      return {
        writes: [
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.user(tenantId, userId),
              ConditionExpression: '#role = :was',
              ExpressionAttributeNames: { '#role': 'role' },
              ExpressionAttributeValues: { ':was': role },
            },
          },
          ...auditItems(audit(user)),
        ],
        result: user,
      };
    }
    return {
      writes: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.user(tenantId, userId),
            UpdateExpression: 'SET #role = :role, updatedAt = :now',
            ConditionExpression: '#role = :was',
            ExpressionAttributeNames: { '#role': 'role' },
            ExpressionAttributeValues: { ':role': role, ':was': user.role, ':now': now },
          },
        },
        adminCountWrite(tenantId, role === 'ADMIN' ? 1 : -1),
        ...auditItems(audit(user)),
      ],
      result: { ...user, role, updatedAt: now },
    };
  });
}

/**
 * Removes a user from the tenant in one transaction: the user item (so the authorizer and the
 * refresh answer 401 to every session of it at their next request), its e-mail sentinel (the
 * address can be invited again), its list entry and, for an administrator, one from the count,
 * conditioned on leaving one (409). 404 when the tenant has no such user.
 */
export async function deleteUser(tenantId: string, userId: string, audit: AuditRecord): Promise<void> {
  await changeUser(tenantId, userId, (user) => ({
    writes: [
      {
        Delete: {
          TableName: tableName(),
          Key: keys.user(tenantId, userId),
          ConditionExpression: '#role = :role',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':role': user.role },
        },
      },
      {
        Delete: { TableName: tableName(), Key: keys.email(user.email), ConditionExpression: 'userId = :user', ExpressionAttributeValues: { ':user': userId } },
      },
      { Delete: { TableName: tableName(), Key: keys.userListing(tenantId, sortName(user.name), userId) } },
      // The user's secrets go with it.
      { Delete: { TableName: tableName(), Key: keys.credentials(tenantId, userId) } },
      ...(user.role === 'ADMIN' ? [adminCountWrite(tenantId, -1)] : []),
      ...auditItems(audit),
    ],
    result: undefined,
  }));
}

/** How an opening records each session it ends to stay within the cap. */
export type EvictionRecord = (evicted: Session) => AuditRecord;

/**
 * A sign-in with a password: the new session, the user's `lastLoginAt` and the entry in one
 * transaction, conditioned on the credential version the password was checked at (a reset
 * that commits first makes it throw `CredentialsChanged`) and within the cap of sessions.
 */
export async function insertLoginSession(user: UserGround, session: Session, audit: AuditRecord, nowMs: number, evictionRecord: EvictionRecord): Promise<void> {
  await openSessionInTransaction(user, session, { endsOthers: false, nowMs, evictionRecord }, (ground, opening) => ({
    items: [
      updateItem(tableName(), keys.user(ground.tenantId, ground.id), credentialsAsRead(user.credentialVersion), opening.user, {
        set: ['lastLoginAt = :lastLoginAt'],
        values: { ':lastLoginAt': session.createdAt },
      }),
      ...opening.items,
      ...auditItems(audit),
    ],
    userIndex: 0,
  }));
}

/**
 * A signed-in user's new password, in one transaction with the session that replaces the
 * current one: the new hash (and no pending reset token) on the credentials, the credential
 * version moved on from the one the current password was checked at (every session of the
 * user ends, the one in use included; `CredentialsChanged` when another change got there
 * first) and the new session, at the new version.
 */
export async function replacePassword(
  user: UserGround,
  passwordHash: string,
  session: Session,
  audit: AuditRecord,
  nowMs: number,
  evictionRecord: EvictionRecord,
): Promise<void> {
  await openSessionInTransaction(user, session, { endsOthers: true, nowMs, evictionRecord }, (ground, opening) => ({
    items: [
      updateItem(tableName(), keys.user(ground.tenantId, ground.id), credentialsChange(user.credentialVersion, session.createdAt), opening.user),
      updateItem(tableName(), keys.credentials(ground.tenantId, ground.id), credentialsItemChange(user.credentialVersion), {
        set: ['passwordHash = :passwordHash'],
        remove: ['resetTokenHash'],
        values: { ':passwordHash': passwordHash },
      }),
      ...opening.items,
      ...auditItems(audit),
    ],
    userIndex: 0,
  }));
}

/**
 * The e-mail addresses of the tenant's administrators (a key's notice goes to each): one Query
 * of the tenant's user items, filtered on the role; at most `max` addresses.
 */
export async function listAdministratorEmails(tenantId: string, max: number): Promise<string[]> {
  const { pk, skPrefix } = keys.usersOfTenant(tenantId);
  const emails: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: '#role = :admin',
        ProjectionExpression: 'email',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ':admin': 'ADMIN' },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of result.Items ?? []) if (typeof item.email === 'string' && emails.length < max) emails.push(item.email);
    startKey = result.LastEvaluatedKey;
  } while (startKey && emails.length < max);
  return emails;
}
