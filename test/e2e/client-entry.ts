/**
 * The browser end of the end-to-end test: the typed client (clients/typescript) as a page's
 * script uses it. esbuild bundles this file for the page (client-page.ts); it puts
 * `globalThis.backoffice` on the page, which the page's own script (logging, notes) and the
 * test (through `page.evaluate`) call. Every request goes through a fetch that records what
 * the API answered, so the test sees each 401, refresh and retry.
 */
import createClient from 'openapi-fetch';
import { createBackofficeClient, idempotencyKey, type paths } from '../../clients/typescript/src/index';
import type { CallResult } from './client-page';

/** The API's base URL, which the page sets before loading this bundle. */
const apiBase = (globalThis as unknown as { API_BASE: string }).API_BASE;

/** One request the page sent and the status it got, in the order the answers came. */
interface Exchange {
  method: string;
  path: string;
  status: number;
  idempotencyKey: string | null;
}

let expiredSessions = 0;
/** The application's client: cookies, refresh on 401 and one retry. */
const client = createBackofficeClient({
  baseUrl: apiBase,
  onSessionExpired: () => {
    expiredSessions += 1;
  },
});
/** One bare request and no refresh: what another page's script could send. */
const bare = createClient<paths>({ baseUrl: apiBase, credentials: 'include' });

/** Calls made with paths and methods known only at run time (the test names them). */
type LooseRequest = (
  method: string,
  path: string,
  init: { body?: unknown; params?: { header?: Record<string, string> }; fetch: (request: Request) => Promise<Response> },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export interface CallOptions {
  /** Send a fresh Idempotency-Key (on the routes that take one). */
  idempotent?: boolean;
  /** One bare request, without the client's refresh on 401. */
  probe?: boolean;
}

async function call(
  method: string,
  path: string,
  body: unknown,
  { idempotent = false, probe = false }: CallOptions = {},
  trail: Exchange[] = [],
): Promise<CallResult> {
  const mine: Exchange[] = [];
  // Passed per call, this fetch is also the one the refresh middleware sends its refresh and
  // retry with: the refresh shows in the log of the call that started it.
  const recording = async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    const exchange = {
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      idempotencyKey: request.headers.get('Idempotency-Key'),
    };
    mine.push(exchange);
    trail.push(exchange);
    return response;
  };
  const send = (probe ? bare.request : client.request) as unknown as LooseRequest;
  try {
    const { data, error, response } = await send(method, path, {
      body,
      ...(idempotent ? { params: { header: idempotencyKey() } } : {}),
      fetch: recording,
    });
    const isRefresh = (exchange: Exchange) => exchange.path === '/auth/refresh' && path !== '/auth/refresh';
    return {
      ok: true,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: response.ok ? data : error,
      statuses: mine.filter((exchange) => !isRefresh(exchange)).map((exchange) => exchange.status),
      refresh: mine.find(isRefresh)?.status ?? null,
    };
  } catch (error) {
    const { name, message } = error as Error;
    return { ok: false, error: `${name}: ${message}` };
  }
}

/** Several calls at once; `trail` is every request of the batch, in the order answered (with its Idempotency-Key, if any). */
async function parallel(calls: [method: string, path: string, body?: unknown, options?: CallOptions][]): Promise<{ results: CallResult[]; trail: string[] }> {
  const trail: Exchange[] = [];
  const results = await Promise.all(calls.map(([method, path, body, options]) => call(method, path, body, options, trail)));
  return { results, trail: trail.map(({ method, path, status, idempotencyKey: key }) => `${method} ${path} ${status}${key === null ? '' : ` key=${key}`}`) };
}

export interface BackofficeGlobal {
  backoffice: { call: typeof call; parallel: typeof parallel; expiredSessions(): number };
}

(globalThis as unknown as BackofficeGlobal).backoffice = { call, parallel, expiredSessions: () => expiredSessions };
