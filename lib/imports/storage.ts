import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '../config';
import type { ImportFiles } from './engine';
import { UPLOAD_LINK_SECONDS, type ImportJob } from './model';

/**
 * Where an import's file goes and is read from. Deployed: an S3 bucket, the file PUT by the
 * client to a presigned URL (API Gateway takes 10 MB at most and a function's request 6 MB, so
 * the file does not pass through the API); its arrival starts the job (infra: the bucket's
 * notification to the import queue). Locally (`npm start`): the same PUT to a link on the
 * API's own origin (local/uploads.ts), signed with IMPORT_UPLOAD_SECRET, the file kept under
 * IMPORT_UPLOAD_DIR.
 */
export interface UploadLink {
  method: 'PUT';
  url: string;
  headers: Record<string, string>;
  expiresAt: string;
}

export interface ImportStorage extends ImportFiles {
  uploadLink(job: ImportJob, nowMs: number): Promise<UploadLink>;
}

/** The object key of a job's file: its tenant first, so a tenant's files are one prefix. */
export const importFileKey = (job: Pick<ImportJob, 'tenantId' | 'id'>): string => `imports/${job.tenantId}/${job.id}.csv`;

/** The path npm start takes a job's file at (local/uploads.ts). */
export const LOCAL_UPLOAD_PATH = '/local-uploads';

/** The signature of a local upload link: the file's key, the link's expiry (epoch seconds) and the size it must have. */
export function localUploadSignature(secret: string, key: string, expires: number, size: number): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}\n${size}`).digest('base64url');
}

/** Whether a local upload's signature is the one its key, expiry and size make. */
export function localUploadSigned(secret: string, key: string, expires: number, size: number, signature: string): boolean {
  const expected = Buffer.from(localUploadSignature(secret, key, expires, size));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** npm start's storage: links to local/uploads.ts, files under IMPORT_UPLOAD_DIR. */
export function localImportStorage(secret: string, directory: string): ImportStorage {
  return {
    uploadLink: (job, nowMs) => {
      const key = importFileKey(job);
      const expires = Math.floor(nowMs / 1000) + UPLOAD_LINK_SECONDS;
      const query = new URLSearchParams({ expires: String(expires), size: String(job.size), signature: localUploadSignature(secret, key, expires, job.size) });
      return Promise.resolve({
        method: 'PUT',
        url: `${LOCAL_UPLOAD_PATH}/${key}?${query.toString()}`,
        headers: { 'content-type': 'text/csv' },
        expiresAt: new Date(expires * 1000).toISOString(),
      });
    },
    read: async (job) => {
      try {
        return await readFile(join(directory, importFileKey(job)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}

/** The upload links the configuration names, without what reads the file: POST /imports hands a link out, and its bundle holds no S3 client. */
export async function importUploadLinks(): Promise<Pick<ImportStorage, 'uploadLink'>> {
  const { IMPORT_BUCKET, IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (IMPORT_BUCKET) return (await import('./s3-upload-links')).s3UploadLinks(IMPORT_BUCKET);
  if (IMPORT_UPLOAD_SECRET && IMPORT_UPLOAD_DIR) return localImportStorage(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  throw new Error('Invalid configuration: IMPORT_BUCKET, or IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR, is required for imports');
}

/** The storage the configuration names: the bucket (deployed) or npm start's folder. */
export async function importStorage(): Promise<ImportStorage> {
  const { IMPORT_BUCKET, IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (IMPORT_BUCKET) return (await import('./s3-storage')).s3ImportStorage(IMPORT_BUCKET);
  if (IMPORT_UPLOAD_SECRET && IMPORT_UPLOAD_DIR) return localImportStorage(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  throw new Error('Invalid configuration: IMPORT_BUCKET, or IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR, is required for imports');
}
