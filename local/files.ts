import { createReadStream } from 'node:fs';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { dirname, join, normalize } from 'node:path';
import { LOCAL_FILES_PATH, linkSigned } from '../lib/background/folder-files';

/**
 * npm start's stand-in for the bucket's presigned links (lib/background/folder-files.ts signs
 * them), on the API's own origin: `GET /local-files/<key>` downloads a file, `PUT
 * /local-files/<key>` uploads one. As S3 does, it refuses (403) a link whose signature or
 * expiry does not hold, and an upload whose body is not exactly the size signed. An upload is
 * then offered to `accepts` (an import's file is refused when its job failed meanwhile:
 * deployed, the worker ignores such a file, since a presigned link cannot be revoked), kept
 * under `directory`, answered 200, and handed to `onUploaded`, as the bucket's notification
 * does deployed. A download is answered with the type and attachment name its link signed, or
 * the type its extension says.
 */

export interface LocalFilesOptions {
  secret: string;
  directory: string;
  now?: () => number;
  /** Null when an upload to `key` is taken; otherwise why not. */
  accepts: (key: string) => Promise<string | null>;
  onUploaded: (key: string) => void;
  log?: (line: string) => void;
}

/** A key as the features make them: a folder of their own, then the tenant's id, then names. */
const KEY = /^[a-z-]+\/[0-9a-f-]{36}\/[A-Za-z0-9./-]+$/;
const validKey = (key: string) => KEY.test(key) && normalize(key) === key && !key.includes('..');

const CONTENT_TYPES: [RegExp, string][] = [
  [/\.csv$/, 'text/csv; charset=utf-8'],
  [/\.ndjson$/, 'application/x-ndjson'],
  [/\.json$/, 'application/json'],
];

/** A file the feature no longer takes: 403 with the reason, nothing kept. */
class RefusedUpload extends Error {}

export function withLocalFiles(next: RequestListener, options: LocalFilesOptions): RequestListener {
  const now = options.now ?? Date.now;
  const answer = (request: IncomingMessage, response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
    options.log?.(`${request.method} ${LOCAL_FILES_PATH}/… ${status}`);
  };

  const download = (request: IncomingMessage, response: ServerResponse, key: string, url: URL, expires: number, signature: string) => {
    const name = url.searchParams.get('name') ?? '';
    const type = url.searchParams.get('type') ?? '';
    if (!linkSigned(options.secret, key, expires, { method: 'GET', name, type }, signature))
      return answer(request, response, 403, 'The download link is not valid');
    if (expires * 1000 < now()) return answer(request, response, 403, 'The download link has expired: ask the API for a new one');
    const path = join(options.directory, key);
    stat(path)
      .then((file) => {
        response.writeHead(200, {
          'Content-Type': type || (CONTENT_TYPES.find(([pattern]) => pattern.test(key))?.[1] ?? 'text/plain; charset=utf-8'),
          'Content-Length': String(file.size),
          ...(name ? { 'Content-Disposition': `attachment; filename="${name}"` } : {}),
          'Cache-Control': 'no-store',
        });
        createReadStream(path).pipe(response);
        options.log?.(`GET ${LOCAL_FILES_PATH}/… 200`);
      })
      .catch(() => answer(request, response, 404, 'The file is not there (files are kept 7 days)'));
  };

  const upload = (request: IncomingMessage, response: ServerResponse, key: string, url: URL, expires: number, signature: string) => {
    const size = Number(url.searchParams.get('size'));
    if (!Number.isSafeInteger(size) || !linkSigned(options.secret, key, expires, { method: 'PUT', size }, signature)) {
      request.resume();
      return answer(request, response, 403, 'The upload link is not valid');
    }
    if (expires * 1000 < now()) {
      request.resume();
      return answer(request, response, 403, 'The upload link has expired: start the import again');
    }
    const chunks: Buffer[] = [];
    let received = 0;
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= size) chunks.push(chunk);
    });
    request.on('end', () => {
      if (received !== size)
        return answer(request, response, 403, `The file must be exactly ${size} bytes, the size the link was made for; it was ${received}`);
      const path = join(options.directory, key);
      const partial = `${path}.partial`;
      options
        .accepts(key)
        .then((refused) => {
          if (refused !== null) throw new RefusedUpload(refused);
          return mkdir(dirname(path), { recursive: true });
        })
        .then(() => writeFile(partial, Buffer.concat(chunks)))
        .then(() => rename(partial, path))
        .then(() => {
          answer(request, response, 200, '');
          options.onUploaded(key);
        })
        .catch((error: unknown) => {
          if (error instanceof RefusedUpload) return answer(request, response, 403, error.message);
          answer(request, response, 500, error instanceof Error ? error.message : String(error));
        });
    });
  };

  return (request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    if (!url.pathname.startsWith(`${LOCAL_FILES_PATH}/`)) return next(request, response);
    if (request.method !== 'GET' && request.method !== 'PUT') return answer(request, response, 405, 'Only GET and PUT, at the links the API gives');
    const key = decodeURIComponent(url.pathname.slice(LOCAL_FILES_PATH.length + 1));
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature') ?? '';
    if (!validKey(key) || !Number.isSafeInteger(expires)) {
      request.resume();
      return answer(request, response, 403, request.method === 'GET' ? 'The download link is not valid' : 'The upload link is not valid');
    }
    return request.method === 'GET' ? download(request, response, key, url, expires, signature) : upload(request, response, key, url, expires, signature);
  };
}
