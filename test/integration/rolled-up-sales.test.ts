import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { writeDailySalesTotals, writeRolledUpSales } from '../../lib/jobs/sales-rollup-repository';
import { addDays, dayOf } from '../../lib/domain/days';
import { runSalesRollup } from '../../lib/jobs/sales-rollup';
import { settings } from '../../lib/settings';
import { useTableOfItsOwn } from './api';

/**
 * The large seed's shortcut (writeRolledUpSales) must leave exactly what the roll-up job
 * leaves for the same daily totals: the coverage dashboard cannot tell them apart. On a table
 * of its own: another file's run of the job on the shared table could roll the same counters
 * up too, and a second roll-up writes the series again (its version 2).
 */
useTableOfItsOwn('rolled-up-sales');

it('writes the series the roll-up job would leave for the same daily totals', async () => {
  const tenantId = randomUUID();
  const [byJob, direct] = [randomUUID(), randomUUID()];
  const yesterday = addDays(dayOf(Date.now(), settings.businessTimeZone), -1);
  const totals = [
    { day: addDays(yesterday, -40), units: 3 },
    { day: addDays(yesterday, -2), units: 0.125 },
    { day: yesterday, units: 7.5 },
    { day: addDays(yesterday, -400), units: 9 },
  ];
  await writeDailySalesTotals(totals.map((total) => ({ tenantId, productId: byJob, ...total })));
  await runSalesRollup({ nowMs: Date.now() });
  // Given out of day order: the shortcut sorts them, as the job's window moves forward.
  await writeRolledUpSales([...totals].reverse().map((total) => ({ tenantId, productId: direct, ...total })));

  const series = async (productId: string) => {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.productSales(tenantId, productId), ConsistentRead: true }));
    const { pk: _pk, sk: _sk, productId: _product, ...rest } = Item ?? {};
    return rest;
  };
  const expected = await series(byJob);
  expect(expected).toMatchObject({ type: 'ProductSales', through: yesterday, scale: 3, version: 1 });
  expect(await series(direct)).toEqual(expected);
});
