import { GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SalesDay, SalesSeries } from '../../inventory/model';
import { INVENTORY_ITEMS } from '../item-types';

import { addUnits, emptySeries, encodeUnits, seriesOf } from '../sales-series';
import { db, tableName } from '../client';
import { gsi1, keys } from '../keys';
import { cancellationCodes, withOptimisticRetries } from '../retry';
import { putAll } from './bulk';
import { getMany } from '../batch';
import { fieldsOf, pick } from '../items';
import { SALES_PENDING_SHARDS, shardOf } from './inventory';

/** A daily sales counter waiting for the roll-up: which product and day. */
export type PendingCounter = Pick<SalesDay, 'tenantId' | 'productId' | 'day'>;

const SALES_DAY_FIELDS = fieldsOf<SalesDay>()(['tenantId', 'productId', 'day', 'units']);

/**
 * The daily sales counters waiting for the roll-up: of complete days before `beforeDay`, or
 * of exactly `day`. Read from the sparse pending index (eventually consistent: the job
 * re-reads each counter from the table before using it).
 */
export async function findPendingCounters(selection: { beforeDay: string } | { day: string }): Promise<PendingCounter[]> {
  const found: PendingCounter[] = [];
  for (let shard = 0; shard < SALES_PENDING_SHARDS; shard += 1) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const byDay = 'day' in selection;
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: byDay ? 'gsi1pk = :pk AND begins_with(gsi1sk, :day)' : 'gsi1pk = :pk AND gsi1sk < :before',
          ExpressionAttributeValues: { ':pk': gsi1.salesPendingShard(shard).gsi1pk, ...(byDay ? { ':day': `${selection.day}#` } : { ':before': selection.beforeDay }) },
          ProjectionExpression: 'tenantId, productId, #day',
          ExpressionAttributeNames: { '#day': 'day' },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) found.push({ tenantId: String(item.tenantId), productId: String(item.productId), day: String(item.day) });
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return found;
}

/** At most this many counters ride with one roll-up write (DynamoDB allows 100 items). */
const COUNTERS_PER_TRANSACTION = 99;

/**
 * Roll the given days' counters of one product into its sales series. Each transaction
 * writes the series (conditional on the version read) and marks each counter rolled up
 * (conditional on the units read): a sale recorded meanwhile, or a concurrent job, makes it
 * re-read and recompute, so no unit is ever counted twice or lost. Idempotent: a counter
 * whose units were already rolled up adds nothing.
 */
export async function rollUpProduct(tenantId: string, productId: string, days: string[]): Promise<number> {
  let rolled = 0;
  for (let start = 0; start < days.length; start += COUNTERS_PER_TRANSACTION) {
    const chunk = days.slice(start, start + COUNTERS_PER_TRANSACTION);
    rolled += await withOptimisticRetries<number>(async () => {
      const seriesKey = keys.productSales(tenantId, productId);
      const { Item: seriesItem } = await db().send(new GetCommand({ TableName: tableName(), Key: seriesKey, ConsistentRead: true }));
      const counters = await getMany(chunk.map((day) => keys.salesDay(tenantId, day, productId)));

      let series: SalesSeries = seriesItem ? seriesOf(seriesItem) : emptySeries();
      const version = Number(seriesItem?.version ?? 0);
      const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
      counters.forEach((counter, index) => {
        if (!counter) return;
        const units = Number(counter.units ?? 0);
        const delta = units - Number(counter.rolledUnits ?? 0);
        if (delta !== 0) series = addUnits(series, chunk[index] as string, delta);
        items.push({
          Update: {
            TableName: tableName(),
            Key: keys.salesDay(tenantId, chunk[index] as string, productId),
            UpdateExpression: 'SET rolledUnits = :units REMOVE gsi1pk, gsi1sk',
            ConditionExpression: 'units = :units',
            ExpressionAttributeValues: { ':units': units },
          },
        });
      });
      if (items.length === 0) return { retry: false, value: 0 };
      items.unshift({
        Put: {
          TableName: tableName(),
          Item: { ...seriesKey, type: INVENTORY_ITEMS.productSales, productId, through: series.through, units: encodeUnits(series.units), version: version + 1 },
          ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
          ...(version === 0 ? {} : { ExpressionAttributeValues: { ':version': version } }),
        },
      });
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }));
        return { retry: false, value: items.length - 1 };
      } catch (error) {
        const codes = cancellationCodes(error);
        if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
        throw error;
      }
    });
  }
  return rolled;
}

/**
 * Daily sales totals written directly, marked pending for the roll-up: what a day's SALE
 * movements leave behind, for the seed and the benchmarks (which need a year of sales in
 * seconds). Overwrites any counter of the same day and product.
 */
export async function writeDailySalesTotals(entries: SalesDay[], onProgress?: (written: number) => void): Promise<void> {
  await putAll(
    entries.map((entry) => ({
      ...keys.salesDay(entry.tenantId, entry.day, entry.productId),
      type: INVENTORY_ITEMS.salesDay,
      ...pick<SalesDay>(entry, SALES_DAY_FIELDS),
      ...gsi1.salesPending(shardOf(entry.tenantId, entry.productId), entry.day, entry.tenantId, entry.productId),
    })),
    onProgress,
  );
}
