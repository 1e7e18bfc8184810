import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { codeAt } from '../../../lib/auth/totp';
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
  signInCookie,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { auditLabels } from '../../../console/src/pages/audit/audit-labels';
import { AdminPage } from './pages/admin-page';
import { SignInPage } from './pages/sign-in-page';

/** An administrator's page: users and roles, invitations sent and withdrawn, the audit trail by action; a member gets the API's refusal. */
const FLOW = 'administration';

let server: ConsoleServer;
const ROOT_PASSWORD = 'platform password 1';
let platform: { email: string; secret: string; lastStep: number };

/** A platform administrator made by `npm run create-admin` in the running API's store; its secret read from what it prints. */
async function createPlatformAdmin(email: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: server.dataDir, NODE_NO_WARNINGS: '1', ADMIN_PASSWORD: ROOT_PASSWORD };
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['scripts/create-admin.ts', '--email', email, '--name', 'Root'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end();
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  expect(code, stderr).toBe(0);
  const secret = /secret: ([A-Z2-7]+)/.exec(stdout)?.[1];
  if (!secret) throw new Error(`no secret in: ${stdout}`);
  return secret;
}

/** A code of a time step not used yet (a code is accepted once; one step of skew is allowed). */
function freshCode(): string {
  const now = Math.floor(Date.now() / 30_000);
  const step = platform.lastStep >= now ? platform.lastStep + 1 : now;
  platform.lastStep = step;
  return codeAt(platform.secret, step * 30_000);
}

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  const email = `root-${Date.now().toString(36)}@example.com`;
  platform = { email, secret: await createPlatformAdmin(email), lastStep: 0 };
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

/** A member of the tenant, invited and registered through the API. */
async function addMember(tenant: Tenant, name: string, email: string): Promise<void> {
  const invited = await apiCall(server, 'POST', '/auth/invitations', { email }, tenant.cookie);
  expect(invited.status).toBe(201);
  const link = mailedLink(server.dataDir, email, 'register');
  const registered = await apiCall(server, 'POST', '/auth/register', {
    name,
    email,
    password: PASSWORD,
    tenantId: tenant.tenantId,
    invitationToken: link.searchParams.get('token'),
  });
  expect(registered.status).toBe(200);
}

async function signIn(page: Page, language: (typeof LANGUAGES)[number], email: string, next: string): Promise<void> {
  const signInPage = new SignInPage(page, language, server.consoleUrl);
  await signInPage.open(next);
  await signInPage.signIn(email, PASSWORD);
  await page.waitForURL(`${server.consoleUrl}${next}`);
}

