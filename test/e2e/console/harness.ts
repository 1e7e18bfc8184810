import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { freePort } from '../../../local/dynamodb-local';
import { startLocalApi, type LocalApi } from '../../../tools/local-api';

/**
 * What every console flow test shares: `npm start` on a fresh data folder (the console at
 * /console/ beside the API, one origin), Debian's Chromium in a given language, an axe scan
 * of each page, screenshots as artifacts (test-results/console/<language>/), the e-mails of
 * the local outbox, and a tenant with its administrator made through the API itself.
 *
 * The flows run in both languages: `pt-BR` (the default) and `en` (a browser that prefers English).
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const SCREENSHOTS = join('test-results', 'console');
export const PASSWORD = 'correct horse battery staple';

export type Language = 'pt-BR' | 'en';
export const LANGUAGES: readonly Language[] = ['pt-BR', 'en'];
/** The browser's language list for each console language. */
const BROWSER_LOCALE: Record<Language, string> = { 'pt-BR': 'pt-BR', en: 'en-US' };

export interface ConsoleServer {
  /** The origin of the API and the console, e.g. http://127.0.0.1:41234 */
  origin: string;
  /** http://127.0.0.1:<port>/console */
  consoleUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

/** `npm start` (without watching) on a fresh data folder and a free port; its own origin allowed. */
export async function startConsole(): Promise<ConsoleServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-console-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const api: LocalApi = await startLocalApi({ dataDir, inMemory: false, port, allowedOrigins: `${origin},http://localhost:${port}` });
  return {
    origin,
    consoleUrl: `${origin}/console`,
    dataDir,
    stop: async () => {
      await api.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let browser: Browser | undefined;

/** One Chromium for the test file. */
export async function launchBrowser(): Promise<Browser> {
  browser ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  return browser;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}

/** A fresh browser profile whose preferred language is `language` (navigator.languages and Accept-Language). */
export async function newContext(language: Language): Promise<BrowserContext> {
  const target = await launchBrowser();
  return target.newContext({ locale: BROWSER_LOCALE[language], viewport: { width: 1280, height: 900 }, timezoneId: 'America/Sao_Paulo' });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core on the page as it is now: no serious or critical violation (WCAG 2.x A and AA rules).
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => ({ target: node.target })) }));
  });
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(serious, `axe on ${what}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/** A full-page screenshot, test-results/console/<language>/<flow>-<step>.png. */
export async function screenshot(page: Page, language: Language, flow: string, step: string): Promise<void> {
  const folder = join(SCREENSHOTS, language);
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${flow}-${step}.png`), fullPage: true });
}

/** The screenshot and the axe scan of a page a flow reached. */
export async function checkpoint(page: Page, language: Language, flow: string, step: string): Promise<void> {
  await screenshot(page, language, flow, step);
  await expectAccessible(page, `${flow} ${step} (${language})`);
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
}

/** The newest e-mail to `address` whose text holds a console link with a token, and that link. */
export function mailedLink(dataDir: string, address: string, page: 'register' | 'reset-password'): URL {
  const outbox = join(dataDir, 'outbox');
  const files = readdirSync(outbox)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .reverse();
  for (const file of files) {
    const mail = JSON.parse(readFileSync(join(outbox, file), 'utf8')) as OutboxMail;
    if (mail.to !== address) continue;
    const link = new RegExp(`https?://\\S+/console/${page}\\?\\S+`).exec(mail.text)?.[0];
    if (link) return new URL(link);
  }
  throw new Error(`no e-mail to ${address} with a /console/${page} link`);
}

/** A JSON call to the API from the test itself (no Origin header, as a server integration calls). */
export async function apiCall<T = unknown>(
  server: ConsoleServer,
  method: string,
  path: string,
  body?: unknown,
  cookie?: string,
): Promise<{ status: number; body: T; headers: Headers }> {
  const response = await fetch(`${server.origin}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...(cookie ? { Cookie: cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

export interface Tenant {
  tenantId: string;
  adminEmail: string;
  password: string;
  /** The administrator's session cookie, for seeding data through the API. */
  cookie: string;
}

let tenants = 0;

/**
 * A tenant signed up through the API, its administrator's account opened with the e-mailed
 * invitation, and signed in: what the sign-up flow does by hand, for the flows that start
 * signed in.
 */
export async function createTenant(server: ConsoleServer, label: string): Promise<Tenant> {
  tenants += 1;
  const suffix = `${Date.now().toString(36)}${tenants}`;
  const adminEmail = `admin-${suffix}@example.com`;
  const created = await apiCall<{ id: string }>(server, 'POST', '/tenants', {
    name: `${label.toLowerCase()}-${suffix}`,
    brandName: label,
    plan: 'STARTER',
    adminEmail,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const link = mailedLink(server.dataDir, adminEmail, 'register');
  const registered = await apiCall(server, 'POST', '/auth/register', {
    name: 'Ana Admin',
    email: adminEmail,
    password: PASSWORD,
    tenantId: link.searchParams.get('tenantId'),
    invitationToken: link.searchParams.get('token'),
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(200);
  return { tenantId: created.body.id, adminEmail, password: PASSWORD, cookie: await signInCookie(server, adminEmail, PASSWORD) };
}

/** The access cookie of a fresh API sign-in, for seeding through the API. */
export async function signInCookie(server: ConsoleServer, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.origin}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(response.status).toBe(200);
  const access = response.headers.getSetCookie().find((line) => line.startsWith('accessToken='));
  if (!access) throw new Error('no access cookie');
  return access.split(';')[0] ?? '';
}

/** Removes the screenshots of earlier runs of one flow. */
export function resetScreenshots(flow: string): void {
  for (const language of LANGUAGES) {
    const folder = join(SCREENSHOTS, language);
    mkdirSync(folder, { recursive: true });
    for (const file of readdirSync(folder)) if (file.startsWith(`${flow}-`)) rmSync(join(folder, file));
  }
}
