import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { config } from '../config';
import { EXPORT_LINK_SECONDS } from './model';

/**
 * Where the tenant jobs keep and remove files: the imports bucket deployed (./s3-files), the
 * import folder under `npm start` (IMPORT_UPLOAD_DIR, its links served by
 * local/tenant-exports.ts, signed with IMPORT_UPLOAD_SECRET). Keys are the bucket's object keys.
 */
export interface TenantJobFiles {
  put(key: string, body: Uint8Array | string, contentType: string): Promise<void>;
  read(key: string): Promise<Uint8Array | undefined>;
  /** A GET link valid EXPORT_LINK_SECONDS. */
  downloadLink(key: string, nowMs: number): Promise<{ url: string; expiresAt: string }>;
  /** Remove every file whose key starts with `prefix` (a folder, ending in `/`); how many there were. */
  removeFolder(prefix: string): Promise<number>;
}

/** The path npm start serves export downloads at (local/tenant-exports.ts). */
export const LOCAL_EXPORT_PATH = '/local-tenant-exports';

export function localDownloadSignature(secret: string, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`GET\n${key}\n${expires}`).digest('base64url');
}

export function localDownloadSigned(secret: string, key: string, expires: number, signature: string): boolean {
  const expected = Buffer.from(localDownloadSignature(secret, key, expires));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** npm start's files, under `directory`. */
export function localTenantJobFiles(secret: string, directory: string): TenantJobFiles {
  const pathOf = (key: string) => join(directory, key);
  return {
    put: async (key, body, _contentType) => {
      await mkdir(dirname(pathOf(key)), { recursive: true });
      await writeFile(pathOf(key), body);
    },
    read: async (key) => {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    downloadLink: (key, nowMs) => {
      const expires = Math.floor(nowMs / 1000) + EXPORT_LINK_SECONDS;
      const query = new URLSearchParams({ expires: String(expires), signature: localDownloadSignature(secret, key, expires) });
      return Promise.resolve({ url: `${LOCAL_EXPORT_PATH}/${key}?${query.toString()}`, expiresAt: new Date(expires * 1000).toISOString() });
    },
    removeFolder: async (prefix) => {
      const folder = pathOf(prefix);
      const count = await readdir(folder, { recursive: true, withFileTypes: true })
        .then((entries) => entries.filter((entry) => entry.isFile()).length)
        .catch(() => 0);
      await rm(folder, { recursive: true, force: true });
      return count;
    },
  };
}

/** The files the configuration names: the imports bucket (deployed) or npm start's folder. */
export async function tenantJobFiles(): Promise<TenantJobFiles> {
  const { IMPORT_BUCKET, IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (IMPORT_BUCKET) return (await import('./s3-files')).s3TenantJobFiles(IMPORT_BUCKET);
  if (IMPORT_UPLOAD_SECRET && IMPORT_UPLOAD_DIR) return localTenantJobFiles(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  throw new Error('Invalid configuration: IMPORT_BUCKET, or IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR, is required for the tenant jobs');
}
