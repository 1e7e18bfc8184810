import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  checkpoint,
  closeBrowser,
  createTenant,
  LANGUAGES,
  mailedLink,
  newContext,
  resetScreenshots,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { ConsolePage } from './pages/console-page';
import { RecoveryPage } from './pages/recovery-page';
import { SignInPage } from './pages/sign-in-page';

/** Forgot the password → the e-mailed link → a new password → sign in with it (and not with the old one). */
const FLOW = 'password-reset';
const NEW_PASSWORD = 'a brand new passphrase 42';

let server: ConsoleServer;
const tenants: Partial<Record<string, Tenant>> = {};

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  for (const language of LANGUAGES) tenants[language] = await createTenant(server, `Reset-${language}`);
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('password reset (%s)', (language) => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newContext(language);
  });
  afterAll(async () => {
    await context.close();
  });

  it('mails a link, sets the new password through it, and signs in with the new password', async () => {
    const tenant = tenants[language]!;
    const page = await context.newPage();
    const recovery = new RecoveryPage(page, language, server.consoleUrl);
    await page.goto(`${server.consoleUrl}/sign-in`);
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await page.getByRole('link', { name: signIn.t.forgotPassword }).click();
    await page.waitForURL(`${server.consoleUrl}/forgot-password`);
    await recovery.heading(recovery.t.forgotTitle).waitFor();
    await checkpoint(page, language, FLOW, '1-forgot');

    await recovery.field(recovery.t.email).fill(tenant.adminEmail);
    await recovery.button(recovery.t.sendLink).click();
    await expect.poll(() => recovery.status.first().textContent()).toBe(recovery.t.forgotSent);
    await checkpoint(page, language, FLOW, '2-sent');

    // (The API allows 3 of these per hour per IP: one per language here.)
    const link = mailedLink(server.dataDir, tenant.adminEmail, 'reset-password');
    expect(link.origin).toBe(server.origin);
    await page.goto(link.toString());
    await recovery.heading(recovery.t.resetTitle).waitFor();
    await recovery.resetPassword(NEW_PASSWORD, `${NEW_PASSWORD}!`);
    await expect.poll(() => page.getByText(recovery.t.passwordMismatch).count()).toBe(1);
    await checkpoint(page, language, FLOW, '3-reset-mismatch');

    await recovery.resetPassword(NEW_PASSWORD);
    await expect.poll(() => recovery.status.first().textContent()).toBe(recovery.t.resetDone);
    await checkpoint(page, language, FLOW, '4-reset-done');

    // The link is single-use: the API refuses it now, and the page says so.
    const again = await apiCall(server, 'POST', '/auth/reset-password', { token: link.searchParams.get('token'), newPassword: 'yet another one 123' });
    expect(again.status).toBe(400);

    await page.getByRole('link', { name: recovery.t.goToSignIn }).click();
    await page.waitForURL(`${server.consoleUrl}/sign-in`);
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await expect.poll(() => page.getByRole('alert').textContent()).toBeTruthy();
    await signIn.password.fill(NEW_PASSWORD);
    await signIn.submit.click();
    await page.waitForURL(`${server.consoleUrl}/`);
    await new ConsolePage(page, language, server.consoleUrl).signOutButton.waitFor();
    await checkpoint(page, language, FLOW, '5-signed-in');
  });
});
