import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { attachment, LOCAL_DOWNLOAD_PATH, localDownloadSigned } from '../lib/exports/storage';
import { LOCAL_UPLOAD_PATH, localUploadSigned } from '../lib/imports/storage';

/**
 * npm start's stand-in for the import bucket: `PUT /local-uploads/imports/<tenant>/<job>.csv`
 * with the link POST /imports answered (lib/imports/storage.ts), on the API's own origin. As S3
 * does with a presigned PUT, it refuses a link whose signature, expiry or size does not match
 * (403, the body exactly the size signed), and refuses (403) the file of a job that failed
 * meanwhile (its user removed or its tenant closed: deployed, the worker ignores such a file,
 * since a presigned link cannot be revoked); keeps the file under `directory`, answers 200, and
 * then (as the bucket's notification does deployed) tells `onUploaded` which job's file came.
 *
 * And its stand-in for an export's presigned GET: `GET /local-downloads/exports/<tenant>/<job>.csv`
 * with the link GET /exports/{id} answered (lib/exports/storage.ts), refused (403) when its
 * signature or expiry does not match, the file sent as an attachment named as the link says.
 */

export interface UploadOptions {
  secret: string;
  directory: string;
  now?: () => number;
  onUploaded: (ref: { tenantId: string; id: string }) => void;
  /** Why a job's file is no longer taken (the job failed: its user removed, its tenant closed), or null while it is. */
  refusal?: (ref: { tenantId: string; id: string }) => Promise<string | null>;
  log?: (line: string) => void;
}

const KEY = /^imports\/([0-9a-f-]{36})\/([0-9a-f-]{36})\.csv$/;
const EXPORT_KEY = /^exports\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.csv$/;

/** A file the job no longer takes: 403 with the reason, nothing kept. */
class RefusedUpload extends Error {}

export function withUploads(next: RequestListener, options: UploadOptions): RequestListener {
  const now = options.now ?? Date.now;
  const answer = (request: IncomingMessage, response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
    options.log?.(`${request.method} ${LOCAL_UPLOAD_PATH}/… ${status} (upload)`);
  };
  const download = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    const refuse = (status: number, text: string) => {
      response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
      options.log?.(`${request.method} ${LOCAL_DOWNLOAD_PATH}/… ${status} (download)`);
    };
    if (request.method !== 'GET') return refuse(405, 'Only GET downloads a file here');
    const key = decodeURIComponent(url.pathname.slice(LOCAL_DOWNLOAD_PATH.length + 1));
    const expires = Number(url.searchParams.get('expires'));
    const fileName = url.searchParams.get('name') ?? '';
    const signature = url.searchParams.get('signature') ?? '';
    if (!EXPORT_KEY.test(key) || !Number.isSafeInteger(expires) || !localDownloadSigned(options.secret, key, expires, fileName, signature))
      return refuse(403, 'The download link is not valid');
    if (expires * 1000 < now()) return refuse(403, 'The download link has expired: ask GET /exports/{id} for a fresh one');
    const path = join(options.directory, key);
    stat(path)
      .then((file) => {
        response.writeHead(200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Length': String(file.size),
          'Content-Disposition': attachment(fileName),
          'Cache-Control': 'no-store',
        });
        createReadStream(path).pipe(response);
        options.log?.(`GET ${LOCAL_DOWNLOAD_PATH}/… 200 (download)`);
      })
      .catch(() => refuse(404, 'The file is not there (files are kept 7 days)'));
  };
  return (request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    if (url.pathname.startsWith(`${LOCAL_DOWNLOAD_PATH}/`)) return download(request, response, url);
    if (!url.pathname.startsWith(`${LOCAL_UPLOAD_PATH}/`)) return next(request, response);
    if (request.method !== 'PUT') return answer(request, response, 405, 'Only PUT uploads a file here');
    const key = decodeURIComponent(url.pathname.slice(LOCAL_UPLOAD_PATH.length + 1));
    const match = KEY.exec(key);
    const expires = Number(url.searchParams.get('expires'));
    const size = Number(url.searchParams.get('size'));
    const signature = url.searchParams.get('signature') ?? '';
    if (!match || !Number.isSafeInteger(expires) || !Number.isSafeInteger(size) || !localUploadSigned(options.secret, key, expires, size, signature)) {
      request.resume();
      return answer(request, response, 403, 'The upload link is not valid');
    }
    if (expires * 1000 < now()) {
      request.resume();
      return answer(request, response, 403, 'The upload link has expired: start the import again');
    }
    const ref = { tenantId: match[1] as string, id: match[2] as string };
    const chunks: Buffer[] = [];
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= size) chunks.push(chunk);
    });
    request.on('end', () => {
      if (received !== size)
        return answer(request, response, 403, `The file must be exactly ${size} bytes, the size given to POST /imports; it was ${received}`);
      const path = join(options.directory, key);
      const partial = `${path}.partial`;
      (options.refusal?.(ref) ?? Promise.resolve(null))
        .then((refused) => {
          if (refused !== null) throw new RefusedUpload(refused);
          return mkdir(dirname(path), { recursive: true });
        })
        .then(() => writeFile(partial, Buffer.concat(chunks)))
        .then(() => rename(partial, path))
        .then(() => {
          answer(request, response, 200, '');
          options.onUploaded(ref);
        })
        .catch((error: unknown) => {
          if (error instanceof RefusedUpload) return answer(request, response, 403, error.message);
          answer(request, response, 500, error instanceof Error ? error.message : String(error));
        });
    });
  };
}
