import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { CallOptions } from './client-entry';

/**
 * The browser client the end-to-end test drives: one HTML page whose script is the typed
 * client (clients/typescript), bundled by esbuild from client-entry.ts, as a real front end
 * would ship it. `window.client.call()` goes through that client: the session cookies on
 * every request and, when a request answers 401, one shared POST /auth/refresh and a retry;
 * `client.probe()` sends one bare request, as another page's script could. Each call is
 * logged on the page, so the screenshots show what happened.
 */

/** What `client.call()` hands back to the test (plain data, across `page.evaluate`). */
export type CallResult =
  { ok: true; status: number; contentType: string | null; body: unknown; statuses: number[]; refresh: number | null } | { ok: false; error: string };

/**
 * The page's `window.client`, as `page.evaluate` callbacks see it through `globalThis` (the
 * project compiles without the DOM library, so there is no `window` type).
 */
export interface ClientGlobal {
  client: {
    call(method: string, path: string, body?: unknown, options?: CallOptions): Promise<CallResult>;
    probe(method: string, path: string, body?: unknown): Promise<CallResult>;
    /** Several calls at once; `trail` lists every request of the batch as `METHOD /path status[ key=<Idempotency-Key>]`, in the order answered. */
    parallel(calls: [method: string, path: string, body?: unknown, options?: CallOptions][]): Promise<{ results: CallResult[]; trail: string[] }>;
    /** How many times the client's `onSessionExpired` ran on this page. */
    expiredSessions(): number;
    note(text: string): void;
    cookieText(): string;
  };
}

/** The page's client script: the typed client and client-entry.ts, bundled for the browser. */
export async function bundleClient(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('client-entry.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild wrote no bundle for the client page');
  return file.text;
}

export function clientPage(apiBase: string, title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${title}</title>
  <style>
    body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; }
    h1 { font-size: 18px; } h2 { font-size: 15px; margin: 16px 0 4px; }
    pre { background: #f4f4f4; padding: 8px; white-space: pre-wrap; word-break: break-all; }
    .refused { color: #a00; } .ok { color: #070; }
  </style>
  <script>window.API_BASE = ${JSON.stringify(apiBase)};</script>
  <script src="/client.js"></script>
</head>
<body>
  <h1>${title}</h1>
  <p>Page origin: <code id="origin"></code> · API: <code>${apiBase}</code> · client: <code>@backoffice/client</code></p>
  <div id="log"></div>
  <script>
    document.getElementById('origin').textContent = location.origin;

    function show(text, className) {
      const line = document.createElement('pre');
      line.textContent = text;
      if (className) line.className = className;
      document.getElementById('log').append(line);
    }

    function logged(method, path, result) {
      if (!result.ok) {
        show(method + ' ' + path + ': ' + result.error, 'refused');
      } else {
        const trail = result.statuses.join(' → ') + (result.refresh === null ? '' : ' (refresh ' + result.refresh + ')');
        const text = result.body === undefined ? '(no body)' : JSON.stringify(result.body);
        show(method + ' ' + path + ': ' + trail + '\\n' + text, result.status < 400 ? 'ok' : 'refused');
      }
      return result;
    }

    window.client = {
      note(text) {
        const heading = document.createElement('h2');
        heading.textContent = text;
        document.getElementById('log').append(heading);
      },
      cookieText() {
        show('document.cookie = ' + JSON.stringify(document.cookie));
        return document.cookie;
      },
      /** A request as the application makes it: refresh on 401 and retry. */
      async call(method, path, body, options) {
        return logged(method, path, await backoffice.call(method, path, body, options));
      },
      /** One bare request, no refresh: what another page's script could try. */
      async probe(method, path, body) {
        return logged(method, path, await backoffice.call(method, path, body, { probe: true }));
      },
      async parallel(calls) {
        const batch = await backoffice.parallel(calls);
        batch.results.forEach((result, index) => logged(calls[index][0], calls[index][1], result));
        show('in the order answered: ' + batch.trail.join(', '));
        return batch;
      },
      expiredSessions() {
        return backoffice.expiredSessions();
      },
    };
  </script>
</body>
</html>
`;
}

/** A one-page HTTP server on 127.0.0.1 (and the page's client script); the page is set once the API's address is known. */
export interface PageServer {
  port: number;
  setPage(html: string): void;
  close(): Promise<void>;
}

export async function startPageServer(clientScript: string): Promise<PageServer> {
  let html = '<!doctype html><title>not ready</title>';
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/client.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(clientScript);
      return;
    }
    // The same client at each of its pages: the start page, and the second-factor code page.
    if (request.method === 'GET' && ['/', '/index.html', '/code'].includes(request.url ?? '')) {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end(html);
      return;
    }
    response.writeHead(404, { 'Content-Type': 'text/plain' });
    response.end('Not found');
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  return {
    port: (server.address() as AddressInfo).port,
    setPage: (page) => {
      html = page;
    },
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
