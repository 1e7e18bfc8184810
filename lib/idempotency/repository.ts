import { GetCommand, PutCommand, UpdateCommand, DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyClaim, IdempotencyRecord, IdempotentWrite } from './model';
import { db, tableName, type TransactItem } from '../db/client';
import { IdempotencyKeyInUse } from '../errors';
import { conditionally } from '../db/conditions';
import { cancellationCodes } from '../db/retry';
import { IDEMPOTENCY_ITEMS } from '../db/item-types';
import { fieldsOf, pick } from '../db/items';
import { keys } from '../db/keys';

const FIELDS = fieldsOf<IdempotencyRecord>()([
  'fingerprint',
  'status',
  'owner',
  'leaseUntilEpoch',
  'responseStatus',
  'responseBody',
  'createdAt',
  'expiresAtEpoch',
]);

const keyOf = (claim: IdempotencyClaim) => keys.idempotency(claim.caller, claim.keyHash);

/**
 * The DynamoDB actions of this repository, which every `idempotent` route's manifest entry
 * declares (lib/routes/): the claim's Put and its consistent Get, the completion's Update
 * (alone or as a transaction item) and the release's Delete.
 */
export const IDEMPOTENCY_KEY_ACTIONS = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] as const;

/**
 * Take the key for this request: a new record, one past its 24 hours that the TTL has not
 * removed yet, or one whose owner's lease ran out before it completed (its function died;
 * nothing of its write committed). One conditional Put decides, so of N requests with one
 * key exactly one holds it (each writes its own random owner). When refused, the record as
 * it is (consistent read), or none if it was released in between.
 */
export async function claimKey(
  claim: IdempotencyClaim,
  record: IdempotencyRecord,
  nowEpoch: number,
): Promise<{ taken: true } | { taken: false; record: IdempotencyRecord | undefined }> {
  const taken = await conditionally(
    db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keyOf(claim), type: IDEMPOTENCY_ITEMS.key, ...record, ttl: record.expiresAtEpoch },
        // DynamoDB deletes expired items up to a few days late: past its 24 hours a key is new.
        ConditionExpression: 'attribute_not_exists(pk) OR expiresAtEpoch <= :now OR (#status = :inProgress AND leaseUntilEpoch < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'IN_PROGRESS', ':now': nowEpoch },
      }),
    ),
  );
  if (taken) return { taken: true };
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keyOf(claim), ConsistentRead: true }));
  const existing = Item ? pick<IdempotencyRecord>(Item, FIELDS) : undefined;
  // Our own Put: the SDK sent it again after its answer was lost (a timeout after the write
  // applied), and the second copy found the first. The key is ours, not another request's.
  if (existing?.owner === record.owner) return { taken: true };
  return { taken: false, record: existing };
}

/** A write's Idempotency-Key and the answer (the view) to record with it. */
export interface KeyCompletion {
  write: IdempotentWrite;
  view: unknown;
}

/** The completion of a key as one more item of the write's transaction: the answer, only while this request still holds it. */
export function completionItem(write: IdempotentWrite, body: unknown): TransactItem {
  write.recorded = true;
  return { Update: completion(write, body) };
}

/** The items a write's transaction adds for its key: none without one. */
export const completionItems = (key: KeyCompletion | undefined): TransactItem[] => (key ? [completionItem(key.write, key.view)] : []);

/** Complete a key whose request wrote nothing (the answer alone). False when the request no longer held it. */
export async function completeKey(write: IdempotentWrite, body: unknown): Promise<boolean> {
  write.recorded = true;
  return conditionally(db().send(new UpdateCommand(completion(write, body))));
}

function completion(write: IdempotentWrite, body: unknown) {
  return {
    TableName: tableName(),
    Key: keyOf(write.claim),
    UpdateExpression: 'SET #status = :completed, responseStatus = :status, responseBody = :body',
    ConditionExpression: '#owner = :owner AND #status = :inProgress',
    ExpressionAttributeNames: { '#status': 'status', '#owner': 'owner' },
    ExpressionAttributeValues: {
      ':completed': 'COMPLETED',
      ':inProgress': 'IN_PROGRESS',
      ':owner': write.claim.owner,
      ':status': write.status,
      ':body': body === undefined ? '' : JSON.stringify(body),
    },
  };
}

/** Give the key back after a failed request (nothing was written): a retry may use it again. */
export async function releaseKey(claim: IdempotencyClaim): Promise<void> {
  await conditionally(
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keyOf(claim),
        ConditionExpression: '#owner = :owner AND #status = :inProgress',
        ExpressionAttributeNames: { '#status': 'status', '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': claim.owner, ':inProgress': 'IN_PROGRESS' },
      }),
    ),
  );
}

/**
 * For a cancelled write transaction whose item `index` was the key's completion: when that
 * condition failed, another request took the key over (this one outlived its lease), and
 * nothing was written: 409, as for any request that finds its key in use.
 */
export function keyTakenOver(error: unknown, index: number): void {
  if (cancellationCodes(error)[index] === 'ConditionalCheckFailed') throw new IdempotencyKeyInUse(1);
}
