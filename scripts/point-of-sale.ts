/**
 * `npm run pos`: a point of sale (PDV) feeding the back-office over HTTP with an API key, as a
 * merchant's integration does, against a running `npm start` (or any deployment of it).
 *
 * 1. An administrator's session: a fresh tenant signed up, its administrator registered with
 *    the token of the invitation e-mail (read from $DATA_DIR/outbox); or, given
 *    POS_ADMIN_EMAIL and POS_ADMIN_PASSWORD, that administrator logged in.
 * 2. The session makes an API key (inventory: write, dashboards: read). Everything after that
 *    is done with the key alone (`Authorization: Bearer`, no cookie, no Origin header).
 * 3. With the key: a warehouse, three products, purchases (IN) so there is stock to sell, then
 *    the sales: one SALE movement per request, each with its own Idempotency-Key. A request
 *    that fails on the network, or is answered 429 or 5xx, is sent again with the same key
 *    (bounded attempts, exponential backoff with jitter, Retry-After honoured), so a sale is
 *    recorded once whatever happened to its answer. A few sales already recorded are sent
 *    again on purpose, to show the replay: `Idempotent-Replayed: true`, the same body.
 * 4. The checks, exact: the balance each answer carries, the stock history and the coverage
 *    dashboard must all equal what was stocked minus what was sold. Quantities are decimal
 *    text and integers of thousandths here, never binary floats.
 * 5. The session revokes the key, and the key's next request must be refused (401).
 *
 *   npm run pos [-- --url http://127.0.0.1:3000] [--sales 100] [--keep-key]
 *
 *   BASE_URL            the API (default http://127.0.0.1:3000); --url wins
 *   DATA_DIR            the running API's data folder (default .data): the sign-up's e-mail is
 *                       read from $DATA_DIR/outbox, the account kept in $DATA_DIR/point-of-sale.json
 *   POS_ADMIN_EMAIL     an administrator to log in as, instead of signing up a tenant
 *   POS_ADMIN_PASSWORD  (--email and --password also take them; a flag shows in `ps`, the
 *                       environment does not)
 *
 * When the sign-up is rate-limited (10 an hour per address) it logs into the account the last
 * sign-up left. Exit 0 when every check held; 1 when a balance is not what it must be, the API
 * answers otherwise than documented, or nothing answers; 2 for a wrong option.
 *
 * The run in code: `playPointOfSale({ baseUrl })` returns the summary the command prints
 * (test/integration/point-of-sale.test.ts runs it against the tests' local API).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { API_KEY_PATTERN } from '../lib/api-keys/format';
import { ACCESS_COOKIE } from '../lib/http/cookies';
import { mailedToken as tokenMailed, outboxFiles } from '../local/outbox';
import { readRuntimeInfo } from '../local/runtime';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';
/** How many sales a run records, and how many of them it sends again on purpose. */
export const DEFAULT_SALES = 100;
export const DEFAULT_REPLAYS = 5;
/** Attempts per request before giving up (the first one included). */
const MAX_ATTEMPTS = 6;
/** Backoff: 250 ms doubling, at most 5 s, each wait drawn between half and all of it. */
const BACKOFF_BASE_MS = 250;
const BACKOFF_CAP_MS = 5_000;
/** A Retry-After longer than this is not waited for: the request fails instead. */
const MAX_RETRY_AFTER_S = 120;
/** One request's longest wait (bcrypt on a busy laptop takes a second or two). */
const REQUEST_TIMEOUT_MS = 60_000;
/** How long the sign-up's e-mail may take to reach the outbox (it is written before the API answers). */
const MAIL_WAIT_MS = 5_000;
const KEY_SHAPE = new RegExp(`^${API_KEY_PATTERN}$`);

export interface PointOfSaleOptions {
  /** The API, e.g. http://127.0.0.1:3000 (no trailing slash needed). */
  baseUrl: string;
  /** The running API's data folder: its outbox has the sign-up's e-mail. Default $DATA_DIR or .data. */
  dataDir?: string;
  /** An administrator to log in as; without it a tenant is signed up. */
  admin?: { email: string; password: string };
  /** Sales to record (DEFAULT_SALES). */
  sales?: number;
  /** Recorded sales to send again on purpose (DEFAULT_REPLAYS). */
  replays?: number;
  /** Leave the key in place at the end instead of revoking it. */
  keepKey?: boolean;
  /** The fetch to use: Node's own by default (a test passes one that loses answers on purpose). */
  fetch?: typeof fetch;
  /** Each line of the run's account, as it happens (nothing by default). */
  log?: (line: string) => void;
}

/** What the run found for one product; quantities as decimal text. */
export interface ProductSummary {
  id: string;
  sku: string;
  /** The IN movements' total. */
  stockedIn: string;
  /** How many sales were recorded for it, and their total. */
  sales: number;
  sold: string;
  /** stockedIn − sold: what every source below must show. */
  expected: string;
  /** The balance the last movement's answer carried. */
  lastAnswerBalance: string;
  /** From the stock history: the newest movement's balance, and the SALE movements it lists. */
  historyBalance: string;
  historySales: number;
  /** The coverage dashboard's `availableQuantity` (it shows 2 decimals, rounded half to even), or null when it lists no such product. */
  coverage: string | null;
}

