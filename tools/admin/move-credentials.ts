import { ScanCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/db/client';
import { failedConditions } from '../../lib/db/conditions';
import { USER_ITEMS } from '../../lib/db/item-types';
import { keys } from '../../lib/db/keys';
import { credentialsItem, toCredentials } from '../../lib/auth/credentials-repository';

/**
 * The one-off move of every user's secrets off the user item into its credentials item
 * (`npm run migrate`; docs/decisions.md, "Least privilege per function"): the password hash,
 * the reset token's hash, the TOTP secret, its last step, a pending secret and the recovery
 * codes. Until it runs, an account created before the move cannot sign in (login reads only
 * the credentials item) and the user item still holds what the other functions must not read:
 * run it right after deploying this version.
 *
 * Each user moves in one transaction: the credentials item is put only if absent, and the
 * attributes are removed from the user item on condition that it still holds the hash read,
 * so a second run, or a run beside live traffic, changes nothing twice. Scans the table: an
 * operator's command, outside lib/ and functions/.
 */
const LEGACY_SECRETS = ['passwordHash', 'resetTokenHash', 'totpSecret', 'totpLastStep', 'totpPendingSecret', 'recoveryCodeHashes'] as const;

export async function moveCredentials(): Promise<{ moved: number }> {
  let moved = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type = :user AND attribute_exists(passwordHash)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':user': USER_ITEMS.user },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const credentials = toCredentials({ ...item, userId: item.id });
      try {
        await db().send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: tableName(), Item: credentialsItem(credentials), ConditionExpression: 'attribute_not_exists(pk)' } },
              {
                Update: {
                  TableName: tableName(),
                  Key: keys.user(credentials.tenantId, credentials.userId),
                  UpdateExpression: `REMOVE ${LEGACY_SECRETS.join(', ')}`,
                  ConditionExpression: 'passwordHash = :read',
                  ExpressionAttributeValues: { ':read': credentials.passwordHash },
                },
              },
            ],
          }),
        );
        moved += 1;
      } catch (error) {
        // Moved meanwhile (by another run): nothing to do for this user.
        if (!failedConditions(error)) throw error;
      }
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { moved };
}
