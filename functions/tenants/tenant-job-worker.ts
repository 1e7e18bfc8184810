import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { consumeBatch } from '../../lib/background/batch';
import { logger } from '../../lib/log';
import { handleTenantJobMessage, type TenantJobMessage } from '../../lib/tenant-jobs/engine';
import { tenantJobFiles } from '../../lib/tenant-jobs/files';
import { enqueueTenantJob } from '../../lib/tenant-jobs/queue';

/**
 * The tenant jobs' worker (infra/constructs/tenant-jobs.ts): the queue's consumer, one message
 * at a time. A message is a step of a closed tenant's deletion or of a tenant's export
 * (lib/tenant-jobs/engine); each step reads a few pages of every Scan segment and sends the
 * next. A message that fails returns to the queue and its step runs again (it records once),
 * until the dead-letter queue takes it.
 */
export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  if (context) logger.addContext(context);
  const files = tenantJobFiles();
  return consumeBatch<TenantJobMessage>(event, (message) => handleTenantJobMessage(message, { now: Date.now, files }, enqueueTenantJob), {
    failure: 'tenant job step not done: the queue will run it again',
  });
};