export interface PointOfSaleSummary {
  baseUrl: string;
  tenantId: string;
  administrator: { email: string; how: 'signed up' | 'logged in' | 'logged in to the last sign-up' };
  key: {
    id: string;
    prefix: string;
    environment: string;
    scopes: Record<string, string>;
    /** The key's window as the answers state it: `"api-key";q=600;w=60`, and the last `RateLimit` seen. */
    rateLimitPolicy: string | null;
    lastRateLimit: string | null;
    revoked: boolean;
    /** The status of the key's request after its revocation (401 expected), or null when kept. */
    statusAfterRevocation: number | null;
  };
  warehouseId: string;
  products: ProductSummary[];
  sales: {
    /** Sales the API acknowledged with 201, each exactly once. */
    recorded: number;
    /** Requests sent for them, retries included (deliberate replays not included). */
    requests: number;
    /** Sales whose retry was answered as a replay: the first attempt had been recorded, its answer lost. */
    recoveredByReplay: number;
  };
  /** Recorded sales sent again on purpose: how many, how many were answered as replays (201, `Idempotent-Replayed: true`), how many with the first answer's body. */
  replays: { sent: number; answeredAsReplay: number; sameBody: number };
  /** Requests sent again, by what made them fail. */
  retries: { network: number; rateLimited: number; serverError: number; keyInUse: number };
  /** Whether the coverage dashboard lists every product of the run. */
  coverageListsProducts: boolean;
  /** Every check that did not hold, in words; empty when the run is exact. */
  mismatches: string[];
  ok: boolean;
}

/** The API answered otherwise than documented, or a request failed past its retries. */
export class PointOfSaleError extends Error {}
/** The administrator's e-mail or password was refused (401 at login). */
class WrongCredentials extends PointOfSaleError {}
/** Nothing answers at the base URL. */
export class ApiUnreachable extends Error {}

// ---- Exact quantities ---------------------------------------------------------------------

/** Quantities have at most 3 decimal places (lib/inventory/schemas): thousandths of a unit. */
const QUANTITY_PLACES = 3;

/** A decimal text as an integer of 10^-places ("12.5", 3 → 12500n); undefined when it is no such decimal. */
function scaled(text: string, places: number): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[3] ?? '').length > places) return undefined;
  const units = BigInt(match[2] as string) * 10n ** BigInt(places) + BigInt((match[3] ?? '').padEnd(places, '0') || '0');
  return match[1] === '-' ? -units : units;
}

/** An integer of 10^-places as decimal text, without trailing zeros (12500n, 3 → "12.5"). */
function decimalText(units: bigint, places: number): string {
  const sign = units < 0n ? '-' : '';
  const magnitude = units < 0n ? -units : units;
  const scale = 10n ** BigInt(places);
  const fraction = (magnitude % scale).toString().padStart(places, '0').replace(/0+$/, '');
  return `${sign}${magnitude / scale}${fraction ? `.${fraction}` : ''}`;
}

const thousandths = (text: string): bigint => {
  const units = scaled(text, QUANTITY_PLACES);
  if (units === undefined) throw new Error(`not a quantity of at most ${QUANTITY_PLACES} decimal places: ${text}`);
  return units;
};
const quantity = (units: bigint) => decimalText(units, QUANTITY_PLACES);

/**
 * The decimal text of a number the API answered. JSON carries quantities as numbers; JSON.parse
 * makes them doubles, and String() gives back the shortest decimal that reads as the same
 * double, which is the API's own text for any decimal of up to 15 significant digits (a
 * quantity is at most 10^9 with 3 decimals: 13). So no digit is lost or made up here; a value
 * with more decimals than the API may show stays as it came and fails the comparison.
 */
function answeredDecimal(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** Thousandths rounded half to even to hundredths: what the dashboards show (docs/inventory.md). */
function hundredthsHalfEven(units: bigint): bigint {
  const quotient = units / 10n;
  const remainder = units % 10n;
  return remainder > 5n || (remainder === 5n && quotient % 2n === 1n) ? quotient + 1n : quotient;
}

/**
 * A JSON object whose decimal fields are written digit for digit from their text, never through
 * a float: `{ quantity: decimal('0.125') }` → `{"quantity":0.125}`.
 */
const decimal = (text: string) => ({ decimal: text });
function jsonWithDecimals(fields: Record<string, string | { decimal: string }>): string {
  const members = Object.entries(fields).map(([name, value]) => {
    if (typeof value === 'string') return `${JSON.stringify(name)}:${JSON.stringify(value)}`;
    if (!/^\d+(\.\d+)?$/.test(value.decimal)) throw new Error(`not a decimal: ${value.decimal}`);
    return `${JSON.stringify(name)}:${value.decimal}`;
  });
  return `{${members.join(',')}}`;
}

// ---- HTTP ---------------------------------------------------------------------------------

/** Who a request is made as: the administrator's session cookie, an API key, or nobody (the public routes). */
type Credential = { cookie: string } | { key: string } | undefined;

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  /** Whether the answer says it is an earlier one given again (`Idempotent-Replayed: true`). */
  replayed: boolean;
}

