import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client';
import { failedConditions } from '../db/conditions';
import type { AuditRecord } from '../audit/model';
import type { PasswordReset, User } from './model';
import { updateItem } from '../db/update-parts';
import { credentialsChange } from './session-opening';
import { auditItems } from '../audit/repository';
import { PASSWORD_RESET_ITEMS } from '../db/item-types';
import { fieldsOf, pick } from '../db/items';
import { keys } from '../db/keys';

const FIELDS = fieldsOf<PasswordReset>()(['tenantId', 'userId', 'expiresAtEpoch']);

/**
 * Store a new reset token (only its hash) and make it the user's one valid token, in one
 * transaction: any older token stops working at once.
 */
export async function insertPasswordReset(tokenHash: string, reset: PasswordReset, audit: AuditRecord): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.passwordReset(tokenHash),
              type: PASSWORD_RESET_ITEMS.passwordReset,
              ...pick<PasswordReset>({ ...reset }, FIELDS),
              ttl: reset.expiresAtEpoch,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.credentials(reset.tenantId, reset.userId),
            UpdateExpression: 'SET resetTokenHash = :hash',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':hash': tokenHash },
          },
        },
        ...auditItems(audit),
      ],
    }),
  );
}

export async function getPasswordReset(tokenHash: string): Promise<PasswordReset | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.passwordReset(tokenHash), ConsistentRead: true }));
  if (!Item) return undefined;
  return pick<PasswordReset>(Item, FIELDS);
}

/**
 * Use a reset token, once: the token item is deleted (it must still exist and be unexpired),
 * the password replaced and the token cleared on the credentials (it must still be the user's
 * current one), and the credential version moved on from the one read, which ends every
 * session of the user, all in one transaction. False when the token was used, replaced or
 * expired meanwhile (of two concurrent uses, one wins), or the credentials changed.
 */
export async function consumePasswordReset(
  tokenHash: string,
  reset: PasswordReset,
  user: Pick<User, 'credentialVersion'>,
  change: { passwordHash: string; now: string; nowEpoch: number },
  audit: AuditRecord,
): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: keys.passwordReset(tokenHash),
              ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now',
              ExpressionAttributeValues: { ':now': change.nowEpoch },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: keys.credentials(reset.tenantId, reset.userId),
              UpdateExpression: 'SET passwordHash = :hash, credentialVersion = :nextCredentialVersion REMOVE resetTokenHash',
              ConditionExpression: 'resetTokenHash = :token',
              ExpressionAttributeValues: { ':hash': change.passwordHash, ':token': tokenHash, ':nextCredentialVersion': user.credentialVersion + 1 },
            },
          },
          updateItem(tableName(), keys.user(reset.tenantId, reset.userId), credentialsChange(user.credentialVersion, change.now)),
          // A closed tenant changes nothing: a link mailed before its close no longer works once it is closed.
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.tenant(reset.tenantId),
              ConditionExpression: '#status = :active',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':active': 'ACTIVE' },
            },
          },
          ...auditItems(audit),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (failedConditions(error)) return false;
    throw error;
  }
}
