import { spawn } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CONSOLE_HEADERS } from '../console/headers';

/**
 * The console beside the local API (`npm start`): GET /console/ and every page under it get
 * the built app's index.html (its routes are client-side), /console/assets/* the hashed files
 * Vite wrote, immutable. Same origin as the API, so the SameSite=Strict cookies travel; the
 * headers are the ones CloudFront sends (console/headers.ts).
 *
 * The build (console/dist) is made at start when it is missing or older than a source file
 * (console/, clients/typescript/src): about a second with Vite, while DynamoDB Local starts.
 * Requests that arrive before it ends wait for it. `npm run console:dev` is the hot-reload way.
 */

export const CONSOLE_PATH = '/console';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONSOLE_DIR = join(ROOT, 'console');
const DIST = join(CONSOLE_DIR, 'dist');
const SOURCES = [
  join(CONSOLE_DIR, 'src'),
  join(CONSOLE_DIR, 'index.html'),
  join(CONSOLE_DIR, 'vite.config.ts'),
  join(CONSOLE_DIR, 'headers.ts'),
  join(CONSOLE_DIR, 'package.json'),
  join(ROOT, 'clients', 'typescript', 'src'),
];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

function newestSourceTime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((entry) => newestSourceTime(join(path, entry))));
}

/** Whether console/dist is missing or older than its sources. */
export function consoleBuildIsStale(): boolean {
  const index = join(DIST, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestSourceTime(source) > built);
}

/** Runs `vite build` in console/ (Vite's own script, with this Node). */
export function buildConsole(log: (line: string) => void): Promise<void> {
  const vite = join(dirname(createRequire(join(CONSOLE_DIR, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  const started = Date.now();
  return new Promise((resolveBuild, reject) => {
    // A production build whatever the caller's NODE_ENV (vitest sets `test`, which would ship React's development build).
    // Built aside, then moved into place: two npm starts of one checkout (parallel test files)
    // never serve a folder the other is emptying.
    const aside = join(CONSOLE_DIR, `.dist-${process.pid}`);
    const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'error', '--outDir', aside, '--emptyOutDir'], {
      cwd: CONSOLE_DIR,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) {
        rmSync(DIST, { recursive: true, force: true });
        try {
          renameSync(aside, DIST);
        } catch {
          // Another start moved its identical build in first.
          rmSync(aside, { recursive: true, force: true });
        }
        log(`Console built in ${((Date.now() - started) / 1000).toFixed(1)} s (console/dist)`);
        resolveBuild();
      } else {
        rmSync(aside, { recursive: true, force: true });
        reject(new Error(`the console's build failed (exit ${code}):\n${output}`));
      }
    });
  });
}

export interface ConsoleOptions {
  /** Resolves when console/dist is ready to serve (the build started at start-up, if one was needed). */
  ready: Promise<void>;
  log?: (line: string) => void;
}

interface ServedFile {
  body: Buffer;
  gzipped: Buffer | undefined;
  type: string;
}

/** Wraps the API's request listener: /console and everything under it first, then the rest. */
export function withConsole(next: RequestListener, options: ConsoleOptions): RequestListener {
  const log = options.log ?? (() => undefined);
  const cache = new Map<string, Promise<ServedFile | undefined>>();
  let ready = false;
  options.ready.then(
    () => (ready = true),
    () => undefined,
  );

  const load = (path: string): Promise<ServedFile | undefined> => {
    let file = cache.get(path);
    if (!file) {
      file = readFile(path).then(
        (body) => {
          const type = TYPES[extname(path)] ?? 'application/octet-stream';
          const compressible = type.startsWith('text/') || type.startsWith('application/json') || type === 'image/svg+xml';
          return { body, type, gzipped: compressible && body.length > 1024 ? gzipSync(body) : undefined };
        },
        () => undefined,
      );
      cache.set(path, file);
    }
    return file;
  };

  const send = (request: IncomingMessage, response: ServerResponse, status: number, file: ServedFile, cacheControl: string) => {
    const gzip = file.gzipped !== undefined && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const body = gzip && file.gzipped ? file.gzipped : file.body;
    response.writeHead(status, {
      ...CONSOLE_HEADERS,
      'Content-Type': file.type,
      'Content-Length': String(body.length),
      'Cache-Control': cacheControl,
      Vary: 'Accept-Encoding',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
    log(`${request.method} ${request.url} ${status} (console)`);
  };

  const sendText = (request: IncomingMessage, response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { ...CONSOLE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
    response.end(request.method === 'HEAD' ? undefined : text);
    log(`${request.method} ${request.url} ${status} (console)`);
  };

  const serve = async (request: IncomingMessage, response: ServerResponse, path: string) => {
    try {
      await options.ready;
    } catch (error) {
      sendText(request, response, 503, `The console could not be built: ${(error as Error).message}\nRun npm run console:build to see why.`, {
        'Retry-After': '5',
      });
      return;
    }
    if (path.startsWith(`${CONSOLE_PATH}/assets/`)) {
      // Hashed names: a file never changes under its name, so browsers keep it a year.
      let name: string;
      try {
        name = decodeURIComponent(path.slice(CONSOLE_PATH.length + 1));
      } catch {
        return sendText(request, response, 404, 'No such file in the console.');
      }
      const file = normalize(join(DIST, name));
      const served = file.startsWith(join(DIST, 'assets') + sep) ? await load(file) : undefined;
      if (!served) return sendText(request, response, 404, 'No such file in the console.');
      return send(request, response, 200, served, 'public, max-age=31536000, immutable');
    }
    // Any other path is a page of the app: index.html, revalidated on every visit.
    const index = await load(join(DIST, 'index.html'));
    if (!index) return sendText(request, response, 503, 'The console is not built: npm run console:build', { 'Retry-After': '5' });
    send(request, response, 200, index, 'no-cache');
  };

  return (request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) {
      next(request, response);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendText(request, response, 405, 'The console serves GET and HEAD only.', { Allow: 'GET, HEAD' });
      return;
    }
    if (path === CONSOLE_PATH) {
      response.writeHead(308, { Location: `${CONSOLE_PATH}/${(request.url ?? '').slice(path.length)}`, 'Cache-Control': 'no-store' });
      response.end();
      return;
    }
    if (!ready) log(`${request.method} ${request.url} waits for the console's build`);
    serve(request, response, path).catch((error: unknown) => {
      console.error('[console] cannot serve', path, error);
      if (!response.headersSent) sendText(request, response, 500, 'The console could not serve this file.');
    });
  };
}