interface RequestOptions {
  as?: Credential;
  /** The JSON body, as text (see jsonWithDecimals). */
  body?: string;
  /** The write's Idempotency-Key: the request may then be sent again safely. */
  idempotencyKey?: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An answer's body for a message: as JSON, at most 600 characters. */
function shown(body: unknown): string {
  const text = (typeof body === 'string' ? body : JSON.stringify(body)) ?? '(no body)';
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** Why fetch failed: its cause's code (ECONNREFUSED) when it has one. */
function reason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or undefined. */
function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

const backoffMs = (attempt: number) => {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
};

class Client {
  readonly retries = { network: 0, rateLimited: 0, serverError: 0, keyInUse: 0 };
  /** Requests sent in all (retries included). */
  requests = 0;
  rateLimitPolicy: string | null = null;
  lastRateLimit: string | null = null;
  /** Whether any request has been answered yet (to tell "no API here" from a failure later on). */
  private answered = false;

  constructor(
    private readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch,
  ) {}

  /**
   * One request. A GET, or a write with an Idempotency-Key, is sent again when it fails on the
   * network or is answered 429, 5xx or 409 `idempotency-key-in-use` (the first attempt is still
   * running), up to MAX_ATTEMPTS, waiting Retry-After when the answer gives one, else an
   * exponential backoff with jitter. Any other write is sent once: sent again, it could be
   * done twice.
   */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const retryable = method === 'GET' || options.idempotencyKey !== undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    if (options.as && 'cookie' in options.as) headers.cookie = options.as.cookie;
    if (options.as && 'key' in options.as) headers.authorization = `Bearer ${options.as.key}`;
    // No Origin header: the API refuses a key from a browser (401), and Node's fetch adds none.
    for (let attempt = 1; ; attempt += 1) {
      this.requests += 1;
      let response: Response;
      let text: string;
      try {
        response = await this.fetchImpl(`${this.baseUrl}${path}`, { method, headers, body: options.body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        text = await response.text();
      } catch (error) {
        if (!retryable || attempt >= MAX_ATTEMPTS) {
          if (!this.answered) throw new ApiUnreachable(reason(error));
          throw new PointOfSaleError(`${method} ${path}: no answer after ${attempt} attempt(s) (${reason(error)})`);
        }
        this.retries.network += 1;
        await sleep(backoffMs(attempt));
        continue;
      }
      this.answered = true;
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // Not JSON (a proxy's error page): kept as text for the message that names it.
      }
      if (options.as && 'key' in options.as) {
        this.rateLimitPolicy = response.headers.get('ratelimit-policy') ?? this.rateLimitPolicy;
        this.lastRateLimit = response.headers.get('ratelimit') ?? this.lastRateLimit;
      }
      const keyInUse = response.status === 409 && isObject(body) && typeof body.type === 'string' && body.type.endsWith('/idempotency-key-in-use');
      const transient = response.status === 429 || response.status >= 500 || keyInUse;
      if (retryable && transient && attempt < MAX_ATTEMPTS) {
        const after = retryAfterSeconds(response.headers);
        if (after === undefined || after <= MAX_RETRY_AFTER_S) {
          if (response.status === 429) this.retries.rateLimited += 1;
          else if (keyInUse) this.retries.keyInUse += 1;
          else this.retries.serverError += 1;
          await sleep(after === undefined ? backoffMs(attempt) : after * 1000);
          continue;
        }
      }
      return { status: response.status, headers: response.headers, body, replayed: response.headers.get('idempotent-replayed') === 'true' };
    }
  }

  /** A request that must be answered `expected`; anything else is a PointOfSaleError naming it. */
  async expect(expected: number, method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const answer = await this.send(method, path, options);
    if (answer.status !== expected) {
      const after = answer.status === 429 ? ` (rate-limited: retry after ${answer.headers.get('retry-after') ?? '?'} s)` : '';
      throw new PointOfSaleError(`${method} ${path} answered ${answer.status}${after}, not ${expected}: ${shown(answer.body)}`);
    }
    return answer;
  }
}

/** `body.a.b` as a string, or a PointOfSaleError naming what was asked. */
function text(body: unknown, path: string, what: string): string {
  let value: unknown = body;
  for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
  if (typeof value !== 'string') throw new PointOfSaleError(`${what}: the answer has no string \`${path}\`: ${shown(body)}`);
  return value;
}

// ---- The administrator's session ----------------------------------------------------------

interface Account {
  tenantId: string;
  email: string;
  password: string;
}

/** The access cookie a sign-in answer set, as a Cookie header. */
function sessionCookie(answer: Answer, what: string): string {
  for (const line of answer.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    if (pair.startsWith(`${ACCESS_COOKIE}=`) && pair.length > ACCESS_COOKIE.length + 1) return pair;
  }
  throw new PointOfSaleError(`${what}: the answer set no ${ACCESS_COOKIE} cookie`);
}

/** The `token=` of the newest e-mail to `address` that was not in the outbox before (`before`), waiting up to MAIL_WAIT_MS. */
async function mailedToken(outbox: string, address: string, before: ReadonlySet<string>): Promise<string> {
  const token = await tokenMailed(outbox, address, before, MAIL_WAIT_MS);
  if (token !== undefined) return token;
  throw new PointOfSaleError(
    `no invitation e-mail to ${address} reached ${outbox} within ${MAIL_WAIT_MS / 1000} s. Is DATA_DIR the data folder of the API at this URL ` +
      '(its mail transport the outbox)? Against an API whose mail goes out for real, give an administrator instead (POS_ADMIN_EMAIL, POS_ADMIN_PASSWORD).',
  );
}

const accountFile = (dataDir: string) => join(dataDir, 'point-of-sale.json');

function rememberedAccount(dataDir: string): Account | undefined {
  try {
    const saved: unknown = JSON.parse(readFileSync(accountFile(dataDir), 'utf8'));
    if (isObject(saved) && typeof saved.tenantId === 'string' && typeof saved.email === 'string' && typeof saved.password === 'string') {
      return { tenantId: saved.tenantId, email: saved.email, password: saved.password };
    }
  } catch {
    // None, or unreadable: as none.
  }
  return undefined;
}

/** Written whole, readable by its owner only (it holds a password of a local test account). */
function remember(dataDir: string, account: Account, baseUrl: string): void {
  mkdirSync(dataDir, { recursive: true });
  const partial = `${accountFile(dataDir)}.${process.pid}`;
  writeFileSync(partial, `${JSON.stringify({ ...account, baseUrl, savedAt: new Date().toISOString() }, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, accountFile(dataDir));
}

async function logIn(client: Client, email: string, password: string): Promise<{ cookie: string; tenantId: string }> {
  const answer = await client.send('POST', '/auth/login', { body: JSON.stringify({ email, password }) });
  if (answer.status === 401) throw new WrongCredentials(`the administrator ${email} could not log in: wrong e-mail or password (401)`);
  if (answer.status !== 200) throw new PointOfSaleError(`POST /auth/login answered ${answer.status}, not 200: ${shown(answer.body)}`);
  if (isObject(answer.body) && answer.body.mfaRequired === true) {
    throw new PointOfSaleError(
      `the administrator ${email} signs in with a second factor, which this script does not enter: give another administrator, or none to sign up a new tenant`,
    );
  }
  return { cookie: sessionCookie(answer, 'POST /auth/login'), tenantId: text(answer.body, 'user.tenantId', 'POST /auth/login') };
}

/**
 * The administrator's session: the one given logs in; otherwise a new tenant is signed up and
 * its administrator registered with the invitation's token (from the outbox), or, when the
 * sign-up is rate-limited, the account the last sign-up left logs in.
 */
async function administratorSession(client: Client, options: PointOfSaleOptions, dataDir: string, suffix: string, log: (line: string) => void) {
  if (options.admin) {
    const { cookie, tenantId } = await logIn(client, options.admin.email, options.admin.password);
    log(`administrator ${options.admin.email} logged in (tenant ${tenantId})`);
    return { cookie, tenantId, email: options.admin.email, how: 'logged in' as const };
  }
  const email = `pdv.${suffix}@example.com`;
  const password = `point of sale ${suffix} ${randomBytes(6).toString('hex')}`;
  const outbox = join(dataDir, 'outbox');
  const mailsBefore = new Set(outboxFiles(outbox));
  const signUp = await client.send('POST', '/tenants', {
    body: JSON.stringify({ name: `pdv-${suffix}`, brandName: 'Mercearia do PDV', plan: 'STARTER', adminEmail: email }),
  });
  if (signUp.status === 429) {
    const remembered = rememberedAccount(dataDir);
    if (!remembered) {
      throw new PointOfSaleError(
        `the sign-up is rate-limited (429, retry after ${signUp.headers.get('retry-after') ?? '?'} s) and no earlier sign-up's account is kept in ${accountFile(dataDir)}: ` +
          'wait, or give an administrator (POS_ADMIN_EMAIL, POS_ADMIN_PASSWORD)',
      );
    }
    const { cookie, tenantId } = await logIn(client, remembered.email, remembered.password).catch((error: unknown) => {
      if (error instanceof WrongCredentials) {
        throw new PointOfSaleError(
          `the sign-up is rate-limited, and the account kept in ${accountFile(dataDir)} no longer signs in (was the API's store reset?): wait, or give an administrator (POS_ADMIN_EMAIL, POS_ADMIN_PASSWORD)`,
        );
      }
      throw error;
    });
    log(`sign-up rate-limited: administrator ${remembered.email} of the last sign-up logged in (tenant ${tenantId})`);
    return { cookie, tenantId, email: remembered.email, how: 'logged in to the last sign-up' as const };
  }
  if (signUp.status !== 201) throw new PointOfSaleError(`POST /tenants answered ${signUp.status}, not 201: ${shown(signUp.body)}`);
  const tenantId = text(signUp.body, 'id', 'POST /tenants');
  const invitationToken = await mailedToken(outbox, email, mailsBefore);
  const registered = await client.expect(200, 'POST', '/auth/register', {
    body: JSON.stringify({ name: 'Administrador do PDV', email, password, tenantId, invitationToken }),
  });
  remember(dataDir, { tenantId, email, password }, options.baseUrl);
  log(`tenant pdv-${suffix} signed up, administrator ${email} registered (token from the invitation e-mail)`);
  return { cookie: sessionCookie(registered, 'POST /auth/register'), tenantId, email, how: 'signed up' as const };
}

