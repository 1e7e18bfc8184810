import { GetCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../../audit/model';
import type { Session, User } from '../../auth/model';
import { USER_ITEMS } from '../item-types';

import { Conflict, Forbidden, NotFound } from '../../errors';
import { db, tableName } from '../client';
import { conditionally, failedConditions } from '../conditions';
import { fieldsOf, pick, withoutNulls } from '../items';
import { keys } from '../keys';
import { auditItems, writeWithEntry } from './audit';
import { sessionPut } from './sessions';
import { sortName } from '../name-order';
import { getMany } from '../batch';
import { queryAll, queryPage } from '../query';
import { cancellationCodes, withOptimisticRetries } from '../retry';

export type { User };

const FIELDS = fieldsOf<User>()([
  'id', 'tenantId', 'name', 'email', 'passwordHash', 'role', 'platformAdmin', 'sessionsValidFrom', 'resetTokenHash', 'createdAt', 'updatedAt', 'lastLoginAt',
  'totpSecret', 'totpEnabledAt', 'totpLastStep', 'totpPendingSecret', 'recoveryCodeHashes',
]);

export function toUser(item: Record<string, unknown>): User {
  const user = pick<User>(item, FIELDS);
  // Recovery codes are a string set (DELETE removes one atomically).
  const codes = item.recoveryCodeHashes;
  return { ...user, platformAdmin: user.platformAdmin === true, lastLoginAt: user.lastLoginAt ?? null, recoveryCodeHashes: codes instanceof Set ? [...(codes as Set<string>)] : null };
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The user, its e-mail sentinel (both conditioned on being new) and its entry in the tenant's list by name. */
function userPuts(user: User): TransactItem[] {
  return [
    {
      Put: {
        TableName: tableName(),
        // Recovery codes are a string set (a login removes one with DELETE).
        Item: { ...keys.user(user.tenantId, user.id), type: USER_ITEMS.user, ...withoutNulls(user), ...(user.recoveryCodeHashes ? { recoveryCodeHashes: new Set(user.recoveryCodeHashes) } : {}) },
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
  ];
}

/** One more (or one fewer) administrator in the tenant's count; a decrement keeps at least one. */
function adminCountWrite(tenantId: string, delta: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.tenantAdmins(tenantId),
      UpdateExpression: 'SET #type = :type ADD n :delta',
      ...(delta < 0 ? { ConditionExpression: 'n > :one', ExpressionAttributeValues: { ':type': USER_ITEMS.adminCount, ':delta': delta, ':one': 1 } } : { ExpressionAttributeValues: { ':type': USER_ITEMS.adminCount, ':delta': delta } }),
      ExpressionAttributeNames: { '#type': 'type' },
    },
  };
}

/** How a registration is allowed into its tenant; re-checked inside the transaction. */
export type Admission =
  | { kind: 'base-account' }
  | {
      kind: 'invitation';
      nowEpoch: number;
      /** SHA-256 of the token the registrant presents; it must be the pending invitation's. */
      tokenHash: string;
    };

function admissionCheck(user: User, admission: Admission): TransactItem {
  if (admission.kind === 'base-account') {
    return {
      Update: {
        TableName: tableName(),
        Key: keys.tenant(user.tenantId),
        UpdateExpression: 'SET baseAccountUserId = :user',
        ConditionExpression: 'attribute_exists(pk) AND #status = :active AND attribute_not_exists(baseAccountUserId)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':user': user.id, ':active': 'ACTIVE' },
      },
    };
  }
  // Single use: the invitation is consumed by the registration that presents its token.
  return {
    Delete: {
      TableName: tableName(),
      Key: keys.invitation(user.tenantId, user.email),
      ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now AND tokenHash = :token',
      ExpressionAttributeValues: { ':now': admission.nowEpoch, ':token': admission.tokenHash },
    },
  };
}

/**
 * Registration in one transaction: the user, its e-mail sentinel (409 when taken), the
 * admission (base-account claim or invitation with its token; 403 when refused or lost to a
 * concurrent request) and the first session. A refused admission answers 403 even when the
 * e-mail is taken too, so a caller who is not admitted learns nothing about the address.
 */
export async function insertUserWithSession(user: User, admission: Admission, session: Session, audit: AuditRecord): Promise<void> {
  try {
    const [userPut, emailPut, listingPut] = userPuts(user) as [TransactItem, TransactItem, TransactItem];
    await db().send(
      new TransactWriteCommand({
        TransactItems: [userPut, emailPut, admissionCheck(user, admission), sessionPut(session), listingPut, ...(user.role === 'ADMIN' ? [adminCountWrite(user.tenantId, 1)] : []), ...auditItems(audit)],
      }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(2)) throw new Forbidden('Registration into this tenant is not permitted for this e-mail');
    if (failed?.includes(1)) throw new Conflict('An account with this e-mail already exists');
    throw error;
  }
}

export async function getUser(tenantId: string, userId: string): Promise<User | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(tenantId, userId), ConsistentRead: true }));
  return Item ? toUser(Item) : undefined;
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
export async function insertPlatformAdmin(user: User, audit: AuditRecord): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          ...userPuts({ ...user, platformAdmin: true }),
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
    // userPuts is three items (the user, its e-mail, its list entry): the tenant's check is the fourth.
    if (failed?.includes(3)) throw new Forbidden('The tenant is not the platform tenant (it was not created by create-admin)');
    throw error;
  }
}

