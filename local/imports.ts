import { config } from '../lib/config';
import { runImport } from '../lib/imports/engine';
import { localImportStorage } from '../lib/imports/storage';
import type { UploadOptions } from './uploads';

/**
 * npm start's imports: where uploads are kept and checked (local/uploads.ts), and each job run
 * in this process once its file came, step after step, by the deployed worker's code. A job
 * whose run fails is logged and stays `running`: uploading its file again does not restart it
 * (a job starts once), so start a new import.
 */
export function localImportUploads(log: (line: string) => void): UploadOptions {
  const { IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (!IMPORT_UPLOAD_SECRET || !IMPORT_UPLOAD_DIR) throw new Error('IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR are set by local/environment.ts');
  const files = localImportStorage(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  return {
    secret: IMPORT_UPLOAD_SECRET,
    directory: IMPORT_UPLOAD_DIR,
    log,
    onUploaded: (ref) => {
      const started = Date.now();
      runImport(ref, { now: Date.now, files })
        .then(() => log(`[imports] ${ref.id} done in ${Date.now() - started} ms`))
        .catch((error: unknown) => log(`[imports] ${ref.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
    },
  };
}
