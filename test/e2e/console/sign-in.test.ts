import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpoint, closeBrowser, createTenant, LANGUAGES, newContext, resetScreenshots, startConsole, type ConsoleServer, type Tenant } from './harness';
import { ConsolePage } from './pages/console-page';
import { SignInPage } from './pages/sign-in-page';

/** Sign in (with remember me), land where the user was headed, sign out and be asked to sign in again. */
const FLOW = 'sign-in';

let server: ConsoleServer;
let tenant: Tenant;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  tenant = await createTenant(server, 'Sign-in');
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('sign in (%s)', (language) => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newContext(language);
  });
  afterAll(async () => {
    await context.close();
  });

  it('sends a visitor to sign-in, keeping the page asked for, and back there after signing in', async () => {
    const page = await context.newPage();
    await page.goto(`${server.consoleUrl}/suppliers`);
    await page.waitForURL(/\/console\/sign-in\?next=%2Fsuppliers$/);
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(language);
    await checkpoint(page, language, FLOW, '1-form');

    await signIn.signIn(tenant.adminEmail, 'not the password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBeTruthy();
    await checkpoint(page, language, FLOW, '2-refused');

    await signIn.password.fill(tenant.password);
    await signIn.rememberMe.check();
    await signIn.submit.click();
    await page.waitForURL(`${server.consoleUrl}/suppliers`);
    const frame = new ConsolePage(page, language, server.consoleUrl);
    await frame.signOutButton.waitFor();
    // Remember me: the refresh cookie outlives the browser session.
    const refresh = (await context.cookies(`${server.origin}/auth/`)).find((cookie) => cookie.name === 'refreshToken');
    expect(refresh?.expires).toBeGreaterThan(Date.now() / 1000 + 24 * 3600);

    await frame.signOut();
    await page.waitForURL(`${server.consoleUrl}/sign-in`);
    await page.goto(`${server.consoleUrl}/`);
    await page.waitForURL(/\/console\/sign-in/);
  });
});
