import { downloadLink, fileLocation, putFile, readFile, removeFolder, type FileLocation } from '../background/files';
import { EXPORT_LINK_SECONDS } from './model';

/**
 * Where the tenant jobs keep and remove files, in the background jobs' file store
 * (lib/background/files): the imports bucket deployed, IMPORT_UPLOAD_DIR's folder under
 * `npm start`. Keys are the bucket's object keys.
 */
export interface TenantJobFiles {
  put(key: string, body: Uint8Array | string, contentType: string): Promise<void>;
  read(key: string): Promise<Uint8Array | undefined>;
  /** A GET link valid EXPORT_LINK_SECONDS. */
  downloadLink(key: string, nowMs: number): Promise<{ url: string; expiresAt: string }>;
  /** Remove every file whose key starts with `prefix` (a folder, ending in `/`); how many there were. */
  removeFolder(prefix: string): Promise<number>;
}

/** What a route that shows an export needs of its files: the links to download them, nothing it reads or writes. */
export type TenantJobLinks = Pick<TenantJobFiles, 'downloadLink'>;

export function tenantJobLinksAt(at: FileLocation): TenantJobLinks {
  return { downloadLink: (key, nowMs) => downloadLink(at, key, { seconds: EXPORT_LINK_SECONDS }, nowMs) };
}

export function tenantJobFilesAt(at: FileLocation): TenantJobFiles {
  return {
    ...tenantJobLinksAt(at),
    put: (key, body, contentType) => putFile(at, key, body, contentType),
    read: (key) => readFile(at, key),
    removeFolder: (prefix) => removeFolder(at, prefix),
  };
}

const location = () => fileLocation('IMPORT_BUCKET', 'the tenant jobs');

/** The files the configuration names. */
export const tenantJobFiles = (): TenantJobFiles => tenantJobFilesAt(location());

/** The download links alone: a route that shows an export bundles no S3 client. */
export const tenantJobLinks = (): TenantJobLinks => tenantJobLinksAt(location());