/**
 * create-admin --promote: in one transaction with its entry, grant the platform
 * administrator profile, replace the password, void every session that exists now (the rule
 * of a password reset: `sessionsValidFrom`) and drop any pending reset token. The condition
 * makes sure the item is still the account that owns this e-mail.
 */
export async function promoteToPlatformAdmin(
  user: Pick<User, 'tenantId' | 'id' | 'email'>,
  passwordHash: string,
  now: string,
  factor: { secret: string; lastStep: number; recoveryCodeHashes: string[] },
  audit: AuditRecord,
): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.user(user.tenantId, user.id),
              UpdateExpression:
                'SET platformAdmin = :yes, passwordHash = :hash, sessionsValidFrom = :now, updatedAt = :now, totpSecret = :secret, totpEnabledAt = :now, totpLastStep = :step, recoveryCodeHashes = :codes REMOVE resetTokenHash, totpPendingSecret',
              ConditionExpression: 'attribute_exists(pk) AND email = :email',
              ExpressionAttributeValues: {
                ':yes': true,
                ':hash': passwordHash,
                ':now': now,
                ':email': user.email,
                ':secret': factor.secret,
                ':step': factor.lastStep,
                ':codes': new Set(factor.recoveryCodeHashes),
              },
            },
          },
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
  await conditionally(db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.tenantAdmins(tenantId), type: USER_ITEMS.adminCount, n: admins }, ConditionExpression: 'attribute_not_exists(pk)' })));
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
      { Delete: { TableName: tableName(), Key: keys.email(user.email), ConditionExpression: 'userId = :user', ExpressionAttributeValues: { ':user': userId } } },
      { Delete: { TableName: tableName(), Key: keys.userListing(tenantId, sortName(user.name), userId) } },
      ...(user.role === 'ADMIN' ? [adminCountWrite(tenantId, -1)] : []),
      ...auditItems(audit),
    ],
    result: undefined,
  }));
}

/** A sign-in: the new session, the user's `lastLoginAt` and the entry, in one transaction. */
export async function insertLoginSession(user: Pick<User, 'tenantId' | 'id'>, session: Session, audit: AuditRecord): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        sessionPut(session),
        {
          Update: {
            TableName: tableName(),
            Key: keys.user(user.tenantId, user.id),
            UpdateExpression: 'SET lastLoginAt = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':now': session.createdAt },
          },
        },
        ...auditItems(audit),
      ],
    }),
  );
}

/**
 * A signed-in user's new password, in one transaction with the session that replaces the
 * current one: the password (conditioned on the hash that was checked, so of two concurrent
 * changes one wins), `sessionsValidFrom` = now (every earlier session, the current one too,
 * ends at its next request) and the new session, which starts at that instant. False when
 * the password changed meanwhile.
 */
export async function replacePassword(user: Pick<User, 'tenantId' | 'id' | 'passwordHash'>, passwordHash: string, now: string, session: Session, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: keys.user(user.tenantId, user.id),
          UpdateExpression: 'SET passwordHash = :hash, sessionsValidFrom = :now, updatedAt = :now REMOVE resetTokenHash',
          ConditionExpression: 'passwordHash = :checked',
          ExpressionAttributeValues: { ':hash': passwordHash, ':now': now, ':checked': user.passwordHash },
        },
      },
      sessionPut(session),
    ],
    audit,
  );
}
