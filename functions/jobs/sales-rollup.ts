import { parseArgs } from 'node:util';
import type { ScheduledEvent } from 'aws-lambda';
import { isDay } from '../../lib/domain/days';
import { runSalesRollup, type RollupResult } from '../../lib/jobs/sales-rollup';
import type { JobCommand } from '../../lib/jobs/command';

/**
 * EventBridge schedule, once the business day has ended. A failure throws, so the
 * asynchronous invocation is retried and finally lands in the dead-letter queue; a retry is
 * safe because the roll-up is idempotent.
 */
export const handler = async (event: ScheduledEvent): Promise<RollupResult> => runSalesRollup({ nowMs: Date.parse(event.time) || Date.now() });

/** `npm run job -- sales-rollup [--date YYYY-MM-DD]`: every complete day with pending sales, or only that day. */
export const command: JobCommand = {
  usage: '[--date YYYY-MM-DD]',
  run: async (args, nowMs) => {
    const { values } = parseArgs({ args, options: { date: { type: 'string' } }, strict: true });
    if (values.date !== undefined && !isDay(values.date)) throw new Error(`--date must be a day as YYYY-MM-DD, not '${values.date}'`);
    const result = await runSalesRollup({ nowMs, ...(values.date ? { day: values.date } : {}) });
    return `${result.counters} daily counters of ${result.products} products rolled up (days before ${result.today})`;
  },
};
