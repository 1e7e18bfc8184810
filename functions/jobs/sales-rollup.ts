import type { ScheduledEvent } from 'aws-lambda';
import { runSalesRollup, type RollupResult } from '../../lib/jobs/sales-rollup';

/**
 * EventBridge schedule, once the business day has ended. A failure throws, so the
 * asynchronous invocation is retried and finally lands in the dead-letter queue; a retry is
 * safe because the roll-up is idempotent.
 */
export const handler = async (event: ScheduledEvent): Promise<RollupResult> => runSalesRollup({ nowMs: Date.parse(event.time) || Date.now() });
