import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config';
import { logger } from '../log';
import { runTenantJob, type TenantJobMessage } from './engine';
import { tenantJobFiles } from './files';

let sqs: SQSClient | undefined;

/**
 * Where a tenant job's first step goes: the tenant jobs' queue deployed
 * (infra/constructs/tenant-jobs.ts), whose worker sends each next step; under `npm start`,
 * without a queue, the whole job runs in this process, step after step, by the same engine
 * (its failure logged: the daily deletion job sends a stalled deletion's step again).
 */
export async function enqueueTenantJob(message: TenantJobMessage): Promise<void> {
  const queueUrl = config().TENANT_JOB_QUEUE_URL;
  if (queueUrl) {
    sqs ??= new SQSClient({});
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    return;
  }
  const files = await tenantJobFiles();
  runTenantJob(message, { now: Date.now, files }).catch((error: unknown) => logger.error('tenant job failed in process', { error: error as Error, job: message.type, tenantId: message.tenantId }));
}
