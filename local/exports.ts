import { join } from 'node:path';
import { config } from '../lib/config';
import { failExport, runExport, type ExportMessage } from '../lib/exports/engine';
import { LOCAL_EXPORT_QUEUE } from '../lib/exports/queue';
import { localExportStorage } from '../lib/exports/storage';
import { startFolderQueue } from './folder-queue';

/**
 * npm start's export worker: the messages POST /exports leaves in the local queue's folder
 * (lib/exports/queue, in process or from a bundle alike) are taken one at a time, as the
 * deployed worker takes the queue's (at most EXPORTS_AT_ONCE running), and each job run here by
 * the deployed worker's code (lib/exports/engine), its file written under IMPORT_UPLOAD_DIR.
 * The folder is local/folder-queue.ts's. A run that fails is logged and its job marked failed,
 * as the queue does deployed once it gives up.
 */

const EXPORTS_AT_ONCE = 2;

/** Start the worker; the function returned stops it. */
export async function startLocalExports(log: (line: string) => void): Promise<() => void> {
  const { IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (!IMPORT_UPLOAD_SECRET || !IMPORT_UPLOAD_DIR) throw new Error('IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR are set by local/environment.ts');
  const files = localExportStorage(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  const refOf = (message: ExportMessage) => ({ tenantId: message.tenantId, id: message.exportId });
  return startFolderQueue<ExportMessage>({
    folder: join(IMPORT_UPLOAD_DIR, LOCAL_EXPORT_QUEUE),
    atOnce: EXPORTS_AT_ONCE,
    label: '[exports]',
    log,
    run: async (message) => {
      await runExport(refOf(message), { now: Date.now, files });
      return message.exportId;
    },
    failed: (message) => failExport(refOf(message), Date.now()),
  });
}
