import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkpoint,
  closeBrowser,
  LANGUAGES,
  mailedLink,
  newContext,
  PASSWORD,
  resetScreenshots,
  signInCookie,
  apiCall,
  startConsole,
  type ConsoleServer,
} from './harness';
import { ConsolePage } from './pages/console-page';
import { RecoveryPage } from './pages/recovery-page';
import { messagesOf } from './pages/texts';

/** A company signs up → "check your e-mail" → the administrator opens the e-mailed link → creates the account → signed in. */
const FLOW = 'sign-up';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('sign up (%s)', (language) => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await newContext(language);
  });
  afterAll(async () => {
    await context.close();
  });

  it('signs a company up, suggesting its identifier, and opens the administrator account from the e-mail', async () => {
    const suffix = `${Date.now().toString(36)}${language === 'en' ? 'e' : 'p'}`;
    const adminEmail = `founder-${suffix}@example.com`;
    const page = await context.newPage();
    const recovery = new RecoveryPage(page, language, server.consoleUrl);
    await page.goto(`${server.consoleUrl}/sign-in`);
    await page.getByRole('link', { name: messagesOf('auth', language).signUpLink }).click();
    await page.waitForURL(`${server.consoleUrl}/sign-up`);
    await recovery.heading(recovery.t.signUpTitle).waitFor();
    await checkpoint(page, language, FLOW, '1-form');

    // The identifier follows the name (accents dropped, spaces as dashes) until it is edited.
    await recovery.field(recovery.t.companyName).fill(`Café São João ${suffix}`);
    await expect.poll(() => recovery.field(recovery.t.slug).inputValue()).toBe(`cafe-sao-joao-${suffix}`);
    // A reserved identifier is refused before sending.
    await recovery.field(recovery.t.slug).fill('admin');
    await recovery.field(recovery.t.adminEmail).fill(adminEmail);
    await recovery.button(recovery.t.signUpSubmit).click();
    await expect.poll(() => page.getByText(recovery.t.slugReserved).count()).toBe(1);
    await checkpoint(page, language, FLOW, '2-reserved');

    await recovery.field(recovery.t.slug).fill(`cafe-sao-joao-${suffix}`);
    await recovery.field(recovery.t.plan).selectOption('PROFESSIONAL');
    // A wrong check digit is the API's field error, under the field.
    await recovery.field(recovery.t.document).fill('11222333000180');
    expect(await recovery.field(recovery.t.document).inputValue()).toBe('11.222.333/0001-80');
    await recovery.button(recovery.t.signUpSubmit).click();
    await expect.poll(() => recovery.field(recovery.t.document).getAttribute('aria-invalid')).toBe('true');
    await checkpoint(page, language, FLOW, '3-document-refused');
    await recovery.field(recovery.t.document).fill('11222333000181');
    await recovery.button(recovery.t.signUpSubmit).click();
    await recovery.heading(recovery.t.checkEmailTitle).waitFor();
    expect(await recovery.status.first().textContent()).toBe(recovery.t.checkEmailText(adminEmail));
    await checkpoint(page, language, FLOW, '4-check-email');

    const link = mailedLink(server.dataDir, adminEmail, 'register');
    expect(link.searchParams.get('email')).toBe(adminEmail);
    await page.goto(link.toString());
    await recovery.heading(recovery.t.invitationTitle).waitFor();
    expect(await recovery.field(recovery.t.email).inputValue()).toBe(adminEmail);
    expect(await recovery.field(recovery.t.email).getAttribute('readonly')).not.toBeNull();
    await checkpoint(page, language, FLOW, '5-register');

    await recovery.register('Fátima Fundadora', PASSWORD);
    await page.waitForURL(`${server.consoleUrl}/`);
    await new ConsolePage(page, language, server.consoleUrl).signOutButton.waitFor();
    await checkpoint(page, language, FLOW, '6-signed-in');

    // The account is the tenant's administrator, on the plan chosen.
    const cookie = await signInCookie(server, adminEmail, PASSWORD);
    const users = await apiCall<{ email: string; role: string }[]>(server, 'GET', '/users', undefined, cookie);
    expect(users.status).toBe(200);
    expect(users.body).toEqual([expect.objectContaining({ email: adminEmail, role: 'ADMIN' })]);
  });
});
