/**
 * `npm run walkthrough`: the API from the outside, as a client sees it, against a running
 * `npm start` (or any deployment of it): sign up a tenant, register its administrator with
 * the e-mailed token, companies, suppliers, stock, the coverage dashboard, the session's
 * refresh and logout, and a password reset. One line per request, with the interesting part
 * of its answer.
 *
 *   BASE_URL  the API (default http://127.0.0.1:3000)
 *   DATA_DIR  the running API's data folder (default .data): its e-mails are read from
 *             $DATA_DIR/outbox, and the last run's account is kept in $DATA_DIR/walkthrough.json
 *
 * It runs again and again on one API: every name, e-mail and document carries a random
 * suffix. A step answered 429 is named as rate-limited and skipped, with what depends on it;
 * when the sign-up itself is rate-limited (10 an hour per IP) the walkthrough goes on with the
 * account the last run left. Exit code 0 when every answer is the documented one (a rate
 * limit included), 1 when the API answers otherwise, or does not answer at all.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import { ACCESS_COOKIE } from '../lib/http/cookies';
import { localSettings } from '../local/environment';
import { mailedToken as tokenMailed, outboxFiles as readOutbox } from '../local/outbox';
import { readRuntimeInfo } from '../local/runtime';

const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';
/** How long an e-mail may take to reach the outbox (it is written before the API answers). */
const MAIL_WAIT_MS = 5_000;
/** One request's longest wait (bcrypt on a busy laptop takes a second or two). */
const REQUEST_TIMEOUT_MS = 60_000;

const baseUrl = (process.env.BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
const { dataDir } = localSettings();
const outboxDir = join(dataDir, 'outbox');
const accountFile = join(dataDir, 'walkthrough.json');

/** A path as the person typed it: relative to here when it is below here. */
const shown = (path: string) => {
  const fromHere = relative(process.cwd(), path);
  return fromHere && !fromHere.startsWith('..') ? fromHere : path;
};

// ---- Output -------------------------------------------------------------------------------

const colour = process.stdout.isTTY === true && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (colour ? `\u001b[${code}m${text}\u001b[0m` : text);
const green = (text: string) => paint(32, text);
const yellow = (text: string) => paint(33, text);
const red = (text: string) => paint(31, text);
const dim = (text: string) => paint(2, text);

const say = (line: string) => console.log(line);
/** The one short line of an answer's interesting part, under its step's line. */
const detail = (line: string) => say(`   ${dim(line)}`);

// ---- Outcomes -----------------------------------------------------------------------------

/** The API answered otherwise than documented: exit 1, naming the step. */
class Misbehaved extends Error {}
/** Nothing answers at BASE_URL. */
class Unreachable extends Error {}
/** The walkthrough cannot go on, but nothing is wrong with the API (a rate limit): exit 0. */
class Stop extends Error {}
/** A step answered 429; its line is printed, and what depends on it is skipped. */
class RateLimited extends Error {}

/** How many requests were rate-limited (for the closing line). */
let rateLimited = 0;

function rateLimitedLine(step: number, what: string, answer: Answer): void {
  rateLimited += 1;
  say(yellow(`${step}. ${what}: rate-limited (429, retry after ${answer.retryAfter ?? '?'} s) — skipped`));
}

// ---- HTTP ---------------------------------------------------------------------------------

interface Cookie {
  value: string;
  path: string;
}

/** The session cookies, as a browser keeps them: by name, sent to the paths they name, dropped when cleared. */
class CookieJar {
  private readonly cookies = new Map<string, Cookie>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const equals = pair.indexOf('=');
      if (equals <= 0) continue;
      const name = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      let path = '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', setting = ''] = attribute.split('=', 2);
        if (key.toLowerCase() === 'path' && setting.startsWith('/')) path = setting;
        if (key.toLowerCase() === 'max-age' && Number(setting) <= 0) expired = true;
        if (key.toLowerCase() === 'expires' && Date.parse(setting) <= Date.now()) expired = true;
      }
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  value(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  /** The Cookie header for a request to `pathname`. */
  header(pathname: string): string | undefined {
    const sent = [...this.cookies].filter(
      ([, cookie]) => cookie.path === '/' || pathname === cookie.path || pathname.startsWith(`${cookie.path.replace(/\/$/, '')}/`),
    );
    return sent.length > 0 ? sent.map(([name, cookie]) => `${name}=${cookie.value}`).join('; ') : undefined;
  }

  clear(): void {
    this.cookies.clear();
  }
}

