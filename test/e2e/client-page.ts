import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The browser client the end-to-end test drives: one HTML page with an inline script, as a
 * real front end would call the API. `window.client.call()` sends every request with
 * `credentials: 'include'` and, when a request answers 401, calls POST /auth/refresh once
 * (one refresh at a time, shared by parallel callers) and retries; `client.probe()` sends
 * one bare request, as another page's script could. Each call is logged on the page, so the
 * screenshots show what happened.
 */

/** What `client.call()` hands back to the test (plain data, across `page.evaluate`). */
export type CallResult =
  | { ok: true; status: number; contentType: string | null; body: unknown; statuses: number[]; refresh: number | null }
  | { ok: false; error: string };

/**
 * The page's `window.client`, as `page.evaluate` callbacks see it through `globalThis` (the
 * project compiles without the DOM library, so there is no `window` type).
 */
export interface ClientGlobal {
  client: {
    call(method: string, path: string, body?: unknown): Promise<CallResult>;
    probe(method: string, path: string, body?: unknown): Promise<CallResult>;
    note(text: string): void;
    cookieText(): string;
  };
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
</head>
<body>
  <h1>${title}</h1>
  <p>Page origin: <code id="origin"></code> · API: <code>${apiBase}</code></p>
  <div id="log"></div>
  <script>
    const API = ${JSON.stringify(apiBase)};
    const NO_REFRESH = ['/auth/login', '/auth/register', '/auth/refresh', '/auth/mfa/verify'];
    let refreshing = null;

    document.getElementById('origin').textContent = location.origin;

    function show(text, className) {
      const line = document.createElement('pre');
      line.textContent = text;
      if (className) line.className = className;
      document.getElementById('log').append(line);
    }

    /** One refresh at a time: parallel 401s share it (the server lets one of several win). */
    function refreshOnce() {
      refreshing ??= fetch(API + '/auth/refresh', { method: 'POST', credentials: 'include' }).finally(() => { refreshing = null; });
      return refreshing;
    }

    /** fetch with the session cookies; on 401, refresh once and retry (unless told not to). */
    async function apiFetch(path, { method = 'GET', body, refreshOn401 = true } = {}) {
      const send = () => fetch(API + path, {
        method,
        credentials: 'include',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const statuses = [];
      let refresh = null;
      let response = await send();
      statuses.push(response.status);
      if (response.status === 401 && refreshOn401 && !NO_REFRESH.includes(path)) {
        const refreshed = await refreshOnce();
        refresh = refreshed.status;
        if (refreshed.ok) {
          response = await send();
          statuses.push(response.status);
        }
      }
      return { response, statuses, refresh };
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
      call(method, path, body) {
        return this.run(method, path, { method, body });
      },
      /** One bare request, no refresh: what another page's script could try. */
      probe(method, path, body) {
        return this.run(method, path, { method, body, refreshOn401: false });
      },
      async run(method, path, options) {
        try {
          const { response, statuses, refresh } = await apiFetch(path, options);
          const text = await response.text();
          const parsed = text ? JSON.parse(text) : undefined;
          const trail = statuses.join(' → ') + (refresh === null ? '' : ' (refresh ' + refresh + ')');
          show(method + ' ' + path + ': ' + trail + '\\n' + (text || '(no body)'), response.ok ? 'ok' : 'refused');
          return { ok: true, status: response.status, contentType: response.headers.get('content-type'), body: parsed, statuses, refresh };
        } catch (error) {
          show(method + ' ' + path + ': ' + error.name + ': ' + error.message, 'refused');
          return { ok: false, error: error.name + ': ' + error.message };
        }
      },
    };
  </script>
</body>
</html>
`;
}

/** A one-page HTTP server on 127.0.0.1; the page is set once the API's address is known. */
export interface PageServer {
  port: number;
  setPage(html: string): void;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  let html = '<!doctype html><title>not ready</title>';
  const server: Server = createServer((request, response) => {
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
