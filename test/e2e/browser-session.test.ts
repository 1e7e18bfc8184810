import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cnpj } from 'cpf-cnpj-validator';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT, type JWK } from 'jose';
import { chromium, type Browser, type BrowserContext, type Cookie, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../lib/auth/totp';
import { createContractValidator } from '../../tools/openapi/contract';
import { buildOpenApiDocument } from '../../tools/openapi/document';
import { startLocalApi, type LocalApi } from '../../tools/local-api';
import type { CallOptions } from './client-entry';
import { bundleClient, clientPage, startPageServer, type CallResult, type ClientGlobal, type PageServer } from './client-page';

/**
 * The cookie flow in a real browser (Debian's Chromium driven by playwright-core), through the
 * typed client (clients/typescript, bundled for the page by esbuild): a page served from an
 * allowed origin signs up (the administrator's account opened with the token of the sign-up's
 * e-mail), reads /auth/me, cannot see the HttpOnly cookies, creates a company,
 * survives an expired access token and a missing one by refreshing on 401 (parallel calls
 * sharing one refresh), logs out and is refused; pages from origins that are not allowed read
 * nothing the API answers with data.
 *
 * Origins: the API on http://localhost:<api>; the client on http://localhost:<client>
 * (allowed; same site, so SameSite=Strict cookies travel with its fetches); a sibling on
 * http://localhost:<sibling> (same site, not allowed); and http://127.0.0.1:<foreign>
 * (another site, not allowed). Screenshots of every step go to test-results/e2e/.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
const SCREENSHOTS = join('test-results', 'e2e');
const PASSWORD = 'correct horse battery staple';

const contract = createContractValidator(buildOpenApiDocument());

let api: LocalApi;
let dataDir: string;
let apiBase: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** The allowed client's origin, a same-site sibling and another site (see above). */
const servers = {} as Record<'client' | 'sibling' | 'foreign', PageServer>;
let shot = 0;

async function screenshot(target: Page, name: string): Promise<void> {
  shot += 1;
  await target.screenshot({ path: join(SCREENSHOTS, `${String(shot).padStart(2, '0')}-${name}.png`), fullPage: true });
}

/** The token of the newest e-mail to `address` that carries one (the local API's outbox). */
function invitationToken(address: string): string {
  const outbox = join(dataDir, 'outbox');
  const messages = readdirSync(outbox)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .reverse()
    .map((file) => JSON.parse(readFileSync(join(outbox, file), 'utf8')) as { to: string; text: string });
  const token = messages.map((message) => (message.to === address ? /[?&]token=([\w-]+)/.exec(message.text)?.[1] : undefined)).find(Boolean);
  if (!token) throw new Error(`no e-mail with a token to ${address}`);
  return token;
}

/**
 * One API call made by a page's script (`probe`: one bare request, no refresh on 401);
 * every answer the page could read is held to the OpenAPI document.
 */
async function callFrom(target: Page, method: string, path: string, body?: unknown, mode: 'call' | 'probe' = 'call'): Promise<CallResult> {
  // The callbacks run in the page, where globalThis is the window that holds `client`.
  const result = await target.evaluate(([how, m, p, b]) => (globalThis as unknown as ClientGlobal).client[how](m, p, b), [mode, method, path, body] as const);
  if (result.ok) {
    const violation = contract.check({ method, path: path.split('?')[0] ?? path, status: result.status, contentType: result.contentType, body: result.body });
    expect(violation, `${method} ${path}`).toBeUndefined();
  }
  return result;
}

/** Several calls at once from the page; every answer is held to the OpenAPI document. */
async function parallelFrom(
  target: Page,
  calls: [method: string, path: string, body?: unknown, options?: CallOptions][],
): Promise<{ results: CallResult[]; trail: string[] }> {
  const batch = await target.evaluate((list) => (globalThis as unknown as ClientGlobal).client.parallel(list), calls);
  batch.results.forEach((result, index) => {
    const [method, path] = calls[index] ?? [];
    if (result.ok)
      expect(
        contract.check({ method: method ?? '', path: path ?? '', status: result.status, contentType: result.contentType, body: result.body }),
        `${method} ${path}`,
      ).toBeUndefined();
  });
  return batch;
}

const expiredSessions = (target: Page) => target.evaluate(() => (globalThis as unknown as ClientGlobal).client.expiredSessions());

const note = (target: Page, text: string) => target.evaluate((line) => (globalThis as unknown as ClientGlobal).client.note(line), text);

const sessionCookies = async (): Promise<Record<string, Cookie>> =>
  // The refresh cookie's path is /auth: ask for the cookies an /auth URL gets, which are both.
  Object.fromEntries(
    (await context.cookies(`${apiBase}/auth/`))
      .filter((cookie) => ['accessToken', 'refreshToken'].includes(cookie.name))
      .map((cookie) => [cookie.name, cookie]),
  );

/** A properly signed access token for the same session, expired a minute ago. */
async function expiredCopyOf(accessToken: string): Promise<string> {
  const keys = JSON.parse(readFileSync(join(dataDir, 'keys.json'), 'utf8')) as { signing: JWK };
  const header = decodeProtectedHeader(accessToken);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...decodeJwt(accessToken), iat: now - 960, exp: now - 60 })
    .setProtectedHeader({ alg: 'ES256', typ: header.typ, kid: header.kid })
    .sign(await importJWK(keys.signing, 'ES256'));
}

