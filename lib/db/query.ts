import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';

/**
 * Every item of a partition, or of its `skPrefix` range, following the pagination to the
 * end (DynamoDB returns at most 1 MB a page).
 */
export async function queryAll(pk: string, options: { skPrefix?: string; consistent?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: options.skPrefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
        ExpressionAttributeValues: options.skPrefix ? { ':pk': pk, ':prefix': options.skPrefix } : { ':pk': pk },
        ConsistentRead: options.consistent ?? false,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
