import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  checkpoint,
  closeBrowser,
  createTenant,
  LANGUAGES,
  mailedLink,
  newContext,
  PASSWORD,
  resetScreenshots,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { AdminPage } from './pages/admin-page';
import { ConsolePage } from './pages/console-page';
import { RecoveryPage } from './pages/recovery-page';
import { SignInPage } from './pages/sign-in-page';

/** An administrator invites someone through the console; the invitee opens the e-mailed link in another browser, registers and lands signed in. */
const FLOW = 'invitation';

let server: ConsoleServer;
const tenants: Partial<Record<string, Tenant>> = {};

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  for (const language of LANGUAGES) tenants[language] = await createTenant(server, `Invite-${language}`);
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('invitation (%s)', (language) => {
  it('invites through the console and the invitee registers from the e-mailed link', async () => {
    const tenant = tenants[language]!;
    const invitee = `carla-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;

    const adminContext = await newContext(language);
    const adminPage = await adminContext.newPage();
    const signIn = new SignInPage(adminPage, language, server.consoleUrl);
    await signIn.open('/administration');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await adminPage.waitForURL(`${server.consoleUrl}/administration`);
    const admin = new AdminPage(adminPage, language, server.consoleUrl);
    await admin.invite(invitee);
    await admin.invitationRow(invitee).waitFor();
    await checkpoint(adminPage, language, FLOW, '1-invited');

    const link = mailedLink(server.dataDir, invitee, 'register');
    expect(link.searchParams.get('tenantId')).toBe(tenant.tenantId);

    const inviteeContext = await newContext(language);
    const page = await inviteeContext.newPage();
    const recovery = new RecoveryPage(page, language, server.consoleUrl);
    await page.goto(link.toString());
    await recovery.heading(recovery.t.invitationTitle).waitFor();
    expect(await recovery.field(recovery.t.email).inputValue()).toBe(invitee);
    await checkpoint(page, language, FLOW, '2-register-form');

    await recovery.register('Carla Convidada', PASSWORD);
    await page.waitForURL(`${server.consoleUrl}/`);
    const frame = new ConsolePage(page, language, server.consoleUrl);
    await frame.signOutButton.waitFor();
    expect(await page.getByText(frame.common.signedInAs('Carla Convidada')).count()).toBe(1);
    await checkpoint(page, language, FLOW, '3-signed-in');

    // The invitation is used: it leaves the pending list, and the invitee is a member.
    const users = await apiCall<{ email: string; role: string }[]>(server, 'GET', '/users', undefined, tenant.cookie);
    expect(users.body.find((user) => user.email === invitee)?.role).toBe('MEMBER');
    await adminPage.reload();
    await admin.users.getByRole('row').filter({ hasText: invitee }).waitFor();
    expect(await admin.invitationRow(invitee).count()).toBe(0);
    await inviteeContext.close();
    await adminContext.close();
  });
});
