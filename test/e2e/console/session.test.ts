import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, importJWK, SignJWT, type JWK } from 'jose';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  checkpoint,
  closeBrowser,
  createTenant,
  LANGUAGES,
  newContext,
  resetScreenshots,
  signInCookie,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { ConsolePage } from './pages/console-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * The session behind the pages: an expired access token is refreshed by the typed client and
 * the page goes on; a session that ended (revoked from elsewhere) sends the user to sign-in,
 * and back to the same page afterwards.
 */
const FLOW = 'session';

let server: ConsoleServer;
let tenant: Tenant;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  tenant = await createTenant(server, 'Session');
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

/** A properly signed copy of an access token, expired a minute ago. */
async function expiredCopyOf(accessToken: string): Promise<string> {
  const keys = JSON.parse(readFileSync(join(server.dataDir, 'keys.json'), 'utf8')) as { signing: JWK };
  const header = decodeProtectedHeader(accessToken);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ ...decodeJwt(accessToken), iat: now - 960, exp: now - 60 })
    .setProtectedHeader({ alg: 'ES256', typ: header.typ, kid: header.kid })
    .sign(await importJWK(keys.signing, 'ES256'));
}

const accessCookie = async (context: BrowserContext) => (await context.cookies(server.origin)).find((cookie) => cookie.name === 'accessToken');

async function signIn(page: Page, language: (typeof LANGUAGES)[number], next: string): Promise<void> {
  const signInPage = new SignInPage(page, language, server.consoleUrl);
  await signInPage.open(next);
  await signInPage.signIn(tenant.adminEmail, tenant.password);
  await page.waitForURL(`${server.consoleUrl}${next}`);
}

describe.each(LANGUAGES)('the session (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    context = await newContext(language);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context.close();
  });

  it('refreshes an expired access token and keeps the page working', async () => {
    await signIn(page, language, '/companies');
    const before = await accessCookie(context);
    expect(before).toBeDefined();
    // Set as the server set it: host-only (a `url`, not a `domain`), so it replaces the live one.
    const { name, httpOnly, secure, sameSite } = before!;
    await context.addCookies([{ name, httpOnly, secure, sameSite, value: await expiredCopyOf(before!.value), url: `${server.origin}/` }]);
    expect((await context.cookies(server.origin)).filter((cookie) => cookie.name === 'accessToken')).toHaveLength(1);

    const refreshed = page.waitForResponse((response) => response.url().endsWith('/auth/refresh') && response.status() === 200);
    // The typed client sends the refused call again, once, with the browser's own fetch.
    const retried = page.waitForResponse((response) => response.url().endsWith('/auth/me') && response.status() === 200);
    await page.reload();
    await Promise.all([refreshed, retried]);
    const frame = new ConsolePage(page, language, server.consoleUrl);
    await frame.signOutButton.waitFor();
    expect(page.url()).toBe(`${server.consoleUrl}/companies`);
    expect((await accessCookie(context))?.value).not.toBe(before!.value);
    await checkpoint(page, language, FLOW, '1-refreshed');
  });

  it('goes back to sign-in when the session ends, and returns to the same page after', async () => {
    // The user's other sessions are revoked from another device: this one among them.
    const elsewhere = await signInCookie(server, tenant.adminEmail, tenant.password);
    const revoked = await apiCall<{ revoked: number }>(server, 'POST', '/auth/sessions/revoke-others', undefined, elsewhere);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked).toBeGreaterThanOrEqual(1);

    await page.goto(`${server.consoleUrl}/inventory`);
    await page.waitForURL(`${server.consoleUrl}/sign-in?next=%2Finventory`);
    await checkpoint(page, language, FLOW, '2-session-ended');
    const signInPage = new SignInPage(page, language, server.consoleUrl);
    await signInPage.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/inventory`);
    await new ConsolePage(page, language, server.consoleUrl).signOutButton.waitFor();
  });
});
