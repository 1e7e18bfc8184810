import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { describe, expect, inject, it } from 'vitest';
import { API_KEY_PATTERN } from '../../lib/api-keys/format';
import { createContractValidator } from '../../tools/openapi/contract';
import { playPointOfSale, type PointOfSaleSummary } from '../../scripts/point-of-sale';
import { apiUrl, call, newTenantWithAdmin, type Account, type ApiResponse } from './api';

/**
 * `npm run pos` (scripts/point-of-sale.ts) against the shared local API, the server `npm
 * start` runs (tools/local-api.ts starts local/start.ts): a point of sale that makes an API
 * key with an administrator's session and then feeds the inventory with the key alone.
 *
 * The runs log in as an administrator the test made (newTenantWithAdmin, from a random
 * loopback address) instead of signing up: the script calls from 127.0.0.1, whose sign-ups
 * (10 an hour) the walkthrough's test uses up on purpose.
 */

/** The shared API runs 100 test files on 2 cores: a run of 100 sales may take a while. */
const RUN_TIMEOUT_MS = 240_000;

/** The address a fetch call names. */
const requestUrl = (input: Parameters<typeof fetch>[0]): string => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** Node's fetch, every real answer checked against the OpenAPI document as `call` checks its own. */
function contractCheckedFetch(): typeof fetch {
  const contract = createContractValidator(inject('openApiDocument'));
  return async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    const url = new URL(requestUrl(input));
    const violation = contract.check({
      method: init?.method ?? 'GET',
      path: url.pathname,
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: text ? JSON.parse(text) : undefined,
    });
    if (violation) throw new Error(`Contract violation: ${violation}`);
    return response;
  };
}

const administrator = (account: Account) => ({ email: account.email, password: account.password });

/** The SALE movements of a warehouse, read independently of the script, with the administrator's session. */
async function salesInWarehouse(account: Account, warehouseId: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const query: URLSearchParams = new URLSearchParams({ warehouseId, type: 'SALE', limit: '100', ...(cursor ? { cursor } : {}) });
    const page: ApiResponse<{ items: unknown[]; nextCursor: string | null }> = await call('GET', `/inventory/movements?${query.toString()}`, {
      cookies: account.cookies,
    });
    expect(page.status).toBe(200);
    count += page.body.items.length;
    cursor = page.body.nextCursor;
  } while (cursor);
  return count;
}

function expectExactBooks(summary: PointOfSaleSummary): void {
  expect(summary.mismatches).toEqual([]);
  expect(summary.ok).toBe(true);
  expect(summary.coverageListsProducts).toBe(true);
  expect(summary.products).toHaveLength(3);
  for (const product of summary.products) {
    expect(product.lastAnswerBalance).toBe(product.expected);
    expect(product.historyBalance).toBe(product.expected);
    expect(product.historySales).toBe(product.sales);
    expect(product.coverage).not.toBeNull();
  }
}