interface Answer {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

interface RequestOptions {
  body?: unknown;
  /** The jar whose cookies go along and which keeps the answer's (the session's by default). */
  jar?: CookieJar;
  /** A Cookie header sent as is, instead of a jar's. */
  cookie?: string;
}

const session = new CookieJar();

async function send(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
  const url = new URL(`${baseUrl}${path}`);
  const jar = options.jar ?? session;
  const headers: Record<string, string> = { accept: 'application/json' };
  const cookie = options.cookie ?? jar.header(url.pathname);
  if (cookie) headers.cookie = cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError')
      throw new Misbehaved(`${method} ${path} got no answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
    throw new Unreachable(reason(error));
  }
  jar.take(response);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text, for the message that names it.
  }
  return { status: response.status, body, retryAfter: response.headers.get('retry-after') };
}

/** Why fetch failed: its cause's code (ECONNREFUSED) when it has one. */
function reason(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** An answer's body for a message: as JSON, at most 1,000 characters. */
function describe(body: unknown): string {
  const text = (typeof body === 'string' ? body : JSON.stringify(body)) ?? '(no body)';
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}

/** `4. create a company  POST /companies → 201`, its status green when expected, the line red when not. */
function stepLine(step: number, what: string, method: string, path: string, status: number, expected: boolean): void {
  const line = `${step}. ${what}  ${method} ${path} → `;
  say(expected ? `${line}${green(String(status))}` : red(`${line}${status}`));
}

/**
 * One request of step `step`: its line (`4. create a company  POST /companies → 201`), then
 * the answer if its status is `expected`. A 429 is named as rate-limited (RateLimited); any
 * other status is a misbehaviour, with the problem body.
 */
async function call(step: number, what: string, method: string, path: string, expected: number, options: RequestOptions = {}): Promise<Answer> {
  const answer = await send(method, path, options);
  if (answer.status === 429) {
    rateLimitedLine(step, what, answer);
    throw new RateLimited(what);
  }
  stepLine(step, what, method, path, answer.status, answer.status === expected);
  if (answer.status !== expected)
    throw new Misbehaved(`step ${step} (${what}): ${method} ${path} answered ${answer.status}, not ${expected}: ${describe(answer.body)}`);
  return answer;
}

/** A step left out because one it depends on was. */
const skipped = (step: number, what: string, because: string) => say(yellow(`${step}. ${what}: skipped (${because})`));

/** Run a step; undefined when it (or a request in it) was rate-limited. */
async function unlessLimited<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RateLimited) return undefined;
    throw error;
  }
}

// ---- Reading answers ----------------------------------------------------------------------

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `body.a.b` as a `type`, or a misbehaviour naming the step and the field. */
function field<T extends 'string' | 'number'>(step: number, what: string, body: unknown, path: string, type: T): T extends 'string' ? string : number {
  let value: unknown = body;
  for (const key of path.split('.')) value = isObject(value) ? value[key] : undefined;
  if (typeof value !== type) throw new Misbehaved(`step ${step} (${what}): the answer has no ${type} \`${path}\`: ${describe(body)}`);
  return value as T extends 'string' ? string : number;
}

function list(step: number, what: string, body: unknown, path?: string): Json[] {
  const value = path === undefined ? body : isObject(body) ? body[path] : undefined;
  if (!Array.isArray(value) || !value.every(isObject))
    throw new Misbehaved(`step ${step} (${what}): the answer is not ${path ? `an object with a \`${path}\` list` : 'a list'}: ${describe(body)}`);
  return value;
}

// ---- The outbox ---------------------------------------------------------------------------

const outboxFiles = (): string[] => readOutbox(outboxDir);

/**
 * The token (`token=` of its link) of the newest e-mail to `address` that carries one and
 * was not in the outbox before (`before`: its files then), waiting up to MAIL_WAIT_MS for it.
 */
async function mailedToken(step: number, address: string, before: ReadonlySet<string>): Promise<string> {
  const token = await tokenMailed(outboxDir, address, before, MAIL_WAIT_MS);
  if (token !== undefined) return token;
  throw new Misbehaved(
    `step ${step}: no e-mail to ${address} carrying token= reached ${shown(outboxDir)} within ${MAIL_WAIT_MS / 1000} s.\n` +
      `Is DATA_DIR the running API's data folder (the DATA_DIR npm start runs on), and its mail transport the outbox?`,
  );
}

// ---- The remembered account ---------------------------------------------------------------

interface Account {
  tenantId: string;
  email: string;
  password: string;
}

function rememberedAccount(): Account | undefined {
  try {
    const saved: unknown = JSON.parse(readFileSync(accountFile, 'utf8'));
    if (isObject(saved) && typeof saved.tenantId === 'string' && typeof saved.email === 'string' && typeof saved.password === 'string') {
      return { tenantId: saved.tenantId, email: saved.email, password: saved.password };
    }
  } catch {
    // None, or unreadable: as none.
  }
  return undefined;
}

