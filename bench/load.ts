/**
 * End to end through the local API Gateway emulator with autocannon: an authenticated
 * GET /companies, and a mixed scenario (reads, a supplier page, the stock dashboard, a stock movement), each
 * with 50 connections for 20 s. Requests per second, p50, p99 and the non-2xx count
 * (target 0). The emulator runs every handler in one Node process, so these figures are the
 * laptop's, not Lambda's (which scales out per request).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cnpj } from 'cpf-cnpj-validator';
import { startLocalApi } from '../tools/local-api';
import { signUp } from './support/sign-up';

export interface LoadFigure {
  scenario: string;
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** The first non-2xx answer, to see what went wrong. */
  firstFailure: string | null;
  met: boolean;
}

const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);

async function post(url: string, path: string, body: unknown, cookie?: string): Promise<{ status: number; json: Record<string, unknown>; cookies: string[] }> {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown>, cookies: response.headers.getSetCookie() };
}

async function load(title: string, url: string, requests: autocannon.Request[], headers: Record<string, string>): Promise<LoadFigure> {
  let firstFailure: string | null = null;
  const watched = requests.map((request) => ({
    ...request,
    onResponse: (status: number, body: string) => {
      if ((status < 200 || status > 299) && firstFailure === null) firstFailure = `${request.method} ${request.path} ${status} ${body.slice(0, 300)}`;
    },
  }));
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers, requests: watched });
  return {
    scenario: title,
    connections: CONNECTIONS,
    seconds: SECONDS,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats as Record<string, { count: number }>).map(([code, stats]) => [code, stats.count])),
    firstFailure,
    met: result.non2xx === 0 && result.errors === 0 && result.timeouts === 0,
  };
}

export async function runLoadBench(log: (line: string) => void): Promise<LoadFigure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-load-'));
  const api = await startLocalApi({ dataDir, inMemory: true, allowedOrigins: 'https://app.example.com' });
  try {
    // Accounts open through the sign-up's e-mailed invitation, read from the local outbox.
    const { cookie } = await signUp(api.url, dataDir, { tenantName: 'load-test', name: 'Load', email: 'load@bench.example', password: 'load password 123' });
    for (let index = 0; index < 20; index += 1) {
      await post(api.url, '/companies', { name: `Company ${index}`, document: cnpj.generate() }, cookie);
      await post(api.url, '/suppliers', { name: `Fornecedor São ${index}`, corporateName: `Fornecedor ${index} Ltda`, document: cnpj.generate() }, cookie);
    }
    const warehouse = await post(api.url, '/inventory/warehouses', { name: 'Load' }, cookie);
    // Movements spread over 10 products, as a shop's day would be (one hot item is the worst case).
    const products: string[] = [];
    for (let index = 0; index < 10; index += 1)
      products.push(String((await post(api.url, '/inventory/products', { sku: `LOAD-${index}`, name: `Load product ${index}` }, cookie)).json.id));
    let next = 0;
    const movement = () =>
      JSON.stringify({ productId: products[next++ % products.length], warehouseId: warehouse.json.id, type: 'IN', quantity: 1, unitCost: 2 });

    log(`load: GET /companies, ${CONNECTIONS} connections, ${SECONDS} s ...`);
    const reads = await load('authenticated GET /companies', api.url, [{ method: 'GET', path: '/companies' }], { cookie });
    log(`load: mixed scenario, ${CONNECTIONS} connections, ${SECONDS} s ...`);
    const mixed = await load(
      'mixed: companies, a supplier page, stock by warehouse, a movement',
      api.url,
      [
        // Supplier searches and coverage reads the daily index does not serve are limited per
        // user (30 a minute, 60 an hour): one user's load at full speed would measure the 429s.
        // Their cost per request is the routes bench's.
        { method: 'GET', path: '/companies' },
        { method: 'GET', path: '/suppliers?page=2&limit=10' },
        { method: 'GET', path: '/inventory/dashboard/by-warehouse' },
        {
          method: 'POST',
          path: '/inventory/movements',
          headers: { 'content-type': 'application/json', cookie },
          setupRequest: (request) => ({ ...request, body: movement() }),
        },
      ],
      { cookie },
    );
    return [reads, mixed];
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One bcrypt hash at the configured cost, median of 10 (what login, register and reset pay). */
export async function runBcryptBench(): Promise<{ cost: number; medianMs: number }> {
  const { hashPassword } = await import('../lib/auth/passwords');
  const { storeConfig } = await import('../lib/config');
  const cost = storeConfig().BCRYPT_COST;
  const times: number[] = [];
  for (let index = 0; index < 10; index += 1) {
    const start = performance.now();
    const hashed = await hashPassword(`password ${index}`);
    times.push(performance.now() - start);
    // The hash names the cost it was made at: a figure at another cost is not the one printed.
    const made = /^\$2[aby]\$(\d{2})\$/.exec(hashed)?.[1];
    if (Number(made) !== cost) throw new Error(`bcrypt: a hash was made at cost ${made ?? '(not a bcrypt hash)'}, not the configured ${cost}`);
  }
  times.sort((a, b) => a - b);
  return { cost, medianMs: Math.round((((times[4] as number) + (times[5] as number)) / 2) * 10) / 10 };
}
