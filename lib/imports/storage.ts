import { fileLocation, readFile, uploadLink, type FileLocation, type UploadLink } from '../background/files';
import type { ImportFiles } from './engine';
import { UPLOAD_LINK_SECONDS, type ImportJob } from './model';

/**
 * Where an import's file goes and is read from, in the background jobs' file store
 * (lib/background/files). Deployed: the imports bucket, the file PUT by the client to a
 * presigned URL (API Gateway takes 10 MB at most and a function's request 6 MB, so the file
 * does not pass through the API); its arrival starts the job (infra: the bucket's
 * notification to the import queue). Under `npm start`: the same PUT to a link on the API's
 * own origin (local/files.ts), which starts the job in process (local/imports.ts).
 */
export type { UploadLink };

export interface ImportStorage extends ImportFiles {
  uploadLink(job: ImportJob, nowMs: number): Promise<UploadLink>;
}

/** The object key of a job's file: its tenant first, so a tenant's files are one prefix. */
export const importFileKey = (job: Pick<ImportJob, 'tenantId' | 'id'>): string => `imports/${job.tenantId}/${job.id}.csv`;

const KEY = /^imports\/([0-9a-f-]{36})\/([0-9a-f-]{36})\.csv$/;

/** The job whose file `key` is, or undefined for a key that is no import's. */
export function importOfKey(key: string): { tenantId: string; id: string } | undefined {
  const match = KEY.exec(key);
  return match ? { tenantId: match[1] as string, id: match[2] as string } : undefined;
}

/** A link for the job's file, of exactly the size the job was created with, as CSV, valid UPLOAD_LINK_SECONDS. */
export function importUploadLinksAt(at: FileLocation): Pick<ImportStorage, 'uploadLink'> {
  return { uploadLink: (job, nowMs) => uploadLink(at, importFileKey(job), { seconds: UPLOAD_LINK_SECONDS, size: job.size, contentType: 'text/csv' }, nowMs) };
}

export function importStorageAt(at: FileLocation): ImportStorage {
  return { ...importUploadLinksAt(at), read: (job) => readFile(at, importFileKey(job)) };
}

/** The upload links the configuration names, without what reads the file (POST /imports only hands a link out). */
export const importUploadLinks = (): Pick<ImportStorage, 'uploadLink'> => importUploadLinksAt(fileLocation('IMPORT_BUCKET', 'imports'));

/** The storage the configuration names. */
export const importStorage = (): ImportStorage => importStorageAt(fileLocation('IMPORT_BUCKET', 'imports'));