/** Written whole, so that a run stopped half-way leaves the previous file or this one. */
function remember(account: Account): void {
  mkdirSync(dataDir, { recursive: true });
  const partial = `${accountFile}.${process.pid}`;
  writeFileSync(partial, `${JSON.stringify({ ...account, baseUrl, savedAt: new Date().toISOString() }, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, accountFile);
}

// ---- The walkthrough ----------------------------------------------------------------------

async function walkthrough(): Promise<Account> {
  const suffix = randomBytes(4).toString('hex');
  say(`Walkthrough of ${baseUrl} (e-mails from ${shown(outboxDir)})`);

  // 1. Sign up: a public route; its administrator is invited by e-mail.
  const email = `ana.${suffix}@example.com`;
  const password = `walkthrough ${suffix} password`;
  const tenantName = `loja-da-ana-${suffix}`;
  const mailsBefore = new Set(outboxFiles());
  const tenantId = await unlessLimited(async () => {
    const answer = await call(1, 'sign up a tenant', 'POST', '/tenants', 201, {
      body: { name: tenantName, brandName: 'Loja da Ana', plan: 'STARTER', adminEmail: email },
    });
    const id = field(1, 'sign up a tenant', answer.body, 'id', 'string');
    detail(`tenant ${id} (${tenantName}), administrator ${email}`);
    return id;
  });

  // 2. Register the administrator with the invitation's token (both cookies land in the jar),
  //    or, when the sign-up was rate-limited, log into the last run's account.
  let account: Account;
  if (tenantId !== undefined) {
    const token = await mailedToken(2, email, mailsBefore);
    const registered = await unlessLimited(() =>
      call(2, 'register the administrator', 'POST', '/auth/register', 200, { body: { name: 'Ana', email, password, tenantId, invitationToken: token } }),
    );
    if (!registered) throw new Stop('Without a registered account nothing further can run: try again when the limit ends.');
    detail(`user ${field(2, 'register the administrator', registered.body, 'user.id', 'string')}, signed in (token from the invitation e-mail)`);
    account = { tenantId, email, password };
    remember(account);
  } else {
    const remembered = rememberedAccount();
    if (!remembered)
      throw new Stop(`No earlier run's account in ${shown(accountFile)} to continue with: the walkthrough stops here. Run it again when the limit ends.`);
    say(`   continuing with the last run's account ${remembered.email} (tenant ${remembered.tenantId}), from ${shown(accountFile)}`);
    account = remembered;
    const signedIn = await send('POST', '/auth/login', { body: { email: account.email, password: account.password } });
    if (signedIn.status === 429) {
      rateLimitedLine(2, "log in to the last run's account", signedIn);
      throw new Stop('Without a session nothing further can run: try again when the limit ends.');
    }
    // 401: the account is gone (the API's store was reset), which is no misbehaviour either.
    stepLine(2, "log in to the last run's account", 'POST', '/auth/login', signedIn.status, signedIn.status === 200 || signedIn.status === 401);
    if (signedIn.status === 401)
      throw new Stop(
        `The account in ${shown(accountFile)} no longer signs in (its API's store was reset?): nothing further can run until the sign-up limit ends.`,
      );
    if (signedIn.status !== 200)
      throw new Misbehaved(`step 2 (log in to the last run's account): POST /auth/login answered ${signedIn.status}, not 200: ${describe(signedIn.body)}`);
    if (isObject(signedIn.body) && signedIn.body.mfaRequired === true)
      throw new Stop(`The account ${account.email} now asks for a second factor: the walkthrough does not go past it.`);
    detail(`user ${field(2, "log in to the last run's account", signedIn.body, 'user.id', 'string')}, signed in`);
  }

  // 3. Who am I: the access cookie goes along.
  await unlessLimited(async () => {
    const me = await call(3, 'who am I', 'GET', '/auth/me', 200);
    const shownEmail = field(3, 'who am I', me.body, 'email', 'string');
    if (shownEmail !== account.email) throw new Misbehaved(`step 3 (who am I): GET /auth/me names ${shownEmail}, not ${account.email}: ${describe(me.body)}`);
    detail(`${field(3, 'who am I', me.body, 'name', 'string')} <${shownEmail}>, tenant ${field(3, 'who am I', me.body, 'tenantId', 'string')}`);
  });

  // 4. A company: a CNPJ unique across the whole service, so a generated one.
  await unlessLimited(async () => {
    const document = cnpj.generate();
    const created = await call(4, 'create a company', 'POST', '/companies', 201, {
      body: {
        name: `Loja da Ana Centro ${suffix}`,
        document,
        email: `fiscal.${suffix}@example.com`,
        address: { street: 'Avenida Paulista', number: '1000', city: 'São Paulo', state: 'SP', zipCode: '01310-100' },
      },
    });
    const companyId = field(4, 'create a company', created.body, 'id', 'string');
    detail(`company ${companyId}, CNPJ ${cnpj.format(document)}, ${field(4, 'create a company', created.body, 'taxRegime', 'string')}`);
    const listed = await call(4, 'list companies', 'GET', '/companies', 200);
    const companies = list(4, 'list companies', listed.body);
    if (!companies.some((company) => company.id === companyId))
      throw new Misbehaved(`step 4 (list companies): GET /companies does not list the company just created (${companyId}): ${describe(listed.body)}`);
    detail(`${companies.length} ${companies.length === 1 ? 'company' : 'companies'}, the new one included`);
  });

  // 5. A supplier, found again by a part of its name.
  await unlessLimited(async () => {
    const name = `Distribuidora São Jorge ${suffix}`;
    const created = await call(5, 'create a supplier', 'POST', '/suppliers', 201, {
      body: { name, corporateName: `${name} Ltda`, document: cpf.generate(), email: `compras.${suffix}@example.com` },
    });
    const supplierId = field(5, 'create a supplier', created.body, 'id', 'string');
    detail(`supplier ${supplierId}, ${name}, document ${field(5, 'create a supplier', created.body, 'document', 'string')}`);
    const path = `/suppliers?search=${encodeURIComponent(suffix)}`;
    const found = await call(5, 'search suppliers', 'GET', path, 200);
    const matches = list(5, 'search suppliers', found.body, 'data');
    if (!matches.some((supplier) => supplier.id === supplierId))
      throw new Misbehaved(`step 5 (search suppliers): GET ${path} does not find the supplier just created (${supplierId}): ${describe(found.body)}`);
    detail(`found ${name} (${field(5, 'search suppliers', found.body, 'total', 'number')} match)`);
  });

  // 6. Stock: a warehouse, a product, a purchase (IN, at a unit cost) and a sale.
  const sku = `CAFE-${suffix}`;
  const productId = await unlessLimited(async () => {
    const warehouse = await call(6, 'create a warehouse', 'POST', '/inventory/warehouses', 201, { body: { name: `Armazém Central ${suffix}` } });
    const warehouseId = field(6, 'create a warehouse', warehouse.body, 'id', 'string');
    detail(`warehouse ${warehouseId}`);
    const product = await call(6, 'create a product', 'POST', '/inventory/products', 201, { body: { sku, name: `Café 500g ${suffix}` } });
    const id = field(6, 'create a product', product.body, 'id', 'string');
    detail(`product ${id}, SKU ${sku}`);
    const move = async (what: string, body: Json, quantity: number) => {
      const answer = await call(6, what, 'POST', '/inventory/movements', 201, { body: { productId: id, warehouseId, ...body } });
      const balance = field(6, what, answer.body, 'balance.quantity', 'number');
      const average = field(6, what, answer.body, 'balance.averageCost', 'number');
      if (balance !== quantity) throw new Misbehaved(`step 6 (${what}): the balance after it is ${balance}, not ${quantity}: ${describe(answer.body)}`);
      detail(`balance ${balance} units, average cost ${average.toFixed(2)}`);
    };
    await move('record a purchase (IN 10 at 12.50)', { type: 'IN', quantity: 10, unitCost: 12.5 }, 10);
    await move('record a sale (SALE 3)', { type: 'SALE', quantity: 3 }, 7);
    return id;
  });

  // 7. The coverage dashboard: how long the stock lasts at the last 30 days' sales.
  if (productId === undefined) skipped(7, 'read the stock coverage', 'no product: step 6 was rate-limited');
  else {
    await unlessLimited(async () => {
      const coverage = await call(7, 'read the stock coverage', 'GET', '/inventory/dashboard/coverage', 200);
      const items = list(7, 'read the stock coverage', coverage.body);
      const item = items.find((candidate) => candidate.productId === productId);
      if (!item) throw new Misbehaved(`step 7 (read the stock coverage): the dashboard has no line for the product ${productId}: ${describe(coverage.body)}`);
      const available = field(7, 'read the stock coverage', item, 'availableQuantity', 'number');
      if (available !== 7) throw new Misbehaved(`step 7 (read the stock coverage): ${sku} shows ${available} available, not 7: ${describe(item)}`);
      const days = item.estimatedCoverageDays;
      detail(
        `${items.length} ${items.length === 1 ? 'product' : 'products'}; ${sku}: ${available} available, ${String(item.averageDailySales)} sold a day, ${typeof days === 'number' ? `${days} days of cover` : "no cover estimate yet (today's sale counts once the day is over)"}`,
      );
    });
  }

  // 8. The session: refresh it, log out (the old access cookie then gets 401), log in again.
  await unlessLimited(() => call(8, 'refresh the session', 'POST', '/auth/refresh', 200));
  const oldAccess = session.value(ACCESS_COOKIE);
  await unlessLimited(async () => {
    await call(8, 'log out', 'POST', '/auth/logout', 200);
    if (session.value(ACCESS_COOKIE) !== undefined) throw new Misbehaved('step 8 (log out): POST /auth/logout did not clear the access cookie');
  });
  if (oldAccess === undefined) skipped(8, 'the old access cookie', 'no access cookie to try');
  else {
    await unlessLimited(async () => {
      const me = await call(8, 'the old access cookie after logout', 'GET', '/auth/me', 401, { cookie: `${ACCESS_COOKIE}=${oldAccess}` });
      detail(`refused: ${isObject(me.body) && typeof me.body.title === 'string' ? me.body.title : describe(me.body)}`);
    });
  }
  session.clear();
  await unlessLimited(async () => {
    const login = await call(8, 'log in again', 'POST', '/auth/login', 200, { body: { email: account.email, password: account.password, rememberMe: true } });
    detail(`signed in as ${field(8, 'log in again', login.body, 'user.email', 'string')}`);
  });

  // 9. A forgotten password: the e-mailed token sets a new one (and signs every session out).
  const newPassword = `walkthrough ${suffix} new password`;
  const resetMailsBefore = new Set(outboxFiles());
  const requested = await unlessLimited(async () => {
    const answer = await call(9, 'forgot-password', 'POST', '/auth/forgot-password', 200, { body: { email: account.email } });
    detail(field(9, 'forgot-password', answer.body, 'message', 'string'));
    return true;
  });
  if (!requested) {
    skipped(9, 'reset-password', 'no reset e-mail: forgot-password was rate-limited');
    skipped(9, 'log in with the new password', 'the password is unchanged');
    return account;
  }
  const token = await mailedToken(9, account.email, resetMailsBefore);
  const reset = await unlessLimited(async () => {
    const answer = await call(9, 'reset-password', 'POST', '/auth/reset-password', 200, { body: { token, newPassword } });
    detail(`${field(9, 'reset-password', answer.body, 'message', 'string')} (token from the reset e-mail)`);
    return true;
  });
  if (!reset) {
    skipped(9, 'log in with the new password', 'the password is unchanged');
    return account;
  }
  account = { ...account, password: newPassword };
  remember(account);
  session.clear();
  await unlessLimited(async () => {
    const login = await call(9, 'log in with the new password', 'POST', '/auth/login', 200, { body: { email: account.email, password: newPassword } });
    detail(`signed in as ${field(9, 'log in with the new password', login.body, 'user.email', 'string')}`);
  });
  return account;
}