async function setAccessCookie(value: string): Promise<void> {
  await context.addCookies([{ name: 'accessToken', value, domain: 'localhost', path: '/', httpOnly: true, secure: true, sameSite: 'Strict' }]);
}

const problem = (status: number, type: string) =>
  expect.objectContaining({
    type: `https://problems.backoffice.dev/${type}`,
    status,
    title: expect.any(String),
    detail: expect.any(String),
    requestId: expect.any(String),
  });

beforeAll(async () => {
  rmSync(SCREENSHOTS, { recursive: true, force: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
  const clientScript = await bundleClient();
  servers.client = await startPageServer(clientScript);
  servers.sibling = await startPageServer(clientScript);
  servers.foreign = await startPageServer(clientScript);
  dataDir = mkdtempSync(join(tmpdir(), 'backoffice-e2e-'));
  api = await startLocalApi({ dataDir, inMemory: true, allowedOrigins: `http://localhost:${servers.client.port}` });
  apiBase = api.url.replace('127.0.0.1', 'localhost');
  servers.client.setPage(clientPage(apiBase, 'Back-office client (allowed origin)'));
  servers.sibling.setPage(clientPage(apiBase, 'Sibling page (same site, origin not allowed)'));
  servers.foreign.setPage(clientPage(apiBase, 'Foreign page (another site, origin not allowed)'));

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  page = await context.newPage();
  await page.goto(`http://localhost:${servers.client.port}/`);
});

afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await Promise.all(Object.values(servers).map((server) => server.close()));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a browser client on an allowed origin', () => {
  let tenantId: string;
  let userId: string;
  const email = `ana.${Date.now()}@example.com`;
  const document = cnpj.generate();

  it('creates a tenant and registers its first account with the e-mailed token, which sets both cookies', async () => {
    await note(page, '1. Sign up: POST /tenants with adminEmail, then POST /auth/register with the token of the e-mail');
    const tenant = await callFrom(page, 'POST', '/tenants', { name: `e2e-${Date.now()}`, plan: 'STARTER', adminEmail: email });
    expect(tenant).toEqual(expect.objectContaining({ ok: true, status: 201, contentType: 'application/json' }));
    tenantId = (tenant as { body: { id: string } }).body.id;

    const registered = await callFrom(page, 'POST', '/auth/register', {
      name: 'Ana',
      email,
      password: PASSWORD,
      tenantId,
      invitationToken: invitationToken(email),
    });
    expect(registered).toEqual(expect.objectContaining({ ok: true, status: 200, body: { user: { id: expect.any(String), name: 'Ana', email, tenantId } } }));
    userId = (registered as { body: { user: { id: string } } }).body.user.id;

    const cookies = await sessionCookies();
    expect(cookies.accessToken).toEqual(expect.objectContaining({ domain: 'localhost', path: '/', httpOnly: true, secure: true, sameSite: 'Strict' }));
    expect(cookies.refreshToken).toEqual(expect.objectContaining({ domain: 'localhost', path: '/auth', httpOnly: true, secure: true, sameSite: 'Strict' }));
    await screenshot(page, 'registered');
  });

  it('reads /auth/me with the cookies the browser sends', async () => {
    await note(page, '2. Who am I: GET /auth/me');
    const me = await callFrom(page, 'GET', '/auth/me');
    expect(me).toEqual({
      ok: true,
      status: 200,
      contentType: 'application/json',
      body: { id: userId, name: 'Ana', email, tenantId },
      statuses: [200],
      refresh: null,
    });
    await screenshot(page, 'me');
  });

  it('cannot see the session cookies from script', async () => {
    await note(page, '3. document.cookie cannot see accessToken or refreshToken (HttpOnly)');
    const visible = await page.evaluate(() => (globalThis as unknown as ClientGlobal).client.cookieText());
    expect(visible).not.toContain('accessToken');
    expect(visible).not.toContain('refreshToken');
    // The browser holds them all the same (the check above is not vacuous).
    expect(Object.keys(await sessionCookies()).sort()).toEqual(['accessToken', 'refreshToken']);
    await screenshot(page, 'cookies-hidden');
  });

  it('creates a company', async () => {
    await note(page, `4. POST /companies (CNPJ ${document})`);
    const company = await callFrom(page, 'POST', '/companies', { name: 'Loja Centro', document });
    expect(company).toEqual(
      expect.objectContaining({
        ok: true,
        status: 201,
        body: expect.objectContaining({
          tenantId,
          name: 'Loja Centro',
          document,
          status: 'ACTIVE',
          taxRegime: 'SIMPLES_NACIONAL',
          costMethod: 'WEIGHTED_AVERAGE',
          settings: {},
        }),
      }),
    );
    await screenshot(page, 'company');
  });

  it('survives an expired access token: 401, POST /auth/refresh, then the retry succeeds', async () => {
    await note(page, '5. The access token expires: the client refreshes on 401 and retries');
    const before = await sessionCookies();
    const expired = await expiredCopyOf(before.accessToken?.value ?? '');
    await setAccessCookie(expired);

    const companies = await callFrom(page, 'GET', '/companies');
    expect(companies).toEqual(
      expect.objectContaining({
        ok: true,
        status: 200,
        statuses: [401, 200],
        refresh: 200,
        body: [expect.objectContaining({ document, name: 'Loja Centro' })],
      }),
    );
    const after = await sessionCookies();
    expect(after.accessToken?.value).not.toBe(expired);
    expect(after.accessToken?.value).not.toBe(before.accessToken?.value);
    expect(after.refreshToken?.value).not.toBe(before.refreshToken?.value);
    await screenshot(page, 'refreshed');
  });

  it('survives a missing access cookie: parallel calls share one refresh, and each is retried once, a write with its body and Idempotency-Key', async () => {
    await note(page, '5b. The access cookie is gone: three calls at once, one POST /auth/refresh, three retries');
    const before = await sessionCookies();
    await context.clearCookies({ name: 'accessToken' });

    const { results, trail } = await parallelFrom(page, [
      ['GET', '/auth/me'],
      ['GET', '/companies'],
      ['POST', '/inventory/warehouses', { name: 'Depósito Central' }, { idempotent: true }],
    ]);

    // The call whose 401 came first started the refresh (its `refresh` is 200); the others waited for it.
    expect(results.map((result) => (result.ok ? { ...result, refresh: undefined } : result))).toEqual([
      { ok: true, status: 200, contentType: 'application/json', body: { id: userId, name: 'Ana', email, tenantId }, statuses: [401, 200], refresh: undefined },
      {
        ok: true,
        status: 200,
        contentType: 'application/json',
        body: [expect.objectContaining({ document, name: 'Loja Centro' })],
        statuses: [401, 200],
        refresh: undefined,
      },
      {
        ok: true,
        status: 201,
        contentType: 'application/json',
        body: expect.objectContaining({ name: 'Depósito Central' }),
        statuses: [401, 201],
        refresh: undefined,
      },
    ]);
    expect(results.map((result) => (result.ok ? result.refresh : undefined)).filter((status) => status !== null)).toEqual([200]);
    const [key, ...otherKeys] = new Set(trail.flatMap((exchange) => exchange.match(/ key=(.+)$/)?.[1] ?? []));
    expect({ key, otherKeys }).toEqual({ key: expect.stringMatching(/^[0-9a-f-]{36}$/), otherKeys: [] });
    expect([...trail].sort()).toEqual(
      [
        'GET /auth/me 401',
        'GET /companies 401',
        `POST /inventory/warehouses 401 key=${key}`,
        'POST /auth/refresh 200',
        'GET /auth/me 200',
        'GET /companies 200',
        `POST /inventory/warehouses 201 key=${key}`,
      ].sort(),
    );
    // Every retry left after the one refresh.
    const refreshedAt = trail.indexOf('POST /auth/refresh 200');
    expect(trail.slice(0, refreshedAt).every((exchange) => / 401( key=.+)?$/.test(exchange))).toBe(true);
    expect(await expiredSessions(page)).toBe(0);

    const after = await sessionCookies();
    expect(Object.keys(after).sort()).toEqual(['accessToken', 'refreshToken']);
    expect(after.refreshToken?.value).not.toBe(before.refreshToken?.value);
    await screenshot(page, 'refreshed-in-parallel');
  });

  it('logs out, and is then refused, also with the old access token', async () => {
    await note(page, '6. POST /auth/logout, then GET /auth/me is refused');
    const oldAccess = (await sessionCookies()).accessToken?.value ?? '';
    const loggedOut = await callFrom(page, 'POST', '/auth/logout');
    expect(loggedOut).toEqual({
      ok: true,
      status: 200,
      contentType: 'application/json',
      body: { message: expect.any(String) },
      statuses: [200],
      refresh: null,
    });
    expect(await sessionCookies()).toEqual({});

    const refused = await callFrom(page, 'GET', '/auth/me');
    expect(refused).toEqual({
      ok: true,
      status: 401,
      contentType: 'application/problem+json',
      body: problem(401, 'unauthorized'),
      statuses: [401],
      refresh: 401,
    });

    await setAccessCookie(oldAccess);
    const replayed = await callFrom(page, 'GET', '/auth/me');
    expect(replayed).toEqual(expect.objectContaining({ ok: true, status: 401, statuses: [401], refresh: 401 }));
    // Each refused refresh told the application once that the session is over.
    expect(await expiredSessions(page)).toBe(2);
    await context.clearCookies({ name: 'accessToken' });
    await screenshot(page, 'logged-out');
  });

  it('logs in again for the next steps', async () => {
    await note(page, '7. POST /auth/login');
    const loggedIn = await callFrom(page, 'POST', '/auth/login', { email, password: PASSWORD });
    expect(loggedIn).toEqual(expect.objectContaining({ ok: true, status: 200, body: { user: { id: userId, name: 'Ana', email, tenantId } } }));
    await screenshot(page, 'logged-in');
  });

  describe('pages from origins that are not allowed', () => {
    const refusedByCors = { ok: false, error: expect.stringMatching(/^TypeError: /) };

    it('a same-site sibling origin, whose fetches carry the session cookies, cannot read any response, and its writes are refused', async () => {
      const sibling = await context.newPage();
      await sibling.goto(`http://localhost:${servers.sibling.port}/`);
      await note(sibling, 'Same site, origin not allowed: every read fails with a TypeError');

      expect(await callFrom(sibling, 'GET', '/auth/me', undefined, 'probe')).toEqual(refusedByCors);
      expect(await callFrom(sibling, 'GET', '/companies', undefined, 'probe')).toEqual(refusedByCors);
      // A JSON POST needs a preflight, which the API does not grant: it is never sent.
      expect(await callFrom(sibling, 'POST', '/companies', { name: 'Intruder', document: cnpj.generate() }, 'probe')).toEqual(refusedByCors);
      // A body-less POST needs none: it reaches the API, which refuses it (CSRF, 403) unread.
      expect(await callFrom(sibling, 'POST', '/auth/refresh', undefined, 'probe')).toEqual(refusedByCors);
      expect(await callFrom(sibling, 'POST', '/auth/logout', undefined, 'probe')).toEqual(refusedByCors);
      await screenshot(sibling, 'sibling-origin-refused');
      await sibling.close();

      // Nothing changed: the allowed client's session lives and it still has one company.
      const companies = await callFrom(page, 'GET', '/companies');
      expect(companies).toEqual(expect.objectContaining({ ok: true, status: 200, statuses: [200], body: [expect.objectContaining({ document })] }));
    });

    it("another site cannot read any response, the gateway's own errors included", async () => {
      const foreign = await context.newPage();
      await foreign.goto(`http://127.0.0.1:${servers.foreign.port}/`);
      await note(foreign, 'Another site: SameSite=Strict keeps the cookies home, CORS keeps the answers');

      expect(await callFrom(foreign, 'POST', '/auth/login', { email, password: PASSWORD }, 'probe')).toEqual(refusedByCors);
      expect(await callFrom(foreign, 'POST', '/tenants', { name: `foreign-${Date.now()}`, plan: 'STARTER' }, 'probe')).toEqual(refusedByCors);
      expect(await callFrom(foreign, 'POST', '/auth/refresh', undefined, 'probe')).toEqual(refusedByCors);
      // No cookie travels cross-site, so the gateway answers 401 itself; gateway responses
      // grant CORS to the first allowed origin only (docs/decisions.md), so not to this page.
      expect(await callFrom(foreign, 'GET', '/auth/me', undefined, 'probe')).toEqual(refusedByCors);
      await screenshot(foreign, 'foreign-site-refused');
      await foreign.close();

      expect(await callFrom(page, 'GET', '/auth/me')).toEqual(expect.objectContaining({ ok: true, status: 200, statuses: [200] }));
    });
  });

  it('turns on a second factor, then signs in with the password, then the code page, then reads /auth/me', async () => {
    await note(page, '8. POST /auth/mfa/totp and /confirm: a second factor');
    const started = await callFrom(page, 'POST', '/auth/mfa/totp', { password: PASSWORD });
    expect(started).toEqual(expect.objectContaining({ ok: true, status: 200 }));
    const { secret, qrSvg } = (started as { body: { secret: string; qrSvg: string } }).body;
    expect(qrSvg.startsWith('<svg')).toBe(true);
    const confirmed = await callFrom(page, 'POST', '/auth/mfa/totp/confirm', { code: codeAt(secret, Date.now()) });
    expect(confirmed).toEqual(expect.objectContaining({ ok: true, status: 200, body: expect.objectContaining({ recoveryCodes: expect.any(Array) }) }));
    expect(await callFrom(page, 'POST', '/auth/logout')).toEqual(expect.objectContaining({ ok: true, status: 200 }));

    await note(page, '9. POST /auth/login: the password step answers mfaRequired and an HttpOnly challenge cookie');
    const first = await callFrom(page, 'POST', '/auth/login', { email, password: PASSWORD });
    expect(first).toEqual(expect.objectContaining({ ok: true, status: 200, body: { mfaRequired: true } }));
    expect(await sessionCookies()).toEqual({});
    const [challenge] = await context.cookies(`${apiBase}/auth/mfa/verify`);
    expect(challenge).toEqual(expect.objectContaining({ name: 'mfaChallenge', path: '/auth/mfa/verify', httpOnly: true, secure: true, sameSite: 'Strict' }));
    expect(await page.evaluate(() => (globalThis as unknown as ClientGlobal).client.cookieText())).not.toContain('mfaChallenge');
    await screenshot(page, 'password-step');

    await note(page, '10. The code page: POST /auth/mfa/verify with the authenticator code, then GET /auth/me');
    await page.goto(`http://localhost:${servers.client.port}/code`);
    const verified = await callFrom(page, 'POST', '/auth/mfa/verify', { code: codeAt(secret, Date.now() + 30_000) });
    expect(verified).toEqual(expect.objectContaining({ ok: true, status: 200, body: { user: expect.objectContaining({ id: userId, email }) } }));
    expect(Object.keys(await sessionCookies()).sort()).toEqual(['accessToken', 'refreshToken']);
    expect(await callFrom(page, 'GET', '/auth/me')).toEqual(expect.objectContaining({ ok: true, status: 200, statuses: [200] }));
    await screenshot(page, 'signed-in-with-second-factor');
  });
});

describe('the reference page (GET /docs)', () => {
  it('renders every operation of the document from local files only', async () => {
    const docs = await context.newPage();
    const requested: string[] = [];
    const errors: string[] = [];
    docs.on('request', (request) => requested.push(request.url()));
    docs.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    docs.on('pageerror', (error) => errors.push(error.message));

    await docs.goto(`${apiBase}/docs`);
    await docs.locator('.opblock').first().waitFor({ timeout: 20_000 });
    const operations = Object.values(buildOpenApiDocument().paths).reduce((count, item) => count + Object.keys(item).length, 0);

    expect(await docs.locator('.opblock').count()).toBe(operations);
    expect(await docs.locator('.info .title').textContent()).toContain('Back-office API');
    expect(await docs.locator('.info .title').textContent()).toContain('1.0.0');
    expect(requested.filter((url) => !url.startsWith(`${apiBase}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(errors).toEqual([]);
    await screenshot(docs, 'reference-page');
    await docs.close();
  });
});
