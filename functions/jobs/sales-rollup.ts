import { parseArgs } from 'node:util';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { isDay } from '../../lib/domain/days';
import { counted } from '../../lib/domain/text';
import { runSalesRollup, type RollupResult } from '../../lib/jobs/sales-rollup';
import type { JobCommand } from '../../lib/jobs/command';
import { logger } from '../../lib/log';

const summary = (result: RollupResult) =>
  `${counted(result.counters, 'daily counter')} of ${counted(result.products, 'product')} rolled up (${result.day === undefined ? `days before ${result.today}` : `${result.day} only`}); coverage index current for ${counted(result.coverage.tenants, 'tenant')} (${counted(result.coverage.products, 'product')} moved)`;

/**
 * A run that skipped bad records failed, though only after rolling up everything else: the
 * error names how many were skipped (each is in the log as an error line), so the Lambda's
 * Errors metric, and with it the job-failure alarm, fires. Resolves to the result otherwise
 * (without `skipped`, which is then 0).
 */
function failIfSkipped(result: RollupResult): Omit<RollupResult, 'skipped'> {
  const { skipped, ...rolled } = result;
  if (skipped > 0) {
    throw new Error(
      `sales roll-up skipped ${counted(skipped, 'pending counter')} with bad stored records (left pending, logged as errors); ${summary(result)}`,
    );
  }
  return rolled;
}

/**
 * EventBridge schedule, once the business day has ended. A failure throws, so the
 * asynchronous invocation is retried and finally lands in the dead-letter queue; a retry is
 * safe because the roll-up is idempotent. Skipped bad records are such a failure: every
 * retry rolls up what arrived meanwhile and skips them again until they are fixed.
 */
export const handler = async (event: ScheduledEvent, context?: Context): Promise<Omit<RollupResult, 'skipped'>> => {
  // The function, the invocation and the cold-start flag on every log line (Powertools).
  if (context) logger.addContext(context);
  return failIfSkipped(await runSalesRollup({ nowMs: Date.parse(event.time) || Date.now() }));
};

/** `npm run job -- sales-rollup [--date YYYY-MM-DD]`: every complete day with pending sales, or only that day. Fails as the handler does on skipped records. */
export const command: JobCommand = {
  usage: '[--date YYYY-MM-DD]',
  run: async (args, nowMs) => {
    const { values } = parseArgs({ args, options: { date: { type: 'string' } }, strict: true });
    if (values.date !== undefined && !isDay(values.date)) throw new Error(`--date must be a day as YYYY-MM-DD, not '${values.date}'`);
    const result = await runSalesRollup({ nowMs, ...(values.date ? { day: values.date } : {}) });
    failIfSkipped(result);
    return summary(result);
  },
};
