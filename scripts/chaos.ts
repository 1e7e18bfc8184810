/**
 * `npm run chaos [-- --rates 0.05,0.2 --seconds 30 --connections 8 --seed N]`: parallel writes
 * of every kind the service has (stock movements, transfers, stock counts, supplier creates,
 * edits and deletes, product creates and CSV imports, sign-ins) against a fresh local API whose DynamoDB client fails a share of
 * its calls the way DynamoDB does (local/faults.ts), one run per rate. The client retries as a
 * client would: a 5xx, a 429, a lost answer or a key still in use again after a pause, with
 * the same Idempotency-Key. Then, with the faults still on for the API but not for the checker:
 *
 * - every answer of 400 or more is a problem+json document;
 * - every write either succeeded once or failed with no effect: the movements stored are
 *   exactly those acknowledged (a transfer's two, and a count's adjustments, which its lines
 *   name), and the live suppliers exactly those created and not deleted;
 * - no Idempotency-Key stays in use past its lease once every attempt with it has ended;
 * - every CSV import (products) ends, succeeded or failed saying why;
 * - `verify` (lib/integrity) finds no drift on any tenant of the store.
 *
 * Exits 1 when a check fails, printing the seed: run again with it for the same draws of faults
 * (under parallel load which request meets which depends on timing).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cnpj } from 'cpf-cnpj-validator';
import { resetConfig } from '../lib/config';
import { IDEMPOTENCY_LEASE_SECONDS } from '../lib/idempotency/service';
import { allTenantIds, verifyTenant } from '../lib/integrity/engine';
import { driftOf } from '../lib/integrity/model';
import { readBalances, readCounts, readMovements, readSuppliers } from '../lib/integrity/repository';
import { continueClose } from '../lib/counts/close';
import { applyLocalEnvironment } from '../local/environment';
import { seededRandom } from '../local/faults';
import { readRuntimeInfo } from '../local/runtime';
import { signUp, type SignedUp } from '../bench/support/sign-up';
import { startLocalApi } from '../tools/local-api';

const { values } = parseArgs({
  options: {
    rates: { type: 'string', default: '0.05,0.2' },
    seconds: { type: 'string', default: '30' },
    connections: { type: 'string', default: '8' },
    seed: { type: 'string' },
  },
  strict: true,
});
const RATES = values.rates.split(',').map(Number);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const SEED = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);

/** How many times a client sends one request before it gives up, and its first pause. */
const ATTEMPTS = 8;
const FIRST_PAUSE_MS = 50;
/** How long a key stays held by a request that could not give it back (lib/idempotency), and a second more. */
const KEY_LEASE_MS = (IDEMPOTENCY_LEASE_SECONDS + 1) * 1000;
/** Rows of each CSV import: a small file, one step of the import worker. */
const IMPORT_ROWS = 60;

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

/** What one run saw, for the checks. */
interface Run {
  failures: string[];
  statuses: Map<number, number>;
  movements: Set<string>;
  created: Set<string>;
  deleted: Set<string>;
  /** Writes that ended in a failure after every retry: they must have left nothing. */
  givenUp: number;
  /** Imports by how they ended. */
  imports: Record<string, number>;
  /** Transfers acknowledged, counts opened and counts closed. */
  transfers: number;
  counts: number;
  countsClosed: number;
  /** Keys a client waited on until their lease ended: a failed request that could not give its key back. */
  leaseWaits: number;
  faults: string;
}

/** What a client sends again: a lost answer, a 5xx, a 429, and a key whose first request still runs (409 with Retry-After). */
const keyInUse = (answer: Answer) => String(answer.json.type).endsWith('/idempotency-key-in-use');
const retryable = (answer: Answer) => answer.status === 0 || answer.status === 429 || answer.status >= 500 || keyInUse(answer);

const pause = (ms: number) => new Promise((resolvePause) => setTimeout(resolvePause, ms));