// ---- The point of sale --------------------------------------------------------------------

/** What the shop sells, and what it buys in first: quantities and unit costs as decimal text. */
const CATALOG = [
  {
    sku: 'CAFE-500G',
    name: 'Café torrado 500 g',
    purchases: [
      { quantity: '120', unitCost: '18.9' },
      { quantity: '35.375', unitCost: '19.25' },
    ],
  },
  {
    sku: 'ARROZ-KG',
    name: 'Arroz agulhinha a granel (kg)',
    purchases: [
      { quantity: '150.5', unitCost: '6.4' },
      { quantity: '20', unitCost: '6.55' },
    ],
  },
  {
    sku: 'PAO-QUEIJO',
    name: 'Pão de queijo congelado 1 kg',
    purchases: [
      { quantity: '100', unitCost: '22.5' },
      { quantity: '60.25', unitCost: '23.1' },
    ],
  },
];
/** The quantities sales cycle through: whole units and kilos to the gram. At most 3 each, so 34 sales never empty a product. */
const SALE_QUANTITIES = ['1', '2', '0.5', '1.25', '0.125', '3', '0.875'];

interface ProductState {
  id: string;
  sku: string;
  stockedIn: bigint;
  sold: bigint;
  sales: number;
  /** Each recorded movement's id: the history must list exactly these. */
  movementIds: Set<string>;
  lastAnswerBalance: string;
}

