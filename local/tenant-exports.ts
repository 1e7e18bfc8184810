import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import { LOCAL_EXPORT_PATH, localDownloadSigned } from '../lib/tenant-jobs/files';

/**
 * npm start's stand-in for the presigned GET links of a tenant export
 * (GET /tenants/{id}/exports/{exportId}): `GET /local-tenant-exports/tenant-exports/<tenant>/<export>/<file>`
 * with the link's expiry and signature (lib/tenant-jobs/files.ts). As S3 does, it refuses a
 * link whose signature or expiry does not hold (403) and serves the file kept under `directory`.
 */

export interface TenantExportDownloadOptions {
  secret: string;
  directory: string;
  now?: () => number;
  log?: (line: string) => void;
}

const KEY = /^tenant-exports\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/[A-Za-z0-9.-]+$/;

const CONTENT_TYPES: [RegExp, string][] = [
  [/\.ndjson$/, 'application/x-ndjson'],
  [/\.json$/, 'application/json'],
];

export function withTenantExportDownloads(next: RequestListener, options: TenantExportDownloadOptions): RequestListener {
  const now = options.now ?? Date.now;
  const answer = (request: IncomingMessage, response: ServerResponse, status: number, text: string) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(text);
    options.log?.(`${request.method} ${LOCAL_EXPORT_PATH}/… ${status} (tenant export)`);
  };
  return (request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    if (!url.pathname.startsWith(`${LOCAL_EXPORT_PATH}/`)) return next(request, response);
    if (request.method !== 'GET') return answer(request, response, 405, 'Only GET downloads a file here');
    const key = decodeURIComponent(url.pathname.slice(LOCAL_EXPORT_PATH.length + 1));
    const expires = Number(url.searchParams.get('expires'));
    const signature = url.searchParams.get('signature') ?? '';
    if (!KEY.test(key) || normalize(key) !== key || !Number.isSafeInteger(expires) || !localDownloadSigned(options.secret, key, expires, signature)) {
      return answer(request, response, 403, 'The download link is not valid');
    }
    if (expires * 1000 < now()) return answer(request, response, 403, 'The download link has expired: ask GET /tenants/{id}/exports/{exportId} for a new one');
    const path = join(options.directory, key);
    stat(path)
      .then((file) => {
        const type = CONTENT_TYPES.find(([pattern]) => pattern.test(key))?.[1] ?? 'text/plain; charset=utf-8';
        response.writeHead(200, { 'Content-Type': type, 'Content-Length': String(file.size), 'Cache-Control': 'no-store' });
        createReadStream(path).pipe(response);
        options.log?.(`GET ${LOCAL_EXPORT_PATH}/… 200 (tenant export)`);
      })
      .catch(() => answer(request, response, 404, 'No such file'));
  };
}
