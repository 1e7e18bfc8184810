import { downloadLink, fileLocation, openFile, type FileLocation } from '../background/files';
import type { ExportFiles } from './engine';
import { DOWNLOAD_LINK_SECONDS, type ExportJob } from './model';
import type { DownloadLink } from './schemas';

/**
 * Where an export's file is written and downloaded from, in the background jobs' file store
 * (lib/background/files): deployed, the imports bucket under `exports/` (its S3 notice is
 * filtered to `imports/`, so a file there starts no import), written as the rows are read and
 * downloaded by a presigned GET; under `npm start`, IMPORT_UPLOAD_DIR's folder.
 */
export interface ExportDownloads {
  downloadLink(job: Pick<ExportJob, 'tenantId' | 'id'>, fileName: string, nowMs: number): Promise<DownloadLink>;
}

/** The object key of a job's file: its tenant first, so a tenant's files are one prefix. */
export const exportFileKey = (job: Pick<ExportJob, 'tenantId' | 'id'>): string => `exports/${job.tenantId}/${job.id}.csv`;

const CSV = 'text/csv; charset=utf-8';

export function exportFilesAt(at: FileLocation): ExportFiles {
  return { create: (job) => openFile(at, exportFileKey(job), CSV) };
}

/** A download answers as an attachment named for the job, valid DOWNLOAD_LINK_SECONDS. */
export function exportDownloadsAt(at: FileLocation): ExportDownloads {
  return {
    downloadLink: async (job, fileName, nowMs) => ({
      ...(await downloadLink(at, exportFileKey(job), { seconds: DOWNLOAD_LINK_SECONDS, fileName, contentType: CSV }, nowMs)),
      fileName,
    }),
  };
}

/** Where the worker writes files, as the configuration names it. */
export const exportFiles = (): ExportFiles => exportFilesAt(fileLocation('EXPORT_BUCKET', 'exports'));

/** Where download links point, as the configuration names it. */
export const exportDownloads = (): ExportDownloads => exportDownloadsAt(fileLocation('EXPORT_BUCKET', 'exports'));
