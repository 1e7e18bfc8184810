import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { config } from '../config';
import type { ExportFiles, ExportWriter } from './engine';
import { DOWNLOAD_LINK_SECONDS, type ExportJob } from './model';
import type { DownloadLink } from './schemas';

/**
 * Where an export's file is written and downloaded from. Deployed: the imports bucket, under
 * `exports/` (its S3 notice is filtered to `imports/`, so a file there starts no import), a
 * multipart upload written as the rows are read, downloaded by a presigned GET. Locally
 * (`npm start`): a file under IMPORT_UPLOAD_DIR, downloaded from the API's own origin
 * (local/uploads.ts) by a link signed with IMPORT_UPLOAD_SECRET, as the import uploads are.
 */
export interface ExportDownloads {
  downloadLink(job: Pick<ExportJob, 'tenantId' | 'id'>, fileName: string, nowMs: number): Promise<DownloadLink>;
}
export interface ExportStorage extends ExportFiles, ExportDownloads {}

/** The object key of a job's file: its tenant first, so a tenant's files are one prefix. */
export const exportFileKey = (job: Pick<ExportJob, 'tenantId' | 'id'>): string => `exports/${job.tenantId}/${job.id}.csv`;

/** The Content-Disposition a download answers with. */
export const attachment = (fileName: string): string => `attachment; filename="${fileName}"`;

/** The path npm start serves a job's file at (local/uploads.ts). */
export const LOCAL_DOWNLOAD_PATH = '/local-downloads';

/**
 * The signature of a local download link: its key, expiry (epoch seconds) and file name, with
 * a purpose of its own first, so that no upload link's signature (lib/imports/storage) is one.
 */
export function localDownloadSignature(secret: string, key: string, expires: number, fileName: string): string {
  return createHmac('sha256', secret).update(`export-download\n${key}\n${expires}\n${fileName}`).digest('base64url');
}

/** Whether a local download's signature is the one its key, expiry and file name make. */
export function localDownloadSigned(secret: string, key: string, expires: number, fileName: string, signature: string): boolean {
  const expected = Buffer.from(localDownloadSignature(secret, key, expires, fileName));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A file written chunk by chunk beside its final name, renamed to it once whole. */
function localWriter(path: string): ExportWriter {
  const partial = `${path}.partial`;
  let stream: WriteStream | undefined;
  const opened = async () => {
    if (!stream) {
      await mkdir(dirname(path), { recursive: true });
      stream = createWriteStream(partial);
    }
    return stream;
  };
  const closed = (target: WriteStream) => new Promise<void>((resolve, reject) => target.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return {
    write: async (text) => {
      const target = await opened();
      if (!target.write(text)) await new Promise<void>((resolve) => target.once('drain', () => resolve()));
    },
    end: async () => {
      await closed(await opened());
      await rename(partial, path);
    },
    abort: async () => {
      if (stream) await closed(stream).catch(() => undefined);
      await rm(partial, { force: true });
    },
  };
}

/** npm start's storage: files under `directory`, links to local/uploads.ts. */
export function localExportStorage(secret: string, directory: string): ExportStorage {
  return {
    create: (job) => localWriter(join(directory, exportFileKey(job))),
    downloadLink: (job, fileName, nowMs) => {
      const key = exportFileKey(job);
      const expires = Math.floor(nowMs / 1000) + DOWNLOAD_LINK_SECONDS;
      const query = new URLSearchParams({ expires: String(expires), name: fileName, signature: localDownloadSignature(secret, key, expires, fileName) });
      return Promise.resolve({ url: `${LOCAL_DOWNLOAD_PATH}/${key}?${query.toString()}`, expiresAt: new Date(expires * 1000).toISOString(), fileName });
    },
  };
}

/** npm start's storage, when the configuration names no bucket. */
function localStorageOrNone(): ExportStorage {
  const { IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (IMPORT_UPLOAD_SECRET && IMPORT_UPLOAD_DIR) return localExportStorage(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  throw new Error('Invalid configuration: EXPORT_BUCKET, or IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR, is required for exports');
}

/** Where the worker writes files, as the configuration names it: the bucket (deployed) or npm start's folder. */
export async function exportFiles(): Promise<ExportFiles> {
  const { EXPORT_BUCKET } = config();
  return EXPORT_BUCKET ? (await import('./s3-storage')).s3ExportFiles(EXPORT_BUCKET) : localStorageOrNone();
}

/** Where download links point, as the configuration names it: the bucket (deployed) or npm start's own origin. */
export async function exportDownloads(): Promise<ExportDownloads> {
  const { EXPORT_BUCKET } = config();
  return EXPORT_BUCKET ? (await import('./s3-downloads')).s3ExportDownloads(EXPORT_BUCKET) : localStorageOrNone();
}
