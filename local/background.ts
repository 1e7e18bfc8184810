import { join } from 'node:path';
import { LOCAL_QUEUE_FOLDER } from '../lib/background/queue';
import { config } from '../lib/config';
import { failExport, runExport, type ExportMessage } from '../lib/exports/engine';
import { exportFilesAt } from '../lib/exports/storage';
import { runTenantJob, type TenantJobMessage } from '../lib/tenant-jobs/engine';
import { tenantJobFilesAt } from '../lib/tenant-jobs/files';
import { startFolderQueue } from './folder-queue';

/**
 * npm start's background workers: one folder queue (local/folder-queue.ts) whose messages run
 * in the API's process by the deployed workers' code, their files under IMPORT_UPLOAD_DIR.
 * - exports (POST /exports): two at a time, as the deployed worker's concurrency allows; a run
 *   that fails is logged and its job marked failed, as the queue does deployed once it gives up;
 * - tenant jobs (POST /tenants/{id}/export and the daily deletion job): one at a time, each job
 *   run to its end with the store's own access, as the worker's grants (its Scan) allow
 *   deployed; a failure is logged, and the daily job sends a stalled deletion's step again.
 */
export async function startLocalBackground(log: (line: string) => void): Promise<() => void> {
  const { IMPORT_UPLOAD_SECRET: secret, IMPORT_UPLOAD_DIR: folder } = config();
  if (!secret || !folder) throw new Error('IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR are set by local/environment.ts');
  const exportFiles = exportFilesAt({ folder, secret });
  const tenantJobFiles = tenantJobFilesAt({ folder, secret });
  const exportOf = (message: ExportMessage) => ({ tenantId: message.tenantId, id: message.exportId });
  return startFolderQueue<{ exports: ExportMessage; 'tenant-jobs': TenantJobMessage }>({
    folder: join(folder, LOCAL_QUEUE_FOLDER),
    log,
    workers: {
      exports: {
        atOnce: 2,
        label: '[exports]',
        run: async (message: ExportMessage) => {
          await runExport(exportOf(message), { now: Date.now, files: exportFiles });
          return message.exportId;
        },
        failed: (message: ExportMessage) => failExport(exportOf(message), Date.now()),
      },
      'tenant-jobs': {
        atOnce: 1,
        label: '[tenant jobs]',
        run: async (message: TenantJobMessage) => {
          await runTenantJob(message, { now: Date.now, files: tenantJobFiles });
          return `${message.type} of ${message.tenantId}`;
        },
        failed: () => Promise.resolve(),
      },
    },
  });
}
