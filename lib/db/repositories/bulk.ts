import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../domain/concurrency';
import { db, tableName } from '../client';

/** Batches in flight at once. */
const BULK_CONCURRENCY = 8;

/**
 * Bulk loading for the seed and the benchmarks only: BatchWriteItem in chunks of 25,
 * retrying unprocessed items. No conditions, no transactions: callers write complete,
 * consistent items themselves.
 */
export async function putAll(items: Record<string, unknown>[], onProgress?: (written: number) => void): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let start = 0; start < items.length; start += 25) chunks.push(items.slice(start, start + 25));
  let written = 0;
  await mapConcurrently(chunks, BULK_CONCURRENCY, async (chunk) => {
    let pending: Record<string, unknown>[] = chunk.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 10) throw new Error('BatchWriteItem kept leaving items unprocessed');
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = result.UnprocessedItems?.[tableName()] ?? [];
    }
    written += chunk.length;
    onProgress?.(written);
  });
}
