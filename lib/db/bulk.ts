import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../domain/concurrency';
import { db, tableName } from './client';

/** Batches in flight at once. */
const BULK_CONCURRENCY = 8;

/**
 * Bulk loading for the seed and the benchmarks: BatchWriteItem in chunks of 25, retrying
 * unprocessed items. No conditions, no transactions: callers write complete, consistent
 * items themselves.
 */
export async function putAll(items: Record<string, unknown>[], onProgress?: (written: number) => void): Promise<void> {
  await writeAll(
    items.map((Item) => ({ PutRequest: { Item } })),
    onProgress,
  );
}

/** Deletes by key, in batches of 25 (the search folds use it for the deltas they folded). */
export async function deleteAll(keyList: { pk: string; sk: string }[]): Promise<void> {
  await writeAll(keyList.map((Key) => ({ DeleteRequest: { Key } })));
}

async function writeAll(requests: Record<string, unknown>[], onProgress?: (written: number) => void): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < requests.length; start += 25) chunks.push(requests.slice(start, start + 25));
  let written = 0;
  await mapConcurrently(chunks, BULK_CONCURRENCY, async (chunk) => {
    let pending: Record<string, unknown>[] = chunk;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 10) throw new Error('BatchWriteItem kept leaving items unprocessed');
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = result.UnprocessedItems?.[tableName()] ?? [];
    }
    written += chunk.length;
    onProgress?.(written);
  });
}
