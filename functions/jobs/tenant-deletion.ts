import { parseArgs } from 'node:util';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { counted } from '../../lib/domain/text';
import type { JobCommand } from '../../lib/jobs/command';
import { logger } from '../../lib/log';
import { config } from '../../lib/config';
import { runTenantJob, startDueDeletions, type DeletionRunResult, type SendTenantJob } from '../../lib/tenant-jobs/engine';
import { tenantJobFiles } from '../../lib/tenant-jobs/files';
import { enqueueTenantJob } from '../../lib/tenant-jobs/queue';

const summary = (result: DeletionRunResult) =>
  `${counted(result.started.length, 'tenant deletion')} started, ${counted(result.resumed.length, 'stalled deletion')} sent again`;

/**
 * EventBridge schedule, daily after the sales roll-up: every closed tenant whose grace period is
 * over is marked DELETING and its first step sent to the tenant jobs' queue (the worker,
 * functions/tenants/tenant-job-worker.ts, does the rest). A failure throws, so the invocation is
 * retried; a retry starts nothing twice (each start is conditioned on the tenant being CLOSED).
 */
export const handler = async (event: ScheduledEvent, context?: Context): Promise<DeletionRunResult> => {
  if (context) logger.addContext(context);
  return startDueDeletions({ now: () => Date.parse(event.time) || Date.now() }, enqueueTenantJob);
};

/** Without a queue (a laptop's table), each deletion runs to its end before the command returns. */
const runHere: SendTenantJob = async (message) => runTenantJob(message, { now: Date.now, files: tenantJobFiles() });

/**
 * `npm run job -- tenant-deletion [--tenant <id>]`: start the deletions due now (of that tenant
 * only): sent to the queue when TENANT_JOB_QUEUE_URL is set, else run here to their end.
 */
export const command: JobCommand = {
  usage: '[--tenant <id>]',
  run: async (args, nowMs) => {
    const { values } = parseArgs({ args, options: { tenant: { type: 'string', multiple: true } }, strict: true });
    return summary(await startDueDeletions({ now: () => nowMs }, config().TENANT_JOB_QUEUE_URL ? enqueueTenantJob : runHere, values.tenant));
  },
};
