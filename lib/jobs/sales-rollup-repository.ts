import { GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SalesDay, SalesSeries } from '../inventory/model';
import { INVENTORY_ITEMS } from '../db/item-types';

import { addUnits, emptySeries, encodeUnits, seriesOf, SERIES_SCALE } from '../inventory/sales-series';
import { db, tableName } from '../db/client';
import { gsi1, keys } from '../db/keys';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { QUANTITY_PLACES } from '../domain/decimal';
import { isDay } from '../domain/days';
import { scaledFrom } from '../db/decimals';
import { putAll } from '../db/bulk';
import { getMany } from '../db/batch';
import { fieldsOf, pick } from '../db/items';
import { SALES_PENDING_SHARDS, shardOf } from '../inventory/repository';

/** A daily sales counter waiting for the roll-up: which product and day. */
export type PendingCounter = Pick<SalesDay, 'tenantId' | 'productId' | 'day'>;

/**
 * A stored record the roll-up cannot use, and why: a pending counter (an index entry without
 * a tenant or product, a day that is not a calendar day, units that are not a finite number)
 * or a product's sales series that cannot be decoded. The identifying values are shown as
 * stored when they are strings (cut to 100 characters), else as `(missing)` / `(number)`...:
 * never the whole item. Nothing is written for it: its counters stay pending, so once the
 * record is fixed the next run counts them.
 */
export interface BadRecord {
  record: 'pending counter' | 'sales series';
  tenantId: string;
  productId: string;
  /** The counter's day; absent for a sales series. */
  day?: string;
  reason: string;
  /** Pending counters left pending because of it: 1 for a counter, each pending day of the product for a series. */
  counters: number;
}

const SALES_DAY_FIELDS = fieldsOf<SalesDay>()(['tenantId', 'productId', 'day', 'units']);

/** A stored value as a log may show it: a string (cut short), else only its kind. */
function shown(value: unknown): string {
  if (value === undefined || value === null) return '(missing)';
  if (typeof value !== 'string') return `(${typeof value})`;
  return value.length > 100 ? `${value.slice(0, 100)}...` : value;
}

const isId = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Why a pending index entry cannot be rolled up, or null when it can. */
function pendingEntryProblem(item: Record<string, unknown>): string | null {
  if (!isId(item.tenantId)) return 'tenantId is missing or not a string';
  if (!isId(item.productId)) return 'productId is missing or not a string';
  if (typeof item.day !== 'string' || !isDay(item.day)) return 'day is not a calendar day written YYYY-MM-DD';
  const key = keys.salesDay(item.tenantId, item.day, item.productId);
  if (item.pk !== key.pk || item.sk !== key.sk) return 'its key does not match its tenantId, day and productId';
  return null;
}

/**
 * The daily sales counters waiting for the roll-up: of complete days before `beforeDay`, or
 * of exactly `day`. Read from the sparse pending index (eventually consistent: the job
 * re-reads each counter from the table before using it). An entry that names no product
 * or no real day is returned in `bad`, not in `counters`.
 */
export async function findPendingCounters(selection: { beforeDay: string } | { day: string }): Promise<{ counters: PendingCounter[]; bad: BadRecord[] }> {
  const counters: PendingCounter[] = [];
  const bad: BadRecord[] = [];
  for (let shard = 0; shard < SALES_PENDING_SHARDS; shard += 1) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const byDay = 'day' in selection;
      const page = await db().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi1',
          KeyConditionExpression: byDay ? 'gsi1pk = :pk AND begins_with(gsi1sk, :day)' : 'gsi1pk = :pk AND gsi1sk < :before',
          ExpressionAttributeValues: {
            ':pk': gsi1.salesPendingShard(shard).gsi1pk,
            ...(byDay ? { ':day': `${selection.day}#` } : { ':before': selection.beforeDay }),
          },
          ProjectionExpression: 'pk, sk, tenantId, productId, #day',
          ExpressionAttributeNames: { '#day': 'day' },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const problem = pendingEntryProblem(item);
        if (problem === null) counters.push({ tenantId: item.tenantId as string, productId: item.productId as string, day: item.day as string });
        else
          bad.push({
            record: 'pending counter',
            tenantId: shown(item.tenantId),
            productId: shown(item.productId),
            day: shown(item.day),
            reason: problem,
            counters: 1,
          });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
  return { counters, bad };
}

