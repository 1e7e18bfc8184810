import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/db/client';
import { conditionally } from '../../lib/db/conditions';
import { USER_ITEMS } from '../../lib/db/item-types';
import { keys } from '../../lib/db/keys';

/**
 * The one-off count of each user's recovery codes onto the user item (`npm run migrate`): the
 * holder's copy of their data (GET /auth/me/data) reads the count there, and its function may
 * no longer read the credentials item. Only users with the second factor on and no count yet;
 * each count is written on condition that the user still has the factor it was counted for
 * (`totpEnabledAt` as read) and no count, so a second run, or a run beside live traffic,
 * changes nothing twice. Scans the table: an operator's command, outside lib/ and functions/.
 */
export async function countRecoveryCodes(): Promise<{ counted: number }> {
  let counted = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type = :user AND attribute_exists(totpEnabledAt) AND attribute_not_exists(recoveryCodesLeft)',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':user': USER_ITEMS.user },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const user of page.Items ?? []) {
      const credentials = (
        await db().send(new GetCommand({ TableName: tableName(), Key: keys.credentials(String(user.tenantId), String(user.id)), ConsistentRead: true }))
      ).Item as Record<string, unknown> | undefined;
      const codes = credentials?.recoveryCodeHashes;
      const left = codes instanceof Set ? codes.size : 0;
      const written = await conditionally(
        db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.user(String(user.tenantId), String(user.id)),
            UpdateExpression: 'SET recoveryCodesLeft = :left',
            ConditionExpression: 'totpEnabledAt = :enabledAt AND attribute_not_exists(recoveryCodesLeft)',
            ExpressionAttributeValues: { ':left': left, ':enabledAt': user.totpEnabledAt as unknown },
          }),
        ),
      );
      if (written) counted += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { counted };
}
