import { join } from 'node:path';
import { config } from '../lib/config';
import { runTenantJob, type TenantJobMessage } from '../lib/tenant-jobs/engine';
import { tenantJobFiles } from '../lib/tenant-jobs/files';
import { LOCAL_TENANT_JOB_QUEUE } from '../lib/tenant-jobs/queue';
import { startFolderQueue } from './folder-queue';

/**
 * npm start's tenant jobs' worker: the messages POST /tenants/{id}/export and the daily
 * deletion job leave in the local queue's folder (lib/tenant-jobs/queue, in process or from a
 * bundle alike) are taken one at a time, as the deployed worker takes its queue's, and each job
 * run here to its end by the worker's code (lib/tenant-jobs/engine), with the store's own
 * access, as the worker's grants (its Scan) allow deployed. A failure is logged; the daily job
 * sends a stalled deletion's step again.
 */
export async function startLocalTenantJobs(log: (line: string) => void): Promise<() => void> {
  const { IMPORT_UPLOAD_DIR } = config();
  if (!IMPORT_UPLOAD_DIR) throw new Error('IMPORT_UPLOAD_DIR is set by local/environment.ts');
  const files = await tenantJobFiles();
  return startFolderQueue<TenantJobMessage>({
    folder: join(IMPORT_UPLOAD_DIR, LOCAL_TENANT_JOB_QUEUE),
    atOnce: 1,
    label: '[tenant jobs]',
    log,
    run: async (message) => {
      await runTenantJob(message, { now: Date.now, files });
      return `${message.type} of ${message.tenantId}`;
    },
    failed: () => Promise.resolve(),
  });
}
