import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Session, User } from '../../auth/model';
import { USER_ITEMS } from '../item-types';

import { Conflict, Forbidden } from '../../errors';
import { db, tableName } from '../client';
import { failedConditions, isConditionFailure } from '../conditions';
import { fieldsOf, pick, withoutNulls } from '../items';
import { keys } from '../keys';
import { sessionPut } from './sessions';

export type { User };

const FIELDS = fieldsOf<User>()([
  'id', 'tenantId', 'name', 'email', 'passwordHash', 'role', 'platformAdmin', 'sessionsValidFrom', 'resetTokenHash', 'createdAt', 'updatedAt',
]);

export function toUser(item: Record<string, unknown>): User {
  const user = pick<User>(item, FIELDS);
  return { ...user, platformAdmin: user.platformAdmin === true };
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

function userPuts(user: User): TransactItem[] {
  return [
    { Put: { TableName: tableName(), Item: { ...keys.user(user.tenantId, user.id), type: USER_ITEMS.user, ...withoutNulls(user) }, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.email(user.email), type: USER_ITEMS.email, email: user.email, tenantId: user.tenantId, userId: user.id },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
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
export async function insertUserWithSession(user: User, admission: Admission, session: Session): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [...userPuts(user), admissionCheck(user, admission), sessionPut(session)] }));
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
export async function insertPlatformAdmin(user: User): Promise<void> {
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
        ],
      }),
    );
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(1)) throw new Conflict('An account with this e-mail already exists');
    if (failed?.includes(2)) throw new Forbidden('The tenant is not the platform tenant (it was not created by create-admin)');
    throw error;
  }
}

/**
 * create-admin --promote: in one conditional UpdateItem, grant the platform administrator
 * profile, replace the password, void every session that exists now (the rule of a
 * password reset: `sessionsValidFrom`) and drop any pending reset token. The condition
 * makes sure the item is still the account that owns this e-mail.
 */
export async function promoteToPlatformAdmin(user: Pick<User, 'tenantId' | 'id' | 'email'>, passwordHash: string, now: string): Promise<User> {
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.user(user.tenantId, user.id),
        UpdateExpression: 'SET platformAdmin = :yes, passwordHash = :hash, sessionsValidFrom = :now, updatedAt = :now REMOVE resetTokenHash',
        ConditionExpression: 'attribute_exists(pk) AND email = :email',
        ExpressionAttributeValues: { ':yes': true, ':hash': passwordHash, ':now': now, ':email': user.email },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toUser(Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) throw new Conflict('The account changed meanwhile; run the command again');
    throw error;
  }
}
