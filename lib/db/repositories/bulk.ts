import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../client';

/**
 * Bulk loading for the seed and the benchmarks only: BatchWriteItem in chunks of 25,
 * retrying unprocessed items. No conditions, no transactions: callers write complete,
 * consistent items themselves.
 */
export async function putAll(items: Record<string, unknown>[], onProgress?: (written: number) => void): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let pending: Record<string, unknown>[] = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 10) throw new Error('BatchWriteItem kept leaving items unprocessed');
      const result = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = result.UnprocessedItems?.[tableName()] ?? [];
    }
    onProgress?.(Math.min(items.length, start + 25));
  }
}
