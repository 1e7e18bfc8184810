import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Key } from '../../lib/db/keys';

/**
 * The writes of the rate limiter (lib/rate-limit, lib/db/counters) as a handler
 * test expects them, spelled out rather than computed by the code under test: the counter's
 * key, the conditional increment that takes a slot, and what a successful attempt does to
 * its slots (the e-mail-and-IP window cleared, a per-IP slot given back).
 */

const TABLE = 'test-table';

/** How a counter names its subject: an IP or a user id as is, an e-mail (alone or with the IP) by its SHA-256. */
export const subjects = {
  ip: (ip: string) => ip,
  user: (userId: string) => userId,
  email: (email: string) => createHash('sha256').update(email).digest('base64url'),
  emailAndIp: (email: string, ip: string) => createHash('sha256').update(`${email}\n${ip}`).digest('base64url'),
};

/** The fixed window of `windowSeconds` that holds `nowMs`: its start (ms) and end (epoch seconds, the counter's TTL). */
export function windowAt(nowMs: number, windowSeconds: number): { start: number; endEpoch: number } {
  const start = Math.floor(nowMs / (windowSeconds * 1000)) * windowSeconds * 1000;
  return { start, endEpoch: start / 1000 + windowSeconds };
}

/** The counter item of a scope's window for one subject. */
export const counterKey = (scope: string, subject: string, windowStart: number): Key => ({ pk: `RATE#${scope}#${subject}`, sk: `WINDOW#${windowStart}` });

/** The UpdateItem input that takes one slot of the window, refused once it holds `limit`. */
export const takeSlot = (key: Key, limit: number, ttl: number) => ({
  TableName: TABLE,
  Key: key,
  UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #ttl = :ttl',
  ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
  ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
  ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': limit, ':ttl': ttl },
});

/** The UpdateItem input that empties a window (a right password clears its e-mail-and-IP window). */
export const clearWindow = (key: Key) => ({
  TableName: TABLE,
  Key: key,
  UpdateExpression: 'SET #count = :zero',
  ConditionExpression: 'attribute_exists(#count)',
  ExpressionAttributeNames: { '#count': 'count' },
  ExpressionAttributeValues: { ':zero': 0 },
});

/** The UpdateItem input that gives one slot back, never below zero (a success's per-IP slot). */
export const giveSlotBack = (key: Key) => ({
  TableName: TABLE,
  Key: key,
  UpdateExpression: 'SET #count = #count - :one',
  ConditionExpression: '#count > :zero',
  ExpressionAttributeNames: { '#count': 'count' },
  ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
});

/** What DynamoDB throws when a slot's condition fails: the window is full. */
export const windowFullError = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } });
