import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../client';
import { conditionally } from '../conditions';
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
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(counter.scope, counter.subject, counter.windowStart),
        UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
        ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': limit, ':ttl': expiresAtEpoch },
      }),
    ),
  );
}

/**
 * Give back the window's one slot: 1 becomes 0, atomically; any other count is left alone.
 * Returns whether it was given back.
 */
export async function decrementIfOnly(counter: { scope: string; subject: string; windowStart: number }): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(counter.scope, counter.subject, counter.windowStart),
        UpdateExpression: 'SET #count = :zero',
        ConditionExpression: '#count = :one',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
      }),
    ),
  );
}
