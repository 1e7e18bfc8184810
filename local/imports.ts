import { config } from '../lib/config';
import { findImportJob, scanRunningImportJobs } from '../lib/imports/repository';
import { runImport, type ImportFiles } from '../lib/imports/engine';
import { IMPORT_MAX_RECEIVES } from '../lib/imports/model';
import { importOfKey, importStorageAt } from '../lib/imports/storage';
import type { LocalFilesOptions } from './files';

/**
 * npm start's imports: which uploads the local files take (local/files.ts), and each job run
 * in this process once its file came, step after step, by the deployed worker's code. A failed
 * step is sent again as the deployed queue does (`runRedelivered`); one that fails every time
 * is logged and its job stays `running`: uploading its file again does not restart it (a job
 * starts once), so start a new import. A job that npm start stopping interrupted goes on from
 * its next row when npm start starts again (`resumeImports`).
 */
export function localImportUploads(log: (line: string) => void): LocalFilesOptions {
  const { IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (!IMPORT_UPLOAD_SECRET || !IMPORT_UPLOAD_DIR) throw new Error('IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR are set by local/environment.ts');
  const files = importStorageAt({ folder: IMPORT_UPLOAD_DIR, secret: IMPORT_UPLOAD_SECRET });
  void resumeImports(files, log);
  return {
    secret: IMPORT_UPLOAD_SECRET,
    directory: IMPORT_UPLOAD_DIR,
    log,
    accepts: async (key) => {
      const ref = importOfKey(key);
      const job = ref && (await findImportJob(ref.tenantId, ref.id));
      if (!job) return 'The upload link is not valid';
      return job.status === 'failed' ? `The import failed and takes no file: ${job.failure ?? 'start a new import'}` : null;
    },
    onUploaded: (key) => {
      const ref = importOfKey(key);
      if (!ref) return;
      const started = Date.now();
      void runRedelivered(ref, 0, files, log).then((done) => {
        if (done) log(`[imports] ${ref.id} done in ${Date.now() - started} ms`);
      });
    },
  };
}

/**
 * A job's steps from `fromRow`, each failed step sent again as the deployed queue redelivers
 * its message: from the job's next row as stored, after a pause, up to IMPORT_MAX_RECEIVES
 * runs; then, as the dead-letter queue would hold it, the job stays `running` and the error is
 * logged. Resolves to whether the run got to its end.
 */
export async function runRedelivered(
  ref: { tenantId: string; id: string },
  fromRow: number,
  files: ImportFiles,
  log: (line: string) => void,
  pauseMs = 1_000,
): Promise<boolean> {
  let next = fromRow;
  for (let receive = 1; ; receive += 1) {
    try {
      await runImport(ref, { now: Date.now, files }, next);
      return true;
    } catch (error) {
      const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
      if (receive >= IMPORT_MAX_RECEIVES) {
        log(`[imports] ${ref.id} failed ${receive} times, left running as in the dead-letter queue: ${reason}`);
        return false;
      }
      log(`[imports] ${ref.id} failed (receive ${receive} of ${IMPORT_MAX_RECEIVES}), sent again: ${reason}`);
      await new Promise((resume) => setTimeout(resume, pauseMs * receive));
      const job = await findImportJob(ref.tenantId, ref.id).catch(() => undefined);
      next = job?.nextRow ?? next;
    }
  }
}

/**
 * Go on with every job left `running` (npm start stopped during its steps): each from its next
 * row, as the deployed queue would have gone on. A step records only from the row it started at,
 * so a job another process is running counts its rows once. Resolves when they have finished.
 */
export async function resumeImports(files: ImportFiles, log: (line: string) => void): Promise<void> {
  const jobs = await scanRunningImportJobs().catch((error: unknown) => {
    log(`[imports] could not look for interrupted imports: ${error instanceof Error ? error.message : String(error)}`);
    return [];
  });
  await Promise.all(
    jobs.map(async (job) => {
      log(`[imports] ${job.id} goes on from row ${job.nextRow}`);
      if (await runRedelivered(job, job.nextRow, files, log)) log(`[imports] ${job.id} done`);
    }),
  );
}
