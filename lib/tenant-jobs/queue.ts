import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { config } from '../config';
import { sendToFolder } from '../background/folder-queue';
import { sendMessage } from '../background/queue';
import { logger } from '../log';
import { runTenantJob, type TenantJobMessage } from './engine';
import { tenantJobFiles } from './files';

/** The folder under IMPORT_UPLOAD_DIR that stands in for the tenant jobs' queue under npm start (local/tenant-jobs.ts takes it). */
export const LOCAL_TENANT_JOB_QUEUE = 'tenant-job-queue';

/**
 * Where a tenant job's first step goes: the tenant jobs' queue deployed
 * (infra/constructs/tenant-jobs.ts), whose worker sends each next step; under `npm start`, a
 * file in LOCAL_TENANT_JOB_QUEUE, which the API's process runs with the worker's code (so a
 * bundle's route, without the worker's Scan, never runs it); with neither (a test calling the
 * engine), the whole job in this process: never in a bundle. A failure is logged: the daily deletion job sends a
 * stalled deletion's step again.
 */
export async function enqueueTenantJob(message: TenantJobMessage): Promise<void> {
  const { TENANT_JOB_QUEUE_URL: queueUrl, IMPORT_UPLOAD_DIR } = config();
  if (queueUrl) {
    await sendMessage(queueUrl, message);
    return;
  }
  if (IMPORT_UPLOAD_DIR) {
    await sendToFolder(join(IMPORT_UPLOAD_DIR, LOCAL_TENANT_JOB_QUEUE), `${message.tenantId}.${message.type}.${randomUUID()}`, message);
    return;
  }
  // Left out of the bundles (infra/bundling.ts, BUNDLE_DROP_LABELS): the engine and the S3 client
  // are the worker's, and a deployed route always has the queue.
  IN_PROCESS: {
    const files = await tenantJobFiles();
    runTenantJob(message, { now: Date.now, files }).catch((error: unknown) =>
      logger.error('tenant job failed in process', { error: error as Error, job: message.type, tenantId: message.tenantId }),
    );
    return;
  }
  throw new Error('Invalid configuration: TENANT_JOB_QUEUE_URL (deployed) or IMPORT_UPLOAD_DIR (npm start) is required to start a tenant job');
}
