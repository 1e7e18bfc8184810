import { join } from 'node:path';
import { config } from '../config';
import { sendToFolder } from '../background/folder-queue';
import type { ExportMessage } from './engine';
import type { ExportJob } from './model';

/**
 * How POST /exports starts a job's worker. Deployed: a message on the export queue
 * (EXPORT_QUEUE_URL), which the export worker takes one at a time. Locally (`npm start`, in
 * process or in bundle mode alike): a file in LOCAL_EXPORT_QUEUE under IMPORT_UPLOAD_DIR, which
 * local/exports.ts takes and runs in the API's process.
 */
export interface ExportQueue {
  send(job: Pick<ExportJob, 'tenantId' | 'id'>): Promise<void>;
}

export const exportMessage = (job: Pick<ExportJob, 'tenantId' | 'id'>): ExportMessage => ({ type: 'export-run', tenantId: job.tenantId, exportId: job.id });

/** The folder under IMPORT_UPLOAD_DIR that stands in for the export queue locally. */
export const LOCAL_EXPORT_QUEUE = 'export-queue';

/** npm start's queue: one file per message, written whole (renamed into place), named for its job. */
export function localExportQueue(directory: string): ExportQueue {
  return {
    send: (job) => sendToFolder(join(directory, LOCAL_EXPORT_QUEUE), `${job.tenantId}.${job.id}`, exportMessage(job)),
  };
}

/** The queue the configuration names: SQS (deployed) or npm start's folder. */
export function exportQueue(): ExportQueue {
  const { EXPORT_QUEUE_URL, IMPORT_UPLOAD_DIR } = config();
  // Loaded when a job is started, not at the route's cold start.
  if (EXPORT_QUEUE_URL) return { send: async (job) => (await import('../background/queue')).sendMessage(EXPORT_QUEUE_URL, exportMessage(job)) };
  if (IMPORT_UPLOAD_DIR) return localExportQueue(IMPORT_UPLOAD_DIR);
  throw new Error('Invalid configuration: EXPORT_QUEUE_URL, or IMPORT_UPLOAD_DIR, is required for exports');
}
