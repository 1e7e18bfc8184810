import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { handler } from '../../functions/jobs/sales-rollup';
import { db, tableName } from '../../lib/db/client';
import { INVENTORY_ITEMS } from '../../lib/db/item-types';
import { gsi1, keys } from '../../lib/db/keys';
import { shardOf } from '../../lib/inventory/repository';
import { writeDailySalesTotals } from '../../lib/jobs/sales-rollup-repository';
import { encodeUnits, SERIES_DAYS, SERIES_SCALE } from '../../lib/inventory/sales-series';
import { daysBetween } from '../../lib/domain/days';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import { logger } from '../../lib/log';
import { manifestJobs, scheduledEvent } from '../../local/jobs';
import { useTableOfItsOwn } from './api';

/**
 * The sales roll-up over bad stored records, run in process on a table of
 * its own in the local API's DynamoDB Local: other test files run the roll-up on the shared
 * table at the same time, and these bad records must not reach them (nor their counters
 * this file's results).
 */

/** 12:00 in São Paulo on 2026-03-10: every day up to 2026-03-09 is complete. */
const NOW = Date.parse('2026-03-10T15:00:00.000Z');
const TODAY = '2026-03-10';
const salesRollupJob = manifestJobs.find((job) => job.name === 'sales-rollup');
if (!salesRollupJob) throw new Error('no sales-rollup job in the manifest');
const event = scheduledEvent(salesRollupJob, NOW);

const DAY_REASON = 'day is not a calendar day written YYYY-MM-DD';

useTableOfItsOwn('rollup-bad-records');

let errors: MockInstance<typeof logger.error>;
beforeEach(() => {
  errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
  return () => errors.mockRestore();
});

const put = (item: Record<string, unknown>) => db().send(new PutCommand({ TableName: tableName(), Item: item }));
const get = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** A counter's own fields: its key, type, tenant, product and day. */
const counterOf = (tenantId: string, productId: string, day: string) => ({
  ...keys.salesDay(tenantId, day, productId),
  type: INVENTORY_ITEMS.salesDay,
  tenantId,
  productId,
  day,
});

/** A counter as the movement path writes it, pending, with whatever fields a test gives it. */
function pendingCounter(tenantId: string, productId: string, day: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { ...counterOf(tenantId, productId, day), ...fields, ...gsi1.salesPending(shardOf(tenantId, productId), day, tenantId, productId) };
}

/** A counter once rolled up: by default one writeDailySalesTotals wrote (`seeded`: without movements), else one put as it is. */
function rolledCounter(tenantId: string, productId: string, day: string, units: number, seeded = true): Record<string, unknown> {
  return { ...counterOf(tenantId, productId, day), units, rolledUnits: units, ...(seeded ? { seeded } : {}) };
}

/**
 * The stored series item of a product: `units` per day in the window ending at `through`,
 * stored as the roll-up writes it (thousandths, `scale` 3) or as it did before decimals were kept exact (units).
 */
function seriesItem(
  tenantId: string,
  productId: string,
  through: string,
  units: Record<string, number>,
  version: number,
  stored: 'thousandths' | 'units' = 'thousandths',
): Record<string, unknown> {
  const values = new Float64Array(SERIES_DAYS);
  for (const [day, count] of Object.entries(units)) values[SERIES_DAYS - 1 - daysBetween(day, through)] = stored === 'thousandths' ? count * 1000 : count;
  const item = { ...keys.productSales(tenantId, productId), type: INVENTORY_ITEMS.productSales, productId, through, units: encodeUnits(values), version };
  return stored === 'thousandths' ? { ...item, scale: SERIES_SCALE } : item;
}

