import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument } from '../tools/openapi/document';
import type { OpenApiDocument } from '../tools/openapi/types';
import { acceptRequest, gatewayErrorResponse } from './gateway';

/**
 * The API's documentation beside the local API (`npm start`):
 *
 * - GET /openapi.json: the OpenAPI document (tools/openapi) with this server, at the origin it
 *   was fetched from, as its only server, so the reference page's "Try it out" calls it;
 * - GET /docs: a reference page rendered by Swagger UI from the `swagger-ui-dist` package's
 *   own files, served from node_modules: no CDN, no network.
 *
 * Everything else goes to the API (`next`), and so does any request the gateway's front end
 * refuses (too long, too large, malformed: it answers those with problem documents). A file
 * under /docs/ that is not the renderer's is the gateway's 404 problem. Deployed stages do not
 * serve these: the document is published from `npm run openapi`.
 */

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/** The renderer's files the page loads; nothing else under /docs/ is served. */
const RENDERER_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Back-office API reference</title>
    <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/init.js"></script>
  </body>
</html>
`;

/** Swagger UI's start-up, a file of its own so the page's CSP needs no inline script. */
const INIT = `window.ui = SwaggerUIBundle({
  url: '${OPENAPI_PATH}',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // The validator badge would send the document to an outside service.
  validatorUrl: null,
  // "Try it out" sends the session cookies, as a browser client does.
  withCredentials: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** The page may load only this server's files; Swagger UI styles some elements inline. */
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A Host header fit to become a server URL (the emulator only listens on loopback). */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

export interface DocsOptions {
  /** One line per request served (method, path, status). */
  log?: (line: string) => void;
  /** The API's allowed origins: its problem documents grant CORS to the first, as the gateway's do. */
  allowedOrigins?: readonly string[];
}

/** Wraps the API's request listener: the documentation routes first, then the API. */
export function withDocs(next: RequestListener, options: DocsOptions = {}): RequestListener {
  const log = options.log ?? (() => undefined);
  const rendererDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, Promise<Buffer>>();
  let document: OpenApiDocument | undefined;

  const send = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    type: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
    response.end(body);
    log(`${request.method} ${request.url} ${status} (docs)`);
  };

  /** An error as the gateway answers it: a problem document with its headers. */
  const sendProblem = (request: IncomingMessage, response: ServerResponse, type: 'MISSING_AUTHENTICATION_TOKEN' | 'DEFAULT_5XX') => {
    const { status, headers, body } = gatewayErrorResponse(type, randomUUID(), options.allowedOrigins ?? []);
    const { 'Content-Type': contentType = '', ...rest } = headers;
    send(request, response, status, contentType, body, rest);
  };

  const serveDocument = (request: IncomingMessage, response: ServerResponse) => {
    document ??= buildOpenApiDocument();
    // The origin the document was fetched from, whatever port `npm start` listens on: the one
    // server a reader of this copy can call. Without a usable Host, the document's own list.
    const host = request.headers.host;
    const servers = host && HOST.test(host) ? [{ url: `http://${host}`, description: 'This server (`npm start`)' }] : document.servers;
    send(request, response, 200, 'application/json; charset=utf-8', JSON.stringify({ ...document, servers }, null, 2));
  };

  const serveRendererFile = async (request: IncomingMessage, response: ServerResponse, name: string) => {
    // Own entries only: `/docs/constructor` is not a renderer file.
    const type = Object.hasOwn(RENDERER_FILES, name) ? RENDERER_FILES[name] : undefined;
    if (!type) {
      sendProblem(request, response, 'MISSING_AUTHENTICATION_TOKEN');
      return;
    }
    let content = files.get(name);
    if (!content) {
      content = readFile(join(rendererDir, name));
      files.set(name, content);
    }
    send(request, response, 200, type, await content);
  };

  return (request, response) => {
    const accepted = acceptRequest(request);
    const path = 'refused' in accepted ? undefined : accepted.url.pathname;
    if (request.method !== 'GET' || path === undefined || (path !== OPENAPI_PATH && path !== DOCS_PATH && !path.startsWith(`${DOCS_PATH}/`))) {
      next(request, response);
      return;
    }
    const failed = (error: unknown) => {
      console.error('[docs] cannot serve', path, error);
      if (!response.headersSent) sendProblem(request, response, 'DEFAULT_5XX');
    };
    try {
      if (path === OPENAPI_PATH) return serveDocument(request, response);
      if (path === DOCS_PATH || path === `${DOCS_PATH}/`) {
        return send(request, response, 200, 'text/html; charset=utf-8', PAGE, { 'Content-Security-Policy': PAGE_CSP });
      }
      const name = path.slice(DOCS_PATH.length + 1);
      if (name === 'init.js') return send(request, response, 200, 'text/javascript; charset=utf-8', INIT);
      serveRendererFile(request, response, name).catch(failed);
    } catch (error) {
      // A listener that throws would take the whole server down.
      failed(error);
    }
  };
}
