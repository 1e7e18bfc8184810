import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../../lib/auth/totp';
import {
  apiCall,
  checkpoint,
  closeBrowser,
  createTenant,
  LANGUAGES,
  newContext,
  resetScreenshots,
  startConsole,
  type ConsoleServer,
  type Language,
  type Tenant,
} from './harness';
import { ConsolePage } from './pages/console-page';
import { SignInPage } from './pages/sign-in-page';

/** A user with a second factor signs in with the authenticator's code, then again with a recovery code. */
const FLOW = 'second-factor';

let server: ConsoleServer;
const users: Partial<Record<Language, { tenant: Tenant; secret: string; recoveryCodes: string[] }>> = {};

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  for (const language of LANGUAGES) {
    const tenant = await createTenant(server, `Totp-${language}`);
    const started = await apiCall<{ secret: string }>(server, 'POST', '/auth/mfa/totp', { password: tenant.password }, tenant.cookie);
    expect(started.status).toBe(200);
    // The confirmation spends the code of this 30-second step; the sign-in below uses the next one.
    const confirmed = await apiCall<{ recoveryCodes: string[] }>(
      server,
      'POST',
      '/auth/mfa/totp/confirm',
      { code: codeAt(started.body.secret, Date.now()) },
      tenant.cookie,
    );
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    users[language] = { tenant, secret: started.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
  }
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

async function signedIn(page: Page, language: Language): Promise<ConsolePage> {
  await page.waitForURL(`${server.consoleUrl}/`);
  const frame = new ConsolePage(page, language, server.consoleUrl);
  await frame.signOutButton.waitFor();
  return frame;
}

describe.each(LANGUAGES)('second factor (%s)', (language) => {
  it('signs in with the authenticator’s code, then with a recovery code', async () => {
    const { tenant, secret, recoveryCodes } = users[language]!;
    const context = await newContext(language);
    const page = await context.newPage();
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open();
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await signIn.code.waitFor();
    await checkpoint(page, language, FLOW, '1-code');

    await signIn.verify('000000' === codeAt(secret, Date.now() + 30_000) ? '111111' : '000000');
    await expect.poll(() => page.getByRole('alert').textContent()).toBeTruthy();
    await checkpoint(page, language, FLOW, '2-wrong-code');

    await signIn.verify(codeAt(secret, Date.now() + 30_000));
    const frame = await signedIn(page, language);
    await checkpoint(page, language, FLOW, '3-signed-in');
    await frame.signOut();
    await page.waitForURL(`${server.consoleUrl}/sign-in`);

    await signIn.signIn(tenant.adminEmail, tenant.password);
    await signIn.code.waitFor();
    await page.getByRole('button', { name: signIn.t.useRecoveryCode }).click();
    await signIn.recoveryCode.waitFor();
    await checkpoint(page, language, FLOW, '4-recovery');
    await signIn.recoveryCode.fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: signIn.t.verify }).click();
    const again = await signedIn(page, language);

    // A recovery code works once: the same one is refused the next time.
    await again.signOut();
    await page.waitForURL(`${server.consoleUrl}/sign-in`);
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await signIn.verifyWithRecoveryCode(recoveryCodes[0]!);
    await expect.poll(() => page.getByRole('alert').textContent()).toBeTruthy();
    expect(page.url()).toBe(`${server.consoleUrl}/sign-in`);
    await checkpoint(page, language, FLOW, '5-recovery-code-spent');
    await context.close();
  });
});