describe.each(LANGUAGES)('administration (%s)', (language) => {
  let tenant: Tenant;
  let context: BrowserContext;
  const leaverEmail = `leaver-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;
  const memberEmail = `member-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;
  beforeAll(async () => {
    tenant = await createTenant(server, `Admin-${language}`);
    await addMember(tenant, 'Bruno Membro', memberEmail);
    await addMember(tenant, 'Davi Saindo', leaverEmail);
    context = await newContext(language);
  });
  afterAll(async () => {
    await context.close();
  });

  it('lists the users, changes a role and removes a user', async () => {
    const page = await context.newPage();
    await signIn(page, language, tenant.adminEmail, '/administration');
    const admin = new AdminPage(page, language, server.consoleUrl);
    await admin.heading(admin.t.title).waitFor();
    await admin.userRow(memberEmail).waitFor();
    await admin.userRow(tenant.adminEmail).waitFor();
    await checkpoint(page, language, FLOW, '1-users');

    await admin.roleSelect('Bruno Membro').selectOption('ADMIN');
    await expect.poll(() => admin.users.getByRole('status').textContent()).toBe(admin.t.roleChanged('Bruno Membro'));
    const users = await apiCall<{ email: string; role: string }[]>(server, 'GET', '/users', undefined, tenant.cookie);
    expect(users.body.find((user) => user.email === memberEmail)?.role).toBe('ADMIN');
    await checkpoint(page, language, FLOW, '2-role-changed');

    await admin.roleSelect('Bruno Membro').selectOption('MEMBER');
    await expect
      .poll(
        async () =>
          (await apiCall<{ email: string; role: string }[]>(server, 'GET', '/users', undefined, tenant.cookie)).body.find((user) => user.email === memberEmail)
            ?.role,
      )
      .toBe('MEMBER');

    await admin.users.getByRole('button', { name: admin.t.removeUser('Davi Saindo') }).click();
    await admin.dialog.getByRole('button', { name: admin.t.remove, exact: true }).click();
    await admin.dialog.waitFor({ state: 'detached' });
    await admin.userRow(leaverEmail).waitFor({ state: 'detached' });
    const after = await apiCall<{ email: string }[]>(server, 'GET', '/users', undefined, tenant.cookie);
    expect(after.body.map((user) => user.email)).not.toContain(leaverEmail);
    await page.close();
  });

  it('sends an invitation and withdraws it, and the audit trail shows both by action', async () => {
    const page = await context.newPage();
    await page.goto(`${server.consoleUrl}/administration`);
    const admin = new AdminPage(page, language, server.consoleUrl);
    const invitee = `invitee-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;
    await admin.invite(invitee);
    await admin.invitationRow(invitee).waitFor();
    await expect.poll(() => admin.invitations.getByRole('status').first().textContent()).toBe(admin.t.invited(invitee));
    expect(mailedLink(server.dataDir, invitee, 'register').searchParams.get('email')).toBe(invitee);
    await checkpoint(page, language, FLOW, '3-invited');

    await admin.invitations.getByRole('button', { name: admin.t.withdrawInvitation(invitee) }).click();
    await admin.dialog.waitFor();
    await checkpoint(page, language, FLOW, '4-withdraw-dialog');
    await admin.dialog.getByRole('button', { name: admin.t.withdraw, exact: true }).click();
    await admin.dialog.waitFor({ state: 'detached' });
    await admin.invitationRow(invitee).waitFor({ state: 'detached' });
    const pending = await apiCall<{ email: string }[]>(server, 'GET', '/auth/invitations', undefined, tenant.cookie);
    expect(pending.body.map((invitation) => invitation.email)).not.toContain(invitee);

    // The trail by action is eventually consistent (about a second): filter until the entry shows.
    await expect
      .poll(
        async () => {
          await admin.filterAudit({ action: 'invitation.withdrawn' });
          await page.waitForTimeout(300);
          return admin.auditActions();
        },
        { timeout: 10_000 },
      )
      .toEqual(['invitation.withdrawn']);
    expect(await admin.audit.getByRole('cell', { name: auditLabels[language].action('invitation.withdrawn'), exact: false }).count()).toBe(1);
    await checkpoint(page, language, FLOW, '5-audit-filtered');
    await admin.filterAudit({ action: 'invitation.created' });
    await expect.poll(async () => (await admin.auditActions()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(new Set(await admin.auditActions())).toEqual(new Set(['invitation.created']));
    await page.close();
  });

  it('resets a member’s second factor and saves the tenant’s policy', async () => {
    // The member turns a second factor on through the API.
    const memberCookie = await signInCookie(server, memberEmail, PASSWORD);
    const started = await apiCall<{ secret: string }>(server, 'POST', '/auth/mfa/totp', { password: PASSWORD }, memberCookie);
    expect(started.status).toBe(200);
    const confirmed = await apiCall(server, 'POST', '/auth/mfa/totp/confirm', { code: codeAt(started.body.secret, Date.now()) }, memberCookie);
    expect(confirmed.status).toBe(200);
    const challenged = await apiCall<{ mfaRequired?: boolean }>(server, 'POST', '/auth/login', { email: memberEmail, password: PASSWORD });
    expect(challenged.body.mfaRequired).toBe(true);

    const page = await context.newPage();
    await page.goto(`${server.consoleUrl}/administration`);
    const admin = new AdminPage(page, language, server.consoleUrl);
    await admin.users.getByRole('button', { name: admin.t.resetMfaOf('Bruno Membro') }).click();
    await admin.dialog.waitFor();
    await admin.dialog.getByRole('button', { name: admin.t.resetMfa, exact: true }).click();
    await admin.dialog.waitFor({ state: 'detached' });
    await expect.poll(() => admin.users.getByRole('status').textContent()).toBe(admin.t.resetMfaDone('Bruno Membro'));
    const plain = await apiCall<{ mfaRequired?: boolean }>(server, 'POST', '/auth/login', { email: memberEmail, password: PASSWORD });
    expect(plain.status).toBe(200);
    expect(plain.body.mfaRequired).toBeUndefined();

    // The policy: the tenant's (off for a new one), then the API's answer to a save.
    const policy = admin.section(admin.t.policyTitle);
    await policy.getByText(admin.t.policyCurrent(admin.t.policyOff)).waitFor();
    await policy.getByLabel(admin.t.policy, { exact: true }).selectOption('OFF');
    await policy.getByRole('button', { name: admin.t.savePolicy, exact: true }).click();
    await expect.poll(() => policy.getByRole('status').textContent()).toBe(admin.t.policySaved(admin.t.policyOff));
    await policy.getByText(admin.t.policyCurrent(admin.t.policyOff)).waitFor();
    await checkpoint(page, language, FLOW, '6-policy-saved');
    await page.close();
  });

  it('shows a platform administrator every tenant, and each tenant’s policy', async () => {
    const rootContext = await newContext(language);
    const page = await rootContext.newPage();
    const signInPage = new SignInPage(page, language, server.consoleUrl);
    await signInPage.open('/administration');
    await signInPage.signIn(platform.email, ROOT_PASSWORD);
    await signInPage.verify(freshCode());
    await page.waitForURL(`${server.consoleUrl}/administration`);
    const admin = new AdminPage(page, language, server.consoleUrl);
    const tenants = admin.section(admin.t.tenantsTitle);
    const row = tenants.getByRole('row').filter({ hasText: `admin-${language.toLowerCase()}-` });
    await row.waitFor();
    expect(await row.textContent()).toContain(admin.t.policyOff);
    await checkpoint(page, language, FLOW, '8-platform-tenants');
    await rootContext.close();
  });

  it('shows a member the API’s reason instead of the sections', async () => {
    const memberContext = await newContext(language);
    const page = await memberContext.newPage();
    await signIn(page, language, memberEmail, '/administration');
    const admin = new AdminPage(page, language, server.consoleUrl);
    const refused = await apiCall<{ detail: string }>(server, 'GET', '/users', undefined, await signInCookie(server, memberEmail, PASSWORD));
    expect(refused.status).toBe(403);
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(refused.body.detail);
    expect(await admin.users.count()).toBe(0);
    await checkpoint(page, language, FLOW, '7-member-refused');
    await memberContext.close();
  });
});
