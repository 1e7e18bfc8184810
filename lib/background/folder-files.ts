import { createHmac, timingSafeEqual } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DownloadOptions, FileLink, FileWriter, UploadLink, UploadOptions } from './files';

/**
 * npm start's file store: files under a folder, their links on the API's own origin
 * (local/files.ts serves them) signed by one signer. A link signs its method, key, expiry
 * and what the answer must be (the size an upload must have; the name and type a download
 * is answered with), so that no link is another's.
 */

/** The path npm start serves the files at (local/files.ts). */
export const LOCAL_FILES_PATH = '/local-files';

/** What a link is signed for, beside its key and expiry: an upload's size; a download's name and type. */
export type LinkTerms = { method: 'PUT'; size: number } | { method: 'GET'; name: string; type: string };

const signed = (terms: LinkTerms) => (terms.method === 'PUT' ? `PUT\n${terms.size}` : `GET\n${terms.name}\n${terms.type}`);

export function linkSignature(secret: string, key: string, expires: number, terms: LinkTerms): string {
  return createHmac('sha256', secret)
    .update(`${key}\n${expires}\n${signed(terms)}`)
    .digest('base64url');
}

/** Whether a link's signature is the one its key, expiry and terms make. */
export function linkSigned(secret: string, key: string, expires: number, terms: LinkTerms, signature: string): boolean {
  const expected = Buffer.from(linkSignature(secret, key, expires, terms));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const expiry = (nowMs: number, seconds: number) => Math.floor(nowMs / 1000) + seconds;

export function folderDownloadLink(secret: string, key: string, options: DownloadOptions, nowMs: number): Promise<FileLink> {
  const expires = expiry(nowMs, options.seconds);
  const terms: LinkTerms = { method: 'GET', name: options.fileName ?? '', type: options.contentType ?? '' };
  const query = new URLSearchParams({ expires: String(expires) });
  if (terms.name) query.set('name', terms.name);
  if (terms.type) query.set('type', terms.type);
  query.set('signature', linkSignature(secret, key, expires, terms));
  return Promise.resolve({ url: `${LOCAL_FILES_PATH}/${key}?${query.toString()}`, expiresAt: new Date(expires * 1000).toISOString() });
}

export function folderUploadLink(secret: string, key: string, options: UploadOptions, nowMs: number): Promise<UploadLink> {
  const expires = expiry(nowMs, options.seconds);
  const query = new URLSearchParams({
    expires: String(expires),
    size: String(options.size),
    signature: linkSignature(secret, key, expires, { method: 'PUT', size: options.size }),
  });
  return Promise.resolve({
    method: 'PUT',
    url: `${LOCAL_FILES_PATH}/${key}?${query.toString()}`,
    headers: { 'content-type': options.contentType },
    expiresAt: new Date(expires * 1000).toISOString(),
  });
}

export async function readFolderFile(folder: string, key: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(join(folder, key));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Written beside its final name and renamed to it, so that a reader never sees half a file. */
export async function putFolderFile(folder: string, key: string, body: Uint8Array | string): Promise<void> {
  const path = join(folder, key);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(`${path}.partial`, body);
  await rename(`${path}.partial`, path);
}

export async function removeFolderFiles(folder: string, prefix: string): Promise<number> {
  const path = join(folder, prefix);
  const count = await readdir(path, { recursive: true, withFileTypes: true })
    .then((entries) => entries.filter((entry) => entry.isFile()).length)
    .catch(() => 0);
  await rm(path, { recursive: true, force: true });
  return count;
}

/** A file written chunk by chunk beside its final name, renamed to it once whole. */
export function folderWriter(folder: string, key: string): FileWriter {
  const path = join(folder, key);
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