/** The error lines of the run, in a stable order. */
const errorLines = () => errors.mock.calls.map((call) => [...call]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const sorted = (lines: unknown[][]) => [...lines].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const counterLine = (tenantId: string, productId: string, day: string, reason: string) => [
  'sales roll-up skipped a bad record',
  { record: 'pending counter', tenantId, productId, day, reason, countersLeftPending: 1 },
];

describe('the sales roll-up over bad stored records', () => {
  const [t1, t2] = [randomUUID(), randomUUID()];
  const [p1, p2, p3, p4] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  /** Bad pending counters, as stored. */
  const yearHundred = pendingCounter(t1, p1, '100-06-15', { units: 3 });
  const february30 = pendingCounter(t1, p2, '2026-02-30', { units: 1 });
  const notADate = pendingCounter(t2, p3, '1st of March', { units: 2 });
  const wordUnits = pendingCounter(t2, p3, '2026-03-08', { units: 'twelve' });
  const noProduct = (() => {
    const { productId: _omitted, ...item } = pendingCounter(t1, p2, '2026-03-06', { units: 1 });
    return item;
  })();
  /** p4 has a good counter but a stored series that cannot be decoded. */
  const p4Counter = pendingCounter(t2, p4, '2026-03-09', { units: 3 });
  const p4Series = { ...keys.productSales(t2, p4), type: INVENTORY_ITEMS.productSales, productId: p4, through: '2026-03-05', units: 'not binary', version: 1 };
  const badCounters = [yearHundred, february30, notADate, wordUnits, noProduct, p4Counter];
  const key = (item: Record<string, unknown>) => ({ pk: item.pk as string, sk: item.sk as string });

  const expectedErrorLines = () =>
    sorted([
      counterLine(t1, p1, '100-06-15', DAY_REASON),
      counterLine(t1, p2, '2026-02-30', DAY_REASON),
      counterLine(t2, p3, '1st of March', DAY_REASON),
      counterLine(t2, p3, '2026-03-08', 'units is not a finite number'),
      counterLine(t1, '(missing)', '2026-03-06', 'productId is missing or not a string'),
      [
        'sales roll-up skipped a bad record',
        { record: 'sales series', tenantId: t2, productId: p4, reason: 'its units are not a binary array of float64 values', countersLeftPending: 1 },
      ],
    ]);

  beforeAll(async () => {
    await writeDailySalesTotals([
      { tenantId: t1, productId: p1, day: '2026-03-07', units: 5 },
      { tenantId: t1, productId: p1, day: '2026-03-09', units: 7 },
      { tenantId: t1, productId: p2, day: '2026-03-01', units: 4 },
      { tenantId: t2, productId: p3, day: '2026-03-09', units: 10 },
    ]);
    // p3 was rolled up before: 2 units on 2026-03-05.
    // Written before the series were exact: read as 2000 thousandths, rewritten scaled.
    await put(seriesItem(t2, p3, '2026-03-05', { '2026-03-05': 2 }, 1, 'units'));
    for (const item of badCounters) await put(item);
    await put(p4Series);
  });

  it('rolls up every good product exactly, leaves each bad counter pending and untouched, and logs and counts it', async () => {
    const result = await runSalesRollup({ nowMs: NOW });

    expect(result).toEqual({ today: TODAY, counters: 4, products: 3, skipped: 6, coverage: { tenants: 0, products: 0 } });
    expect(await get(keys.productSales(t1, p1))).toEqual(seriesItem(t1, p1, '2026-03-09', { '2026-03-07': 5, '2026-03-09': 7 }, 1));
    expect(await get(keys.productSales(t1, p2))).toEqual(seriesItem(t1, p2, '2026-03-01', { '2026-03-01': 4 }, 1));
    expect(await get(keys.productSales(t2, p3))).toEqual(seriesItem(t2, p3, '2026-03-09', { '2026-03-05': 2, '2026-03-09': 10 }, 2));
    expect(await get(keys.salesDay(t1, '2026-03-07', p1))).toEqual(rolledCounter(t1, p1, '2026-03-07', 5));
    expect(await get(keys.salesDay(t1, '2026-03-09', p1))).toEqual(rolledCounter(t1, p1, '2026-03-09', 7));
    expect(await get(keys.salesDay(t1, '2026-03-01', p2))).toEqual(rolledCounter(t1, p2, '2026-03-01', 4));
    expect(await get(keys.salesDay(t2, '2026-03-09', p3))).toEqual(rolledCounter(t2, p3, '2026-03-09', 10));

    for (const item of badCounters) expect(await get(key(item))).toEqual(item);
    expect(await get(key(p4Series))).toEqual(p4Series);
    expect(errorLines()).toEqual(expectedErrorLines());
  });

  it('fails the scheduled invocation, naming the skipped count, after rolling up the good ones', async () => {
    await writeDailySalesTotals([{ tenantId: t1, productId: p2, day: '2026-03-09', units: 6 }]);

    await expect(handler(event)).rejects.toThrow(
      new Error(
        'sales roll-up skipped 6 pending counters with bad stored records (left pending, logged as errors); 1 daily counter of 1 product rolled up (days before 2026-03-10); coverage index current for 0 tenants (0 products moved)',
      ),
    );

    expect(await get(keys.productSales(t1, p2))).toEqual(seriesItem(t1, p2, '2026-03-09', { '2026-03-01': 4, '2026-03-09': 6 }, 2));
    expect(await get(keys.salesDay(t1, '2026-03-09', p2))).toEqual(rolledCounter(t1, p2, '2026-03-09', 6));
    for (const item of badCounters) expect(await get(key(item))).toEqual(item);
    expect(errorLines()).toEqual(expectedErrorLines());
  });

  it('counts a fixed record at the next run, and the invocation succeeds once none is left', async () => {
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: key(wordUnits), UpdateExpression: 'SET units = :units', ExpressionAttributeValues: { ':units': 12 } }),
    );
    await put(seriesItem(t2, p4, '2026-03-05', { '2026-03-05': 1 }, 1));

    expect(await runSalesRollup({ nowMs: NOW })).toEqual({ today: TODAY, counters: 2, products: 2, skipped: 4, coverage: { tenants: 0, products: 0 } });
    expect(await get(keys.productSales(t2, p3))).toEqual(seriesItem(t2, p3, '2026-03-09', { '2026-03-05': 2, '2026-03-08': 12, '2026-03-09': 10 }, 3));
    expect(await get(keys.productSales(t2, p4))).toEqual(seriesItem(t2, p4, '2026-03-09', { '2026-03-05': 1, '2026-03-09': 3 }, 2));
    // Both were put as they are (bad, then mended by hand), not by writeDailySalesTotals.
    expect(await get(key(wordUnits))).toEqual(rolledCounter(t2, p3, '2026-03-08', 12, false));
    expect(await get(key(p4Counter))).toEqual(rolledCounter(t2, p4, '2026-03-09', 3, false));
    expect(errorLines()).toEqual(
      sorted([
        counterLine(t1, p1, '100-06-15', DAY_REASON),
        counterLine(t1, p2, '2026-02-30', DAY_REASON),
        counterLine(t2, p3, '1st of March', DAY_REASON),
        counterLine(t1, '(missing)', '2026-03-06', 'productId is missing or not a string'),
      ]),
    );

    errors.mockClear();
    for (const item of [yearHundred, february30, notADate, noProduct]) await db().send(new DeleteCommand({ TableName: tableName(), Key: key(item) }));
    await expect(handler(event)).resolves.toEqual({ today: TODAY, counters: 0, products: 0, coverage: { tenants: 0, products: 0 } });
    expect(errors).not.toHaveBeenCalled();
  });
});