async function chaosRun(rate: number, seed: number): Promise<Run> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const run: Run = {
    failures: [],
    statuses: new Map(),
    movements: new Set(),
    created: new Set(),
    deleted: new Set(),
    givenUp: 0,
    imports: {},
    transfers: 0,
    counts: 0,
    countsClosed: 0,
    leaseWaits: 0,
    faults: '',
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-chaos-'));
  let output = '';
  const api = await startLocalApi({
    dataDir,
    inMemory: true,
    allowedOrigins: 'https://app.example.com',
    faults: { rate, seed },
    onOutput: (text) => {
      output += text;
      if (process.env.CHAOS_DEBUG) process.stdout.write(`[api] ${text}`);
    },
  });
  try {
    /** One attempt; a lost answer (the connection failed) is status 0. */
    const attempt = async (method: string, path: string, body: unknown, cookie: string | undefined, key: string | undefined): Promise<Answer> => {
      const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), ...(key ? { 'idempotency-key': key } : {}) };
      try {
        const response = await fetch(`${api.url}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
        const text = await response.text();
        run.statuses.set(response.status, (run.statuses.get(response.status) ?? 0) + 1);
        if (process.env.CHAOS_DEBUG && response.status >= 400) console.log(method, path.replace(/[0-9a-f-]{36}/g, '{id}'), response.status, text.slice(0, 160));
        if (response.status >= 400 && !response.headers.get('content-type')?.startsWith('application/problem+json'))
          run.failures.push(`${method} ${path} answered ${response.status} as ${response.headers.get('content-type')}, not problem+json`);
        // The daily job ran at the API's start under the same faults, and may have failed: the dashboard still says which day it shows.
        if (
          response.status === 200 &&
          path.startsWith('/inventory/dashboard/coverage') &&
          !/^\d{4}-\d{2}-\d{2}$/.test(response.headers.get('coverage-figures-date') ?? '')
        )
          run.failures.push(`${method} ${path} answered 200 without the day of its figures`);
        return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
      } catch {
        return { status: 0, json: {} };
      }
    };
    /** A request as a client sends it: again after a pause while the answer says to retry, with the same key. */
    const send = async (method: string, path: string, body?: unknown, cookie?: string, key?: string): Promise<Answer> => {
      let answer: Answer = { status: 0, json: {} };
      const started = Date.now();
      for (let tries = 0; tries < ATTEMPTS; tries += 1) {
        answer = await attempt(method, path, body, cookie, key);
        if (!retryable(answer)) return answer;
        await pause(FIRST_PAUSE_MS * 2 ** tries * (0.5 + random()));
      }
      // A key whose request failed and could not give it back (its release met faults past the
      // SDK's retries) is held until its lease ends: a client goes on as Retry-After says, that long.
      if (keyInUse(answer)) run.leaseWaits += 1;
      while (keyInUse(answer) && Date.now() - started < KEY_LEASE_MS) {
        await pause(1_000);
        answer = await attempt(method, path, body, cookie, key);
      }
      return answer;
    };
    const write = async (method: string, path: string, body: unknown, cookie: string): Promise<Answer> => {
      const answer = await send(method, path, body, cookie, crypto.randomUUID());
      if (retryable(answer)) run.givenUp += 1;
      // Every attempt of this client has ended and the lease of any has run out: nothing holds the key.
      if (keyInUse(answer)) run.failures.push(`${method} ${path}: its Idempotency-Key stayed in use past its lease, held by no running request`);
      return answer;
    };

    /**
     * A CSV import of products, as the console runs one: POST /imports, the file PUT where it
     * says, then GET /imports/{id} until it ends. Under faults a step may fail and the job say
     * so (`failed`, with why); what it created must still leave verify clean.
     */
    const importProducts = async (cookie: string) => {
      const prefix = random().toString(36).slice(2, 8).toUpperCase();
      const lines = ['Código;Descrição', ...Array.from({ length: IMPORT_ROWS }, (_, index) => `IMP-${prefix}-${index};Importado ${index}`)];
      const file = Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
      const created = await send('POST', '/imports', { kind: 'products', fileName: 'chaos.csv', size: file.byteLength }, cookie);
      if (created.status !== 201) return;
      const upload = created.json.upload as { url: string; headers: Record<string, string> };
      for (let tries = 0; tries < ATTEMPTS; tries += 1) {
        const put = await fetch(`${api.url}${upload.url}`, { method: 'PUT', headers: upload.headers, body: file }).catch(() => undefined);
        if (put?.status === 200) break;
        await pause(FIRST_PAUSE_MS * 2 ** tries);
      }
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        const job = await send('GET', `/imports/${String(created.json.id)}`, undefined, cookie);
        if (job.json.status === 'succeeded' || job.json.status === 'failed') {
          run.imports[String(job.json.status)] = (run.imports[String(job.json.status)] ?? 0) + 1;
          return;
        }
        await pause(200);
      }
      run.failures.push(`import ${String(created.json.id)} had not ended 30 s after its upload`);
    };

    type Tenant = { account: SignedUp; warehouses: string[]; products: string[]; skus: string[]; suppliers: string[] };

    /** A transfer between the tenant's two warehouses: its two movements are acknowledged with it (409 when the source has too little). */
    const transfer = async (tenant: Tenant) => {
      const [from, to] = random() < 0.5 ? tenant.warehouses : [...tenant.warehouses].reverse();
      const answer = await write(
        'POST',
        '/inventory/transfers',
        { productId: pick(tenant.products), fromWarehouseId: from, toWarehouseId: to, quantity: Number((0.001 + random()).toFixed(3)) },
        tenant.account.cookie,
      );
      if (answer.status !== 201) return;
      run.transfers += 1;
      for (const side of ['from', 'to'] as const) run.movements.add(String((answer.json[side] as { movementId: string }).movementId));
    };

    /**
     * A stock count as a person runs one: opened (409 while another is open there), a line typed
     * and a product scanned (with an Idempotency-Key: a scan sent again counts once), then closed.
     * Its adjustments are acknowledged by the count's lines (read by the checker); a close cut
     * short is finished as the tenant jobs would before the checks.
     */
    const countRound = async (tenant: Tenant) => {
      const { cookie } = tenant.account;
      const opened = await write('POST', '/inventory/counts', { warehouseId: pick(tenant.warehouses) }, cookie);
      if (opened.status !== 201) return;
      const countId = String(opened.json.id);
      run.counts += 1;
      await send('PUT', `/inventory/counts/${countId}/lines/${pick(tenant.products)}`, { counted: Number((random() * 5).toFixed(3)) }, cookie);
      await write('POST', `/inventory/counts/${countId}/scans`, { sku: pick(tenant.skus) }, cookie);
      const closed = await send('POST', `/inventory/counts/${countId}/close`, { uncounted: random() < 0.5 ? 'ignore' : 'zero' }, cookie);
      if (closed.json.status === 'CLOSED') run.countsClosed += 1;
    };

    // The accounts: sign-up is itself under faults, so a failed one is tried again under another name.
    const accounts: SignedUp[] = [];
    for (let index = 0; accounts.length < 2; index += 1) {
      if (index > 10) throw new Error(`no account could be opened at ${rate * 100} % faults`);
      const email = `chaos-${index}@example.com`;
      try {
        accounts.push(await signUp(api.url, dataDir, { tenantName: `chaos-${seed}-${index}`, name: 'Chaos', email, password: 'chaos password 123' }));
      } catch (error) {
        if (process.env.CHAOS_DEBUG) console.log(error);
        // Given up under faults: the next one under another name (verify still checks this tenant).
      }
    }
    const world = await Promise.all(
      accounts.map(async (account) => {
        const warehouses: string[] = [];
        const products: string[] = [];
        for (let index = 0; index < 2; index += 1) {
          const answer = await write('POST', '/inventory/warehouses', { name: `W${index}` }, account.cookie);
          if (answer.status === 201) warehouses.push(String(answer.json.id));
        }
        const skus: string[] = [];
        for (let index = 0; index < 3; index += 1) {
          const answer = await write('POST', '/inventory/products', { sku: `CHAOS-${index}`, name: `Product ${index}`, unit: 'KG' }, account.cookie);
          if (answer.status === 201) {
            products.push(String(answer.json.id));
            skus.push(`CHAOS-${index}`);
          }
        }
        return { account, warehouses, products, skus, suppliers: [] as string[] };
      }),
    );

    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < deadline) {
          const tenant = pick(world);
          const { cookie } = tenant.account;
          const roll = random();
          if (roll < 0.4 && tenant.products.length > 0 && tenant.warehouses.length > 0) {
            const inbound = random() < 0.6;
            const answer = await write(
              'POST',
              '/inventory/movements',
              {
                productId: pick(tenant.products),
                warehouseId: pick(tenant.warehouses),
                type: inbound ? 'IN' : 'SALE',
                quantity: Number((0.001 + random() * 4).toFixed(3)),
                ...(inbound ? { unitCost: Number((random() * 9).toFixed(4)) } : {}),
              },
              cookie,
            );
            if (answer.status === 201) run.movements.add(String(answer.json.id));
          } else if (roll < 0.6) {
            const answer = await write(
              'POST',
              '/suppliers',
              { name: `Fornecedor ${random().toString(36).slice(2, 8)}`, corporateName: 'Fornecedor Ltda', document: cnpj.generate() },
              cookie,
            );
            if (answer.status === 201) {
              run.created.add(String(answer.json.id));
              tenant.suppliers.push(String(answer.json.id));
            }
          } else if (roll < 0.72 && tenant.suppliers.length > 0) {
            await send('PATCH', `/suppliers/${pick(tenant.suppliers)}`, { name: `Renomeado ${random().toString(36).slice(2, 8)}` }, cookie);
          } else if (roll < 0.78 && tenant.suppliers.length > 0) {
            const id = tenant.suppliers.splice(Math.floor(random() * tenant.suppliers.length), 1)[0] as string;
            const answer = await send('DELETE', `/suppliers/${id}`, undefined, cookie);
            // Deleted now, or by an earlier attempt whose answer was lost.
            if (answer.status === 204 || answer.status === 404) run.deleted.add(id);
            else tenant.suppliers.push(id);
          } else if (roll < 0.84) {
            const answer = await write('POST', '/inventory/products', { sku: `CHAOS-${random().toString(36).slice(2, 10)}`, name: 'Produto' }, cookie);
            if (answer.status === 201) tenant.products.push(String(answer.json.id));
          } else if (roll < 0.86) {
            await importProducts(cookie);
          } else if (roll < 0.88) {
            await send('POST', '/auth/login', { email: tenant.account.email, password: tenant.account.password });
          } else if (roll < 0.93 && tenant.products.length > 0 && tenant.warehouses.length > 1) {
            await transfer(tenant);
          } else if (roll < 0.96 && tenant.products.length > 0 && tenant.warehouses.length > 0) {
            await countRound(tenant);
          } else {
            await send(
              'GET',
              pick(['/suppliers?limit=20', '/inventory/movements?limit=20', '/inventory/dashboard/by-warehouse', '/inventory/dashboard/coverage?days=30']),
              undefined,
              cookie,
            );
          }
        }
      }),
    );

    // The checker reads the store without faults: its own client, in this process.
    const runtime = readRuntimeInfo(dataDir);
    if (!runtime) throw new Error('the local API did not record its store');
    await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, runtime.dynamoEndpoint);
    resetConfig();
    const storedMovements = new Set<string>();
    const liveSuppliers = new Set<string>();
    let tenants = 0;
    for await (const id of allTenantIds()) {
      tenants += 1;
      // A close cut short (every try met faults) is finished as the tenant jobs' queue would; each
      // count's lines then name the adjustments it made, which the count acknowledges.
      for (const count of await readCounts(id)) {
        if (count.count.status === 'CLOSING') await continueClose(id, count.count.id, Date.now());
      }
      for (const count of await readCounts(id)) for (const line of count.lines) if (line.movementId) run.movements.add(line.movementId);
      for (const balance of await readBalances(id))
        for (const movement of await readMovements(id, balance.productId, balance.warehouseId)) storedMovements.add(movement.id);
      for (const supplier of await readSuppliers(id)) liveSuppliers.add(supplier.id);
      for (const drift of driftOf(await verifyTenant(id)))
        run.failures.push(`verify: ${drift.invariant} on tenant ${id}: ${drift.detail} [${drift.keys.map((item) => `${item.pk} / ${item.sk}`).join(', ')}]`);
    }

    const unacknowledged = [...storedMovements].filter((id) => !run.movements.has(id)).length;
    const lost = [...run.movements].filter((id) => !storedMovements.has(id)).length;
    if (unacknowledged) run.failures.push(`${unacknowledged} movements are stored that no answer acknowledged (a failed or repeated write took effect)`);
    if (lost) run.failures.push(`${lost} acknowledged movements are not stored`);
    const expectedSuppliers = [...run.created].filter((id) => !run.deleted.has(id));
    const extra = [...liveSuppliers].filter((id) => !run.created.has(id) || run.deleted.has(id)).length;
    const missing = expectedSuppliers.filter((id) => !liveSuppliers.has(id)).length;
    if (extra) run.failures.push(`${extra} live suppliers were never acknowledged, or were deleted`);
    if (missing) run.failures.push(`${missing} acknowledged suppliers are missing`);
    console.log(
      `chaos ${rate * 100} %: ${tenants} tenants verified; ${run.movements.size} movements, ${run.created.size} suppliers created, ${run.deleted.size} deleted; ${run.transfers} transfers; ${run.countsClosed} of ${run.counts} counts closed; ${run.givenUp} writes given up after ${ATTEMPTS} tries; ${run.leaseWaits} keys waited on until their lease ended; imports ${JSON.stringify(run.imports)}`,
    );
  } finally {
    await api.stop();
    run.faults = /\[faults\] injected (\{.*\})/.exec(output)?.[1] ?? '{}';
    rmSync(dataDir, { recursive: true, force: true });
  }
  return run;
}

/** One rate in a process of its own: the checker's DynamoDB client is the process's one, bound to one store. */
function runAlone(rate: number, seed: number): Promise<number> {
  const args = ['scripts/chaos.ts', '--rates', String(rate), '--seed', String(seed), '--seconds', values.seconds, '--connections', values.connections];
  const child = spawn(join('node_modules', '.bin', 'tsx'), args, { stdio: 'inherit' });
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit(code ?? 1)));
}

async function main(): Promise<void> {
  if (RATES.some((rate) => !(rate >= 0 && rate <= 1)) || !(SECONDS > 0) || !(CONNECTIONS > 0))
    throw new Error('--rates are shares between 0 and 1 (0.05,0.2); --seconds and --connections are positive');
  if (RATES.length > 1) {
    let failed = false;
    for (const [index, rate] of RATES.entries()) if ((await runAlone(rate, SEED + index)) !== 0) failed = true;
    if (failed) process.exitCode = 1;
    return;
  }
  const rate = RATES[0] as number;
  const run = await chaosRun(rate, SEED);
  console.log(`  statuses ${JSON.stringify(Object.fromEntries(run.statuses))}; faults injected ${run.faults}`);
  if (run.failures.length > 0) {
    process.exitCode = 1;
    console.error(`chaos ${rate * 100} %: FAILED (--rates ${rate} --seed ${SEED})\n  ${[...new Set(run.failures)].slice(0, 30).join('\n  ')}`);
  } else console.log(`chaos ${rate * 100} %: every write succeeded once or failed with a problem and no effect; verify is clean on every tenant`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
