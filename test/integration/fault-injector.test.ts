import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getMany } from '../../lib/db/batch';
import { db, tableName } from '../../lib/db/client';
import { injectFaults, seededRandom, type FaultKind } from '../../local/faults';
import { useLocalStoreInProcess } from './api';

/**
 * The fault injector of `npm run chaos` (local/faults.ts) on this file's DynamoDB client,
 * against the local API's store: each fault reaches the caller the way DynamoDB's own does,
 * through the SDK's retries, and applies what DynamoDB would have applied.
 */
beforeAll(useLocalStoreInProcess);

let removeFaults: (() => void) | undefined;
afterEach(() => removeFaults?.());

function inject(kinds: FaultKind[]): string[] {
  const seen: string[] = [];
  removeFaults = injectFaults(db(), { rate: 1, seed: 42, kinds, onFault: (kind, command) => seen.push(`${kind} ${command}`) });
  return seen;
}

const key = () => ({ pk: `FAULTS#${randomUUID()}`, sk: 'ITEM' });
const read = async (itemKey: { pk: string; sk: string }) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: itemKey, ConsistentRead: true }))).Item;
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error & Record<string, unknown>,
  );

describe('the fault injector', () => {
  it('fails a read with a 500 through every attempt the SDK makes, and nothing is read', async () => {
    const seen = inject(['internal']);
    const error = await rejection(read(key()));
    expect(error?.name).toBe('InternalServerError');
    const attempts = (error?.$metadata as { attempts: number }).attempts;
    expect(attempts).toBeGreaterThan(1);
    expect(seen).toEqual(Array.from({ length: attempts }, () => 'internal GetItemCommand'));
  });

  it('cancels a transaction for a conflict on one of its items, and nothing of it applies', async () => {
    const [first, second] = [key(), key()];
    inject(['conflict']);
    const error = await rejection(
      db().send(
        new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName(), Item: first } }, { Put: { TableName: tableName(), Item: second } }] }),
      ),
    );
    removeFaults?.();
    expect(error?.name).toBe('TransactionCanceledException');
    const reasons = (error?.CancellationReasons as { Code: string }[]).map((reason) => reason.Code).sort();
    expect(reasons).toEqual(['None', 'TransactionConflict']);
    expect([await read(first), await read(second)]).toEqual([undefined, undefined]);
  });

  it('loses the answer of a transaction that applied: the SDK sends it again with its token, and it applies once', async () => {
    const itemKey = key();
    const seen = inject(['timeout']);
    const error = await rejection(
      db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: itemKey,
                UpdateExpression: 'ADD #count :one',
                ExpressionAttributeNames: { '#count': 'count' },
                ExpressionAttributeValues: { ':one': 1 },
              },
            },
          ],
        }),
      ),
    );
    removeFaults?.();
    expect(error?.name).toBe('TimeoutError');
    // Every attempt applied, as far as it knew; the store counted one.
    expect(seen.length).toBeGreaterThan(1);
    expect(new Set(seen)).toEqual(new Set(['timeout TransactWriteItemsCommand']));
    expect(await read(itemKey)).toEqual({ ...itemKey, count: 1 });
  });

  it('answers a batch in part: half of the items written, the rest returned unprocessed; a batch read still gets every item', async () => {
    const keys = [key(), key(), key(), key()];
    const seen = inject(['partial']);
    const answer = await db().send(
      new BatchWriteCommand({ RequestItems: { [tableName()]: keys.map((itemKey) => ({ PutRequest: { Item: { ...itemKey, n: 1 } } })) } }),
    );
    expect(answer.UnprocessedItems).toEqual({ [tableName()]: keys.slice(2).map((itemKey) => ({ PutRequest: { Item: { ...itemKey, n: 1 } } })) });
    expect(seen).toEqual(['partial BatchWriteItemCommand']);
    removeFaults?.();
    await db().send(new BatchWriteCommand({ RequestItems: answer.UnprocessedItems }));

    // getMany sends the unprocessed keys again until none is left.
    inject(['partial']);
    expect(await getMany(keys)).toEqual(keys.map((itemKey) => ({ ...itemKey, n: 1 })));
  });

  it('fails the same calls for the same seed', () => {
    const first = seededRandom(7);
    const second = seededRandom(7);
    const draws = Array.from({ length: 5 }, () => first());
    expect(Array.from({ length: 5 }, () => second())).toEqual(draws);
    expect(draws.every((draw) => draw >= 0 && draw < 1)).toBe(true);
    expect(new Set(draws).size).toBe(5);
  });
});
