import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';
import { conditionally, isConditionFailure } from './conditions';
import { keys } from './keys';

type Counter = { scope: string; subject: string; windowStart: number };

/** The conditional UpdateItem of one slot (see `incrementBelow`). */
const takeSlot = (counter: Counter, limit: number, expiresAtEpoch: number, returnCount: boolean) =>
  new UpdateCommand({
    TableName: tableName(),
    Key: keys.counter(counter.scope, counter.subject, counter.windowStart),
    UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #ttl = :ttl',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
    ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': limit, ':ttl': expiresAtEpoch },
    ...(returnCount ? { ReturnValues: 'UPDATED_NEW' as const } : {}),
  });

/**
 * Fixed-window counters for the rate limiter. One conditional UpdateItem both counts and
 * refuses: it adds 1 only while the count is below the limit, atomically, so N parallel
 * requests can never get more than `limit` through. The item expires (TTL) after its window.
 */
export async function incrementBelow(counter: Counter, limit: number, expiresAtEpoch: number): Promise<boolean> {
  return conditionally(db().send(takeSlot(counter, limit, expiresAtEpoch, false)));
}

/** `incrementBelow`, answering the count the slot took (undefined when the window was full): what the RateLimit header fields say. */
export async function incrementBelowCounting(counter: Counter, limit: number, expiresAtEpoch: number): Promise<number | undefined> {
  try {
    const { Attributes } = await db().send(takeSlot(counter, limit, expiresAtEpoch, true));
    return Number(Attributes?.count);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/** Empty the window (a correct password clears its e-mail-and-IP window); an absent counter is left absent. */
export async function clearWindow(counter: Counter): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(counter.scope, counter.subject, counter.windowStart),
        UpdateExpression: 'SET #count = :zero',
        ConditionExpression: 'attribute_exists(#count)',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    ),
  );
}

/** Give one slot back: the count goes down by one, never below zero. Returns whether it did. */
export async function decrementIfAny(counter: Counter): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(counter.scope, counter.subject, counter.windowStart),
        UpdateExpression: 'SET #count = #count - :one',
        ConditionExpression: '#count > :zero',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
      }),
    ),
  );
}
