import { randomUUID } from 'node:crypto';
import { enqueue } from '../background/queue';
import { sendMessage } from '../background/sqs';
import { logger } from '../log';
import { runTenantJob, type TenantJobMessage } from './engine';
import { tenantJobFiles } from './files';

/**
 * Where a tenant job's step goes: the tenant jobs' queue deployed (infra/constructs/tenant-jobs.ts),
 * whose worker sends each next step; under `npm start`, the local queue folder, which the API's
 * process runs with the worker's code (so a bundle's route, without the worker's Scan, never
 * runs it); with neither (a test calling the engine), the whole job in this process: never in a
 * bundle. A failure is logged: the daily deletion job sends a stalled deletion's step again.
 */
export async function enqueueTenantJob(message: TenantJobMessage): Promise<void> {
  if (await enqueue('tenant-jobs', `${message.tenantId}.${message.type}.${randomUUID()}`, message, sendMessage)) return;
  // Left out of the bundles (infra/bundling.ts, BUNDLE_DROP_LABELS): the engine and the S3 client
  // are the worker's, and a deployed route always has the queue.
  IN_PROCESS: {
    const files = tenantJobFiles();
    runTenantJob(message, { now: Date.now, files }).catch((error: unknown) =>
      logger.error('tenant job failed in process', { error: error as Error, job: message.type, tenantId: message.tenantId }),
    );
    return;
  }
  throw new Error('Invalid configuration: TENANT_JOB_QUEUE_URL (deployed) or IMPORT_UPLOAD_DIR (npm start) is required to start a tenant job');
}
