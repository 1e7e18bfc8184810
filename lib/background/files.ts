import { config } from '../config';
import { folderDownloadLink, folderUploadLink, folderWriter, putFolderFile, readFolderFile, removeFolderFiles } from './folder-files';

/**
 * The one file store of the background jobs (exports, imports, tenant jobs). Deployed, files
 * are objects of the imports bucket, their links presigned; under `npm start`, files under
 * IMPORT_UPLOAD_DIR, their links on the API's own origin (local/files.ts) signed with
 * IMPORT_UPLOAD_SECRET (./folder-files). A feature keeps only its own rules: its keys, its
 * links' lifetimes and names.
 *
 * Each operation is a function of its own that loads only what it needs (docs/architecture.md,
 * "Cold-start conventions"): a route that hands out links bundles the signer alone, the import
 * worker (which only reads) no S3 client, and only the export worker the multipart upload.
 */
export type FileLocation = { bucket: string } | { folder: string; secret: string };

/** A link to GET a file, and when it stops working. */
export interface FileLink {
  url: string;
  expiresAt: string;
}

/** A link to PUT a file of a given size, with the headers the upload must send. */
export interface UploadLink extends FileLink {
  method: 'PUT';
  headers: Record<string, string>;
}

/** A file written chunk by chunk: whole at `end`, nothing at all after `abort`. */
export interface FileWriter {
  write(text: string): Promise<void>;
  end(): Promise<void>;
  abort(): Promise<void>;
}

export interface DownloadOptions {
  /** How long the link works. */
  seconds: number;
  /** Answered as an attachment of this name. */
  fileName?: string;
  /** Answered with this Content-Type (otherwise the file's own). */
  contentType?: string;
}

export interface UploadOptions {
  seconds: number;
  /** The exact size the file must have: a link for another size is refused. */
  size: number;
  contentType: string;
}

/**
 * Where the files are, as the configuration names it: the bucket in `bucketVariable` (set on
 * the functions that use it), or npm start's folder.
 */
export function fileLocation(bucketVariable: 'IMPORT_BUCKET' | 'EXPORT_BUCKET', purpose: string): FileLocation {
  const settings = config();
  const bucket = settings[bucketVariable];
  if (bucket) return { bucket };
  const { IMPORT_UPLOAD_SECRET: secret, IMPORT_UPLOAD_DIR: folder } = settings;
  if (secret && folder) return { folder, secret };
  throw new Error(`Invalid configuration: ${bucketVariable}, or IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR, is required for ${purpose}`);
}

export async function downloadLink(at: FileLocation, key: string, options: DownloadOptions, nowMs: number): Promise<FileLink> {
  if ('folder' in at) return folderDownloadLink(at.secret, key, options, nowMs);
  return (await import('./s3-signed')).s3DownloadLink(at.bucket, key, options, nowMs);
}

export async function uploadLink(at: FileLocation, key: string, options: UploadOptions, nowMs: number): Promise<UploadLink> {
  if ('folder' in at) return folderUploadLink(at.secret, key, options, nowMs);
  return (await import('./s3-signed')).s3UploadLink(at.bucket, key, options, nowMs);
}

/** The file's bytes, or undefined when there is no such file. */
export async function readFile(at: FileLocation, key: string): Promise<Uint8Array | undefined> {
  if ('folder' in at) return readFolderFile(at.folder, key);
  return (await import('./s3-signed')).s3Read(at.bucket, key);
}

export async function putFile(at: FileLocation, key: string, body: Uint8Array | string, contentType: string): Promise<void> {
  if ('folder' in at) return putFolderFile(at.folder, key, body);
  return (await import('./s3-objects')).s3Put(at.bucket, key, body, contentType);
}

/** Remove every file whose key starts with `prefix` (a folder, ending in `/`); how many there were. */
export async function removeFolder(at: FileLocation, prefix: string): Promise<number> {
  if ('folder' in at) return removeFolderFiles(at.folder, prefix);
  return (await import('./s3-objects')).s3RemoveFolder(at.bucket, prefix);
}

/** A file written as it is produced, never whole in memory. */
export function openFile(at: FileLocation, key: string, contentType: string): FileWriter {
  if ('folder' in at) return folderWriter(at.folder, key);
  const opened = import('./s3-writer').then((module) => module.s3Writer(at.bucket, key, contentType));
  // Seen by the first write, end or abort.
  opened.catch(() => undefined);
  return {
    write: async (text) => (await opened).write(text),
    end: async () => (await opened).end(),
    abort: async () => (await opened).abort(),
  };
}