/** The series a stored sales item holds with its version, or why it cannot be decoded. */
function storedSeries(item: Record<string, unknown>): { series: SalesSeries; version: number } | { problem: string } {
  if (!(item.through === null || (typeof item.through === 'string' && isDay(item.through))))
    return { problem: 'its through is not a calendar day written YYYY-MM-DD' };
  if (!(item.units instanceof Uint8Array) || item.units.byteLength % 8 !== 0) return { problem: 'its units are not a binary array of float64 values' };
  if (!(typeof item.version === 'number' && Number.isSafeInteger(item.version) && item.version > 0))
    return { problem: 'its version is not a positive integer' };
  const series = seriesOf(item);
  if (!series.units.every(Number.isFinite)) return { problem: 'its units hold a value that is not a finite number' };
  return { series, version: item.version };
}

/** Why a stored counter's units cannot be rolled up, or null when they can. */
function counterProblem(counter: Record<string, unknown>): string | null {
  if (typeof counter.units !== 'number' || !Number.isFinite(counter.units)) return 'units is not a finite number';
  if (counter.rolledUnits !== undefined && (typeof counter.rolledUnits !== 'number' || !Number.isFinite(counter.rolledUnits)))
    return 'rolledUnits is not a finite number';
  try {
    scaledFrom(counter.units, QUANTITY_PLACES);
    scaledFrom(counter.rolledUnits, QUANTITY_PLACES);
  } catch {
    return 'units is not a decimal the series can hold';
  }
  return null;
}

/** At most this many counters ride with one roll-up write (DynamoDB allows 100 items). */
const COUNTERS_PER_TRANSACTION = 99;

/**
 * Roll the given days' counters of one product into its sales series. Each transaction
 * writes the series (conditional on the version read) and marks each counter rolled up
 * (conditional on the units read): a sale recorded meanwhile, or a concurrent job, makes it
 * re-read and recompute, so no unit is ever counted twice or lost. Idempotent: a counter
 * whose units were already rolled up adds nothing.
 *
 * A counter whose stored units are not a finite number is left out of the write (and stays
 * pending) and returned in `bad`; the product's other counters are rolled up. A series that
 * cannot be decoded is not written at all: every remaining day stays pending, as one bad record.
 */