describe('npm run pos', () => {
  it(
    'records 100 sales with an API key, answers the deliberate replays as replays, and keeps every balance exact',
    async () => {
      const account = await newTenantWithAdmin();
      const summary = await playPointOfSale({ baseUrl: apiUrl(), admin: administrator(account), fetch: contractCheckedFetch() });

      expectExactBooks(summary);
      expect(summary.tenantId).toBe(account.tenantId);
      expect(summary.administrator).toEqual({ email: account.email, how: 'logged in' });
      expect(summary.sales).toEqual({ recorded: 100, requests: 100, recoveredByReplay: 0 });
      expect(summary.replays).toEqual({ sent: 5, answeredAsReplay: 5, sameBody: 5 });
      expect(summary.retries).toEqual({ network: 0, rateLimited: 0, serverError: 0, keyInUse: 0 });
      expect(summary.products.reduce((total, product) => total + product.sales, 0)).toBe(100);
      // Stocked in minus sold, to the gram: 155.375 − 43.625 (34 sales) and so on.
      expect(summary.products.map((product) => [product.stockedIn, product.sold, product.expected])).toEqual([
        ['155.375', '43.625', '111.75'],
        ['170.5', '40.25', '130.25'],
        ['160.25', '41.625', '118.625'],
      ]);
      // The dashboard shows 2 decimals, rounded half to even: 118.625 is 118.62.
      expect(summary.products.map((product) => product.coverage)).toEqual(['111.75', '130.25', '118.62']);
      expect(summary.key).toEqual(
        expect.objectContaining({
          environment: 'test',
          scopes: { inventory: 'write', dashboards: 'read' },
          rateLimitPolicy: '"api-key";q=600;w=60',
          revoked: true,
          statusAfterRevocation: 401,
        }),
      );
      expect(summary.key.lastRateLimit).toMatch(/^"api-key";r=\d+;t=\d+$/);

      // Independently of the script: the warehouse holds exactly 100 sales, and the key is gone.
      expect(await salesInWarehouse(account, summary.warehouseId)).toBe(100);
      const keys = await call<{ id: string }[]>('GET', '/api-keys', { cookies: account.cookies });
      expect(keys.status).toBe(200);
      expect(keys.body.map((key) => key.id)).not.toContain(summary.key.id);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'retries a lost answer, a 503 and a 429 with the same Idempotency-Key, and records each sale once',
    async () => {
      const account = await newTenantWithAdmin();
      // Faults on the first attempt of some sales: the sale recorded but its answer lost (3),
      // a 503 and a 429 (Retry-After: 1) that never reached the API; and a GET that fails on the network.
      const attempts = new Map<string, number>();
      let sales = 0;
      let failedGet = false;
      const faults = { lost: 0, unavailable: 0, limited: 0 };
      const real = contractCheckedFetch();
      const faulty: typeof fetch = async (input, init) => {
        const url = new URL(requestUrl(input));
        const headers = new Headers(init?.headers);
        const key = headers.get('idempotency-key');
        const isSale =
          init?.method === 'POST' && url.pathname === '/inventory/movements' && typeof init.body === 'string' && init.body.includes('"type":"SALE"');
        if (isSale && key !== null) {
          const attempt = (attempts.get(key) ?? 0) + 1;
          attempts.set(key, attempt);
          if (attempt === 1) {
            sales += 1;
            if (sales % 10 === 4) {
              await real(input, init);
              faults.lost += 1;
              throw new TypeError('fetch failed', { cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) });
            }
            if (sales === 7) {
              faults.unavailable += 1;
              return new Response(JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 }), {
                status: 503,
                headers: { 'content-type': 'application/problem+json' },
              });
            }
            if (sales === 19) {
              faults.limited += 1;
              return new Response(JSON.stringify({ type: 'about:blank', title: 'Too Many Requests', status: 429 }), {
                status: 429,
                headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
              });
            }
          }
        }
        if (init?.method === 'GET' && url.pathname === '/inventory/dashboard/coverage' && !failedGet) {
          failedGet = true;
          throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
        }
        return real(input, init);
      };

      const summary = await playPointOfSale({ baseUrl: apiUrl(), admin: administrator(account), sales: 30, replays: 2, fetch: faulty });

      expectExactBooks(summary);
      expect(faults).toEqual({ lost: 3, unavailable: 1, limited: 1 });
      // Each lost answer came back as a replay of the recorded sale, never as a second sale.
      expect(summary.sales).toEqual({ recorded: 30, requests: 35, recoveredByReplay: 3 });
      expect(summary.retries).toEqual({ network: 4, rateLimited: 1, serverError: 1, keyInUse: 0 });
      expect(summary.replays).toEqual({ sent: 2, answeredAsReplay: 2, sameBody: 2 });
      expect(await salesInWarehouse(account, summary.warehouseId)).toBe(30);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'runs as a command, printing the summary, and exits 0',
    async () => {
      const account = await newTenantWithAdmin();
      const run = await command(['--url', apiUrl(), '--sales', '6'], { POS_ADMIN_EMAIL: account.email, POS_ADMIN_PASSWORD: account.password });
      const shown = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
      expect(run.code, shown).toBe(0);
      expect(run.stdout, shown).toContain(`Point of sale against ${apiUrl()}`);
      expect(run.stdout, shown).toContain(`administrator ${account.email} logged in (tenant ${account.tenantId})`);
      expect(run.stdout, shown).toMatch(/^Sales: 6 recorded in 6 requests \(0 retried; 0 recovered by a replay\)$/m);
      expect(run.stdout, shown).toMatch(/^Replays: 5 recorded sales sent again, 5 answered Idempotent-Replayed: true, 5 with the same body$/m);
      expect(run.stdout, shown).toContain('Key revoked; its next request was answered 401.');
      expect(run.stdout, shown).toContain('Every balance is exact');
      // The key is printed by its prefix only, never whole.
      expect(run.stdout).not.toMatch(/bo_test_[0-9A-Za-z]{30}_[0-9A-Za-z]{49}/);
    },
    RUN_TIMEOUT_MS,
  );

  it('is documented with the key pattern secret scanners need, exactly as the API makes keys', () => {
    const guide = readFileSync('docs/integrating-a-point-of-sale.md', 'utf8');
    expect(guide).toContain(`\n${API_KEY_PATTERN}\n`);
    expect(guide).toContain(`regex = '''${API_KEY_PATTERN}'''`);
  });

  it(
    'says there is no API, and exits 1, where nothing listens',
    async () => {
      const baseUrl = `http://127.0.0.1:${await closedPort()}`;
      const run = await command(['--url', baseUrl, '--email', 'nobody@example.com', '--password', 'irrelevant'], {});
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
      expect(run.stderr).toMatch(new RegExp(`^No API at ${baseUrl.replace(/[.]/g, '\\.')}: start it with npm start`, 'm'));
      expect(run.stderr).not.toContain('TypeError');
    },
    RUN_TIMEOUT_MS,
  );
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run pos -- <args>` as a person runs it: a child process (tsx), on the tests' data folder. */
function command(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/point-of-sale.ts', ...args], {
      env: { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm run pos did not end within ${RUN_TIMEOUT_MS / 1000} s:\n${stdout}\n${stderr}`));
    }, RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