interface RecordedSale {
  path: string;
  body: string;
  idempotencyKey: string;
  answer: unknown;
}

/** The balance a movement's answer carries, as decimal text. */
function answeredBalance(body: unknown): string | undefined {
  return isObject(body) && isObject(body.balance) ? answeredDecimal(body.balance.quantity) : undefined;
}

/** Every page of the stock history of one product in one warehouse, newest first, through `nextCursor`. */
async function stockHistory(client: Client, key: Credential, productId: string, warehouseId: string): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ productId, warehouseId, limit: '100', ...(cursor === null ? {} : { cursor }) });
    const page = await client.expect(200, 'GET', `/inventory/movements?${query}`, { as: key });
    if (!isObject(page.body) || !Array.isArray(page.body.items) || !page.body.items.every(isObject))
      throw new PointOfSaleError(`GET /inventory/movements: not a page of movements: ${shown(page.body)}`);
    items.push(...page.body.items);
    cursor = typeof page.body.nextCursor === 'string' ? page.body.nextCursor : null;
  } while (cursor !== null);
  return items;
}

/** Every item of the coverage dashboard, through the `Link: <…>; rel="next"` pages. */
async function coverageItems(client: Client, key: Credential): Promise<Json[]> {
  const items: Json[] = [];
  let next: string | null = '/inventory/dashboard/coverage?limit=1000';
  while (next !== null) {
    const page: Answer = await client.expect(200, 'GET', next, { as: key });
    if (!Array.isArray(page.body) || !page.body.every(isObject)) throw new PointOfSaleError(`GET ${next}: not a list of coverage items: ${shown(page.body)}`);
    items.push(...page.body);
    const link = /<([^>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
    // The Link target may be absolute or a path; only its path and query are sent.
    next = link === undefined ? null : ((url) => `${url.pathname}${url.search}`)(new URL(link, 'http://api.invalid'));
  }
  return items;
}

/**
 * Play a point of sale against the API at `baseUrl` and check its books; the summary says
 * what happened and lists every check that did not hold (`ok` false). Throws
 * PointOfSaleError when the API answers otherwise than documented or a request fails past its
 * retries, and ApiUnreachable when nothing answers.
 */
export async function playPointOfSale(options: PointOfSaleOptions): Promise<PointOfSaleSummary> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const dataDir = resolve(options.dataDir ?? process.env.DATA_DIR ?? '.data');
  const salesWanted = options.sales ?? DEFAULT_SALES;
  const replaysWanted = Math.min(options.replays ?? DEFAULT_REPLAYS, salesWanted);
  const log = options.log ?? (() => undefined);
  const client = new Client(baseUrl, options.fetch ?? fetch);
  const mismatches: string[] = [];
  const suffix = randomBytes(4).toString('hex');

  // 1. The administrator's session: only to make the key, and to revoke it at the end.
  const admin = await administratorSession(client, { ...options, baseUrl }, dataDir, suffix, log);
  const session = { cookie: admin.cookie };

  // 2. The key: what the merchant's administrator makes for the integrator, shown once.
  const scopes = { inventory: 'write', dashboards: 'read' };
  const made = await client.expect(201, 'POST', '/api-keys', { as: session, body: JSON.stringify({ name: `PDV caixa 1 ${suffix}`, scopes }) });
  const keyText = text(made.body, 'key', 'POST /api-keys');
  const keyId = text(made.body, 'id', 'POST /api-keys');
  if (!KEY_SHAPE.test(keyText)) mismatches.push(`the key's text does not match API_KEY_PATTERN (${API_KEY_PATTERN}): ${keyText.slice(0, 12)}…`);
  const key: Credential = { key: keyText };
  log(`API key ${text(made.body, 'prefix', 'POST /api-keys')}… made (inventory: write, dashboards: read); everything below uses the key alone`);

  // 3. A warehouse and the products, each POST with its own Idempotency-Key.
  const warehouse = await client.expect(201, 'POST', '/inventory/warehouses', {
    as: key,
    idempotencyKey: randomUUID(),
    body: JSON.stringify({ name: `Loja Centro ${suffix}` }),
  });
  const warehouseId = text(warehouse.body, 'id', 'POST /inventory/warehouses');
  const products: ProductState[] = [];
  for (const item of CATALOG) {
    const sku = `${item.sku}-${suffix}`;
    const made = await client.expect(201, 'POST', '/inventory/products', {
      as: key,
      idempotencyKey: randomUUID(),
      // Sold to the gram (SALE_QUANTITIES): counted in kilos, which take 3 decimals.
      body: JSON.stringify({ sku, name: item.name, unit: 'KG' }),
    });
    products.push({
      id: text(made.body, 'id', 'POST /inventory/products'),
      sku,
      stockedIn: 0n,
      sold: 0n,
      sales: 0,
      movementIds: new Set(),
      lastAnswerBalance: '0',
    });
  }
  log(`warehouse ${warehouseId} and ${products.length} products: ${products.map((product) => product.sku).join(', ')}`);

  /** Record one movement (sent again with its key until answered), and check the balance it answers. */
  const move = async (product: ProductState, type: 'IN' | 'SALE', amount: string, unitCost?: string) => {
    const body = jsonWithDecimals({
      productId: product.id,
      warehouseId,
      type,
      quantity: decimal(amount),
      ...(unitCost === undefined ? {} : { unitCost: decimal(unitCost) }),
    });
    const idempotencyKey = randomUUID();
    const answer = await client.expect(201, 'POST', '/inventory/movements', { as: key, idempotencyKey, body });
    const movementId = text(answer.body, 'id', 'POST /inventory/movements');
    if (product.movementIds.has(movementId)) mismatches.push(`${product.sku}: two movements were answered with the same id ${movementId}`);
    product.movementIds.add(movementId);
    if (type === 'IN') product.stockedIn += thousandths(amount);
    else {
      product.sold += thousandths(amount);
      product.sales += 1;
    }
    const expected = quantity(product.stockedIn - product.sold);
    const balance = answeredBalance(answer.body) ?? `(none: ${shown(answer.body)})`;
    if (balance !== expected) mismatches.push(`${product.sku}: the ${type} of ${amount} answered a balance of ${balance}, not ${expected}`);
    product.lastAnswerBalance = balance;
    return { answer, recorded: { path: '/inventory/movements', body, idempotencyKey, answer: answer.body } satisfies RecordedSale };
  };

  // 4. Stock to sell: two purchases (IN, at a unit cost) of each product.
  for (const [index, item] of CATALOG.entries()) {
    for (const purchase of item.purchases) await move(products[index] as ProductState, 'IN', purchase.quantity, purchase.unitCost);
  }
  log(`stock in: ${products.map((product) => `${product.sku} ${quantity(product.stockedIn)}`).join(', ')}`);

  // 5. The sales, one request each; now and then one already recorded is sent again on purpose.
  const replays = { sent: 0, answeredAsReplay: 0, sameBody: 0 };
  const requestsBefore = client.requests;
  let recoveredByReplay = 0;
  const replayEvery = replaysWanted > 0 ? Math.floor(salesWanted / replaysWanted) : 0;
  for (let sale = 0; sale < salesWanted; sale += 1) {
    const product = products[sale % products.length] as ProductState;
    const amount = SALE_QUANTITIES[sale % SALE_QUANTITIES.length] as string;
    const sent = client.requests;
    const { answer, recorded } = await move(product, 'SALE', amount);
    // A first answer that says "replayed" comes from a retry: the first attempt was recorded and its answer lost.
    if (answer.replayed) {
      recoveredByReplay += 1;
      if (client.requests - sent < 2) mismatches.push(`${product.sku}: a sale sent once was answered as a replay`);
    }
    if (replayEvery > 0 && replays.sent < replaysWanted && (sale + 1) % replayEvery === 0) {
      const replay = await client.send('POST', recorded.path, { as: key, idempotencyKey: recorded.idempotencyKey, body: recorded.body });
      replays.sent += 1;
      if (replay.status === 201 && replay.replayed) replays.answeredAsReplay += 1;
      else
        mismatches.push(
          `sale ${sale + 1} sent again with its Idempotency-Key was answered ${replay.status}, Idempotent-Replayed: ${replay.headers.get('idempotent-replayed') ?? '(absent)'}`,
        );
      if (isDeepStrictEqual(replay.body, recorded.answer)) replays.sameBody += 1;
      else mismatches.push(`sale ${sale + 1} sent again was answered another body: ${shown(replay.body)}, first ${shown(recorded.answer)}`);
    }
  }
  const salesRequests = client.requests - requestsBefore - replays.sent;
  const recorded = products.reduce((total, product) => total + product.sales, 0);
  log(
    `${recorded} sales recorded in ${salesRequests} requests (${recoveredByReplay} recovered by a replay); ${replays.answeredAsReplay} of ${replays.sent} sent again answered as replays`,
  );

  // 6. The books, read back with the key: the stock history and the coverage dashboard.
  const coverage = await coverageItems(client, key);
  const summaries: ProductSummary[] = [];
  for (const product of products) {
    const expected = product.stockedIn - product.sold;
    const history = await stockHistory(client, key, product.id, warehouseId);
    let historyIn = 0n;
    let historySold = 0n;
    let historySales = 0;
    const listed = new Set<string>();
    for (const movement of history) {
      const amount = answeredDecimal(movement.quantity);
      const units = amount === undefined ? undefined : scaled(amount, QUANTITY_PLACES);
      if (units === undefined) {
        mismatches.push(`${product.sku}: the history lists a quantity that is no 3-decimal number: ${shown(movement)}`);
        continue;
      }
      if (typeof movement.id === 'string') listed.add(movement.id);
      if (movement.type === 'IN') historyIn += units;
      else if (movement.type === 'SALE') {
        historySold += units;
        historySales += 1;
      } else mismatches.push(`${product.sku}: the history lists a ${String(movement.type)} this run never made`);
    }
    const historyBalance = answeredBalance(history[0]) ?? '(no movement)';
    if (history.length !== product.movementIds.size || [...product.movementIds].some((id) => !listed.has(id))) {
      mismatches.push(`${product.sku}: the history lists ${history.length} movements, not the ${product.movementIds.size} recorded`);
    }
    if (historySales !== product.sales) mismatches.push(`${product.sku}: the history lists ${historySales} sales, not ${product.sales}`);
    if (historyIn !== product.stockedIn)
      mismatches.push(`${product.sku}: the history's IN total is ${quantity(historyIn)}, not ${quantity(product.stockedIn)}`);
    if (historySold !== product.sold) mismatches.push(`${product.sku}: the history's sales total ${quantity(historySold)}, not ${quantity(product.sold)}`);
    if (historyBalance !== quantity(expected))
      mismatches.push(`${product.sku}: the newest movement in the history has a balance of ${historyBalance}, not ${quantity(expected)}`);

    const line = coverage.find((item) => item.productId === product.id);
    const shownCoverage = line === undefined ? undefined : answeredDecimal(line.availableQuantity);
    if (line === undefined) mismatches.push(`${product.sku}: the coverage dashboard does not list it`);
    else {
      // The dashboards show 2 decimals, rounded half to even (docs/inventory.md, exact decimals).
      const wanted = decimalText(hundredthsHalfEven(expected), 2);
      if (shownCoverage === undefined || scaled(shownCoverage, 2) !== scaled(wanted, 2))
        mismatches.push(`${product.sku}: the coverage shows ${shownCoverage ?? shown(line.availableQuantity)} available, not ${wanted}`);
      if (line.sku !== product.sku) mismatches.push(`${product.sku}: the coverage names it ${String(line.sku)}`);
    }
    summaries.push({
      id: product.id,
      sku: product.sku,
      stockedIn: quantity(product.stockedIn),
      sales: product.sales,
      sold: quantity(product.sold),
      expected: quantity(expected),
      lastAnswerBalance: product.lastAnswerBalance,
      historyBalance,
      historySales,
      coverage: shownCoverage ?? null,
    });
  }
  const coverageListsProducts = products.every((product) => coverage.some((item) => item.productId === product.id));

  // 7. The key revoked by the administrator: its next request is refused.
  let statusAfterRevocation: number | null = null;
  if (!options.keepKey) {
    await client.expect(204, 'DELETE', `/api-keys/${encodeURIComponent(keyId)}`, { as: session });
    statusAfterRevocation = (await client.send('GET', `/inventory/warehouses/${warehouseId}`, { as: key })).status;
    if (statusAfterRevocation !== 401) mismatches.push(`the revoked key's request was answered ${statusAfterRevocation}, not 401`);
    log(`key revoked: its next request was answered ${statusAfterRevocation}`);
  }

  return {
    baseUrl,
    tenantId: admin.tenantId,
    administrator: { email: admin.email, how: admin.how },
    key: {
      id: keyId,
      prefix: text(made.body, 'prefix', 'POST /api-keys'),
      environment: keyText.split('_')[1] ?? '',
      scopes,
      rateLimitPolicy: client.rateLimitPolicy,
      lastRateLimit: client.lastRateLimit,
      revoked: !options.keepKey,
      statusAfterRevocation,
    },
    warehouseId,
    products: summaries,
    sales: { recorded, requests: salesRequests, recoveredByReplay },
    replays,
    retries: { ...client.retries },
    coverageListsProducts,
    mismatches,
    ok: mismatches.length === 0,
  };
}

// ---- The command --------------------------------------------------------------------------

/** The summary as the command prints it. */
export function summaryLines(summary: PointOfSaleSummary): string[] {
  const retried = Object.values(summary.retries).reduce((total, count) => total + count, 0);
  const retriedBy = Object.entries(summary.retries)
    .filter(([, count]) => count > 0)
    .map(([why, count]) => `${count} ${why}`);
  const columns = (cells: string[]) => cells.map((cell, index) => (index === 0 ? cell.padEnd(22) : cell.padStart(12))).join(' ');
  return [
    '',
    `Tenant ${summary.tenantId}, administrator ${summary.administrator.email} (${summary.administrator.how})`,
    `API key ${summary.key.prefix}… (${summary.key.environment}; ${Object.entries(summary.key.scopes)
      .map(([resource, level]) => `${resource}: ${level}`)
      .join(', ')}), rate limit ${summary.key.rateLimitPolicy ?? '(no RateLimit-Policy header)'}`,
    `Sales: ${summary.sales.recorded} recorded in ${summary.sales.requests} requests (${retried} retried${retriedBy.length > 0 ? `: ${retriedBy.join(', ')}` : ''}; ${summary.sales.recoveredByReplay} recovered by a replay)`,
    `Replays: ${summary.replays.sent} recorded sales sent again, ${summary.replays.answeredAsReplay} answered Idempotent-Replayed: true, ${summary.replays.sameBody} with the same body`,
    '',
    columns(['SKU', 'stocked in', 'sold', 'expected', 'history', 'coverage']),
    ...summary.products.map((product) =>
      columns([product.sku, product.stockedIn, `${product.sold} (${product.sales})`, product.expected, product.historyBalance, product.coverage ?? '(absent)']),
    ),
    '',
    summary.key.revoked ? `Key revoked; its next request was answered ${summary.key.statusAfterRevocation ?? '?'}.` : `Key kept: ${summary.key.id}.`,
  ];
}

const USAGE = `Usage: npm run pos [-- --url URL] [--data-dir DIR] [--email ADDRESS --password PASSWORD] [--sales N] [--keep-key]

A point of sale feeding the back-office with an API key: a key made by an administrator,
a warehouse, products, purchases, then ${DEFAULT_SALES} sales, each with an Idempotency-Key and retried
on network errors, 429 and 5xx; then the balances, the stock history and the coverage
dashboard checked against what was sold, exactly.

  --url URL            the API (BASE_URL; default ${DEFAULT_BASE_URL})
  --data-dir DIR       the running API's data folder, for the sign-up's e-mail (DATA_DIR; default .data)
  --email, --password  log in as this administrator instead of signing up a tenant
                       (POS_ADMIN_EMAIL, POS_ADMIN_PASSWORD)
  --sales N            sales to record (default ${DEFAULT_SALES})
  --keep-key           leave the key in place instead of revoking it at the end`;

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        'data-dir': { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        sales: { type: 'string' },
        'keep-key': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const baseUrl = (values.url ?? process.env.BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const email = values.email ?? process.env.POS_ADMIN_EMAIL;
  const password = values.password ?? process.env.POS_ADMIN_PASSWORD;
  const sales = Number(values.sales ?? DEFAULT_SALES);
  const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? '.data');
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl)) {
    console.error(`Not an http(s) URL: ${baseUrl}`);
    return 2;
  }
  if (!Number.isInteger(sales) || sales < 1 || sales > 10_000) {
    console.error(`--sales must be a whole number from 1 to 10000: ${values.sales}`);
    return 2;
  }
  if ((email === undefined) !== (password === undefined)) {
    console.error("Give both the administrator's e-mail and password (POS_ADMIN_EMAIL and POS_ADMIN_PASSWORD), or neither to sign up a tenant.");
    return 2;
  }
  console.log(`Point of sale against ${baseUrl}`);
  try {
    const summary = await playPointOfSale({
      baseUrl,
      dataDir,
      sales,
      keepKey: values['keep-key'] === true,
      ...(email !== undefined && password !== undefined ? { admin: { email, password } } : {}),
      log: (line) => console.log(`  ${line}`),
    });
    for (const line of summaryLines(summary)) console.log(line);
    if (!summary.ok) {
      console.error(`\n${summary.mismatches.length} check(s) did not hold:`);
      for (const mismatch of summary.mismatches) console.error(`  - ${mismatch}`);
      return 1;
    }
    console.log('Every balance is exact: stocked in minus sold, in the answers, the stock history and the coverage dashboard.');
    return 0;
  } catch (error) {
    if (error instanceof ApiUnreachable) {
      const running = readRuntimeInfo(dataDir);
      const elsewhere =
        running && running.apiUrl.replace(/\/+$/, '') !== baseUrl
          ? `\n(npm start on ${dataDir} listens on ${running.apiUrl}: npm run pos -- --url ${running.apiUrl})`
          : '';
      console.error(`No API at ${baseUrl}: start it with npm start (${error.message})${elsewhere}`);
      return 1;
    }
    if (error instanceof PointOfSaleError) {
      console.error(`Point of sale failed: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

// Run as a command (npm run pos), not when a test imports the function.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