/** What to add to "No API at": the API npm start announced for DATA_DIR, when it is elsewhere. */
function runningElsewhere(): string {
  const running = readRuntimeInfo(dataDir);
  if (!running || running.apiUrl.replace(/\/+$/, '') === baseUrl) return '';
  return `\n(npm start on DATA_DIR=${shown(dataDir)} listens on ${running.apiUrl}: BASE_URL=${running.apiUrl} npm run walkthrough)`;
}

async function main(): Promise<number> {
  try {
    new URL(baseUrl);
  } catch {
    console.error(`BASE_URL is not a URL: ${baseUrl}`);
    return 2;
  }
  try {
    const account = await walkthrough();
    remember(account);
    say(
      green(
        `Done: every step answered as documented${rateLimited > 0 ? ` (${rateLimited} rate-limited, skipped with what depends on ${rateLimited === 1 ? 'it' : 'them'})` : ''}.`,
      ),
    );
    say(`The account: ${account.email} / ${account.password} (tenant ${account.tenantId}), kept in ${shown(accountFile)}`);
    return 0;
  } catch (error) {
    if (error instanceof Stop) {
      say(yellow(error.message));
      return 0;
    }
    if (error instanceof Unreachable) {
      console.error(red(`No API at ${baseUrl}: start it with npm start`));
      console.error(dim(`(${error.message})`) + runningElsewhere());
      return 1;
    }
    if (error instanceof Misbehaved) {
      console.error(red(`Walkthrough failed at ${error.message}`));
      return 1;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
