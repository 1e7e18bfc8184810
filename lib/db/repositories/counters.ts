import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../client';
import { isConditionFailure } from '../conditions';
import { keys } from '../keys';

/**
 * Fixed-window counters for the rate limiter. One conditional UpdateItem both counts and
 * refuses: it adds 1 only while the count is below the limit, atomically, so N parallel
 * requests can never get more than `limit` through. The item expires (TTL) after its window.
 */
export async function incrementBelow(
  counter: { scope: string; subject: string; windowStart: number },
  limit: number,
  expiresAtEpoch: number,
): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(counter.scope, counter.subject, counter.windowStart),
        UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': limit, ':ttl': expiresAtEpoch },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The current count of a window (0 when none). */
export async function readCount(counter: { scope: string; subject: string; windowStart: number }): Promise<number> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.counter(counter.scope, counter.subject, counter.windowStart), ConsistentRead: true }),
  );
  return typeof Item?.count === 'number' ? Item.count : 0;
}