export async function rollUpProduct(tenantId: string, productId: string, days: string[]): Promise<{ rolled: number; bad: BadRecord[] }> {
  let rolled = 0;
  const bad: BadRecord[] = [];
  for (let start = 0; start < days.length; start += COUNTERS_PER_TRANSACTION) {
    const chunk = days.slice(start, start + COUNTERS_PER_TRANSACTION);
    const outcome = await withOptimisticRetries<{ rolled: number; bad: BadRecord[] } | { seriesProblem: string }>(async () => {
      const seriesKey = keys.productSales(tenantId, productId);
      const { Item: seriesItem } = await db().send(new GetCommand({ TableName: tableName(), Key: seriesKey, ConsistentRead: true }));
      const counters = await getMany(chunk.map((day) => keys.salesDay(tenantId, day, productId)));

      const stored = seriesItem ? storedSeries(seriesItem) : { series: emptySeries(), version: 0 };
      if ('problem' in stored) return { retry: false, value: { seriesProblem: stored.problem } };
      let { series } = stored;
      const { version } = stored;
      const badCounters: BadRecord[] = [];
      const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
      counters.forEach((counter, index) => {
        if (!counter) return;
        const day = chunk[index] as string;
        const problem = counterProblem(counter);
        if (problem !== null) {
          badCounters.push({ record: 'pending counter', tenantId, productId, day, reason: problem, counters: 1 });
          return;
        }
        const units = counter.units as number;
        // In thousandths, exactly (a float difference such as 0.3 - 0.1 would not be).
        const delta = Number(scaledFrom(units, QUANTITY_PLACES) - scaledFrom(counter.rolledUnits, QUANTITY_PLACES));
        if (delta !== 0) series = addUnits(series, day, delta);
        items.push({
          Update: {
            TableName: tableName(),
            Key: keys.salesDay(tenantId, day, productId),
            UpdateExpression: 'SET rolledUnits = :units REMOVE gsi1pk, gsi1sk',
            ConditionExpression: 'units = :units',
            ExpressionAttributeValues: { ':units': units },
          },
        });
      });
      if (items.length === 0) return { retry: false, value: { rolled: 0, bad: badCounters } };
      items.unshift({
        Put: {
          TableName: tableName(),
          Item: {
            ...seriesKey,
            type: INVENTORY_ITEMS.productSales,
            productId,
            through: series.through,
            units: encodeUnits(series.units),
            scale: SERIES_SCALE,
            version: version + 1,
          },
          ConditionExpression: version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
          ...(version === 0 ? {} : { ExpressionAttributeValues: { ':version': version } }),
        },
      });
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }));
        return { retry: false, value: { rolled: items.length - 1, bad: badCounters } };
      } catch (error) {
        const codes = cancellationCodes(error);
        if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
        throw error;
      }
    });
    if ('seriesProblem' in outcome) {
      bad.push({ record: 'sales series', tenantId, productId, reason: outcome.seriesProblem, counters: days.length - start });
      break;
    }
    rolled += outcome.rolled;
    bad.push(...outcome.bad);
  }
  return { rolled, bad };
}

/**
 * Daily sales totals written directly, marked pending for the roll-up: what a day's SALE
 * movements leave behind, for the seed and the benchmarks (which need a year of sales in
 * seconds). Overwrites any counter of the same day and product. Each is marked `seeded`:
 * history without its movements, which `verify` does not hold against them.
 */
export async function writeDailySalesTotals(entries: SalesDay[], onProgress?: (written: number) => void): Promise<void> {
  await putAll(
    entries.map((entry) => ({
      ...keys.salesDay(entry.tenantId, entry.day, entry.productId),
      type: INVENTORY_ITEMS.salesDay,
      ...pick<SalesDay>(entry, SALES_DAY_FIELDS),
      seeded: true,
      ...gsi1.salesPending(shardOf(entry.tenantId, entry.productId), entry.day, entry.tenantId, entry.productId),
    })),
    onProgress,
  );
}

/**
 * Daily sales totals written already rolled up: each product's series item, as the job
 * would leave it after rolling up exactly these totals (the same encoding, version 1, no
 * counter left pending). For the large seeds, where 150,000 pending counters would take
 * DynamoDB Local most of half an hour to write and roll up; the job's own path is what
 * writeDailySalesTotals and the tests exercise. Overwrites any series of those products.
 */
export async function writeRolledUpSales(entries: SalesDay[], onProgress?: (written: number) => void): Promise<void> {
  const series = new Map<string, { tenantId: string; productId: string; series: SalesSeries }>();
  for (const entry of [...entries].sort((a, b) => a.day.localeCompare(b.day))) {
    const key = `${entry.tenantId}#${entry.productId}`;
    const current = series.get(key) ?? { tenantId: entry.tenantId, productId: entry.productId, series: emptySeries() };
    current.series = addUnits(current.series, entry.day, Number(scaledFrom(entry.units, QUANTITY_PLACES)));
    series.set(key, current);
  }
  await putAll(
    [...series.values()].map(({ tenantId, productId, series: { through, units } }) => ({
      ...keys.productSales(tenantId, productId),
      type: INVENTORY_ITEMS.productSales,
      productId,
      through,
      units: encodeUnits(units),
      scale: SERIES_SCALE,
      version: 1,
    })),
    onProgress,
  );
}
