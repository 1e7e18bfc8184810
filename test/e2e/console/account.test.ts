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
  signInCookie,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { AccountPage } from './pages/account-page';
import { SignInPage } from './pages/sign-in-page';

/** My account: the sessions (ending the others signs a second browser out), changing the password, turning the second factor on and off. */
const FLOW = 'account';
const NEW_PASSWORD = 'another fine passphrase 7';

let server: ConsoleServer;
const tenants: Partial<Record<string, Tenant>> = {};

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  for (const language of LANGUAGES) tenants[language] = await createTenant(server, `Account-${language}`);
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('account (%s)', (language) => {
  it('lists the sessions and ends the others, which sends the other browser to sign-in', async () => {
    const tenant = tenants[language]!;
    const context = await newContext(language);
    const page = await context.newPage();
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/account');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/account`);
    const account = new AccountPage(page, language, server.consoleUrl);
    await account.heading(account.t.title).waitFor();
    const current = account.sessionRows.filter({ hasText: account.t.thisSession });
    await current.waitFor();
    await checkpoint(page, language, FLOW, '1-sessions');

    const other = await newContext(language);
    const otherPage = await other.newPage();
    const otherSignIn = new SignInPage(otherPage, language, server.consoleUrl);
    await otherSignIn.open('/suppliers');
    await otherSignIn.signIn(tenant.adminEmail, tenant.password);
    await otherPage.waitForURL(`${server.consoleUrl}/suppliers`);

    await page.reload();
    // This browser's session, the other browser's and the one the harness opened through the API.
    await expect.poll(() => account.sessionRows.count()).toBeGreaterThanOrEqual(2);
    const before = await account.sessionRows.count();
    await account.revokeOthers();
    await expect.poll(() => account.sessions.getByRole('status').textContent()).toBe(account.t.revokedOthers(before - 1));
    await expect.poll(() => account.sessionRows.count()).toBe(1);
    await checkpoint(page, language, FLOW, '2-others-ended');

    await otherPage.goto(`${server.consoleUrl}/companies`);
    await otherPage.waitForURL(/\/console\/sign-in\?next=%2Fcompanies$/);
    await other.close();
    await context.close();
  });

  it('changes the password, showing the server’s field error first', async () => {
    const tenant = tenants[language]!;
    const context = await newContext(language);
    const page = await context.newPage();
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/account');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/account`);
    const account = new AccountPage(page, language, server.consoleUrl);
    // The product promises this English name for the button.
    if (language === 'en') await page.getByRole('button', { name: 'Change password', exact: true }).waitFor();

    await account.changePassword('not my password', NEW_PASSWORD);
    const currentField = account.password.getByLabel(account.t.currentPassword, { exact: true });
    await expect.poll(() => currentField.getAttribute('aria-invalid')).toBe('true');
    await checkpoint(page, language, FLOW, '3-password-refused');

    await account.changePassword(tenant.password, NEW_PASSWORD);
    await expect.poll(() => account.password.getByRole('status').textContent()).toBe(account.t.passwordChanged);
    await checkpoint(page, language, FLOW, '4-password-changed');
    tenant.password = NEW_PASSWORD;
    // The new password signs in; the old one no longer does.
    const old = await apiCall(server, 'POST', '/auth/login', { email: tenant.adminEmail, password: 'correct horse battery staple' });
    expect(old.status).toBe(401);
    tenant.cookie = await signInCookie(server, tenant.adminEmail, NEW_PASSWORD);
    await context.close();
  });

  it('turns the second factor on (QR code, key, recovery codes) and off again with a recovery code', async () => {
    const tenant = tenants[language]!;
    const context = await newContext(language);
    const page = await context.newPage();
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/account');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/account`);
    const account = new AccountPage(page, language, server.consoleUrl);

    await account.startEnrolment(tenant.password);
    await account.qrCode.waitFor();
    expect(await account.qrCode.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    const secret = await account.secret();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await checkpoint(page, language, FLOW, '5-scan');

    await account.confirmEnrolment(codeAt(secret, Date.now()));
    await expect.poll(() => account.recoveryCodes.count()).toBe(10);
    expect(await account.secondFactor.getByText(account.t.recoveryInstruction).count()).toBe(1);
    const codes = await account.recoveryCodes.allTextContents();
    await checkpoint(page, language, FLOW, '6-recovery-codes');

    // A sign-in now asks for the second factor.
    const login = await apiCall<{ mfaRequired?: boolean }>(server, 'POST', '/auth/login', { email: tenant.adminEmail, password: tenant.password });
    expect(login.body.mfaRequired).toBe(true);

    await account.secondFactor.getByRole('button', { name: account.t.recoveryStored, exact: true }).click();
    await account.turnOff(codes[0]!);
    await expect.poll(() => account.secondFactor.getByRole('status').textContent()).toBe(account.t.mfaDisabled);
    await checkpoint(page, language, FLOW, '7-turned-off');
    const after = await apiCall<{ mfaRequired?: boolean }>(server, 'POST', '/auth/login', { email: tenant.adminEmail, password: tenant.password });
    expect(after.status).toBe(200);
    expect(after.body.mfaRequired).toBeUndefined();
    await context.close();
  });
});
