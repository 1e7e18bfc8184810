import { request } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN } from '../../../lib/api-keys/format';
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
import { ApiKeysPage } from './pages/api-keys-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * API keys on the administration page: an administrator makes a key with inventory write and
 * sees its text once; a system then uses that text over HTTP (warehouses yes, suppliers no);
 * the key is rolled with no overlap (the old text stops, the new one works) and revoked (the
 * new one stops too). The page never shows a key's text again once its dialog is closed.
 */
const FLOW = 'api-keys';
const WHOLE_KEY = new RegExp(`^${API_KEY_PATTERN}$`);

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

/**
 * A GET with the key, as a system's server sends it: `Authorization: Bearer` and nothing a
 * browser adds. Through node:http, not fetch: Node's fetch sends `Sec-Fetch-Mode: cors` on
 * every request, which the authorizer takes for a browser and refuses with 401.
 */
function withKey<T = unknown>(key: string, path: string): Promise<{ status: number; body: T }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${server.origin}${path}`,
      { method: 'GET', headers: { authorization: `Bearer ${key}`, accept: 'application/json' }, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: incoming.statusCode ?? 0, body: (text ? JSON.parse(text) : undefined) as T });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** Every text the page holds now, visible or not: its markup and each field's value. */
async function pageText(page: Page): Promise<string> {
  const values = await page.evaluate(() =>
    Array.from(document.querySelectorAll('input, textarea, select'), (field) => (field as HTMLInputElement).value).join('\n'),
  );
  return `${await page.content()}\n${values}`;
}

interface Listed {
  id: string;
  name: string;
  prefix: string;
  scopes: Record<string, string>;
  expiresAt: string | null;
  companyId: string | null;
  lastUsedAt: string | null;
  previousSecretExpiresAt: string | null;
}

describe.each(LANGUAGES)('API keys (%s)', (language) => {
  let tenant: Tenant;
  let context: BrowserContext;
  let page: Page;
  let keys: ApiKeysPage;
  const name = language === 'en' ? 'Downtown POS' : 'PDV Loja Centro';
  const warehouse = `Depósito ${language}`;
  const expiresOn = dayAfter(365);
  const listed = async () => (await apiCall<Listed[]>(server, 'GET', '/api-keys', undefined, tenant.cookie)).body;
  let first = '';
  let second = '';

  beforeAll(async () => {
    tenant = await createTenant(server, `Keys-${language}`);
    const seeded = await apiCall(server, 'POST', '/inventory/warehouses', { name: warehouse }, tenant.cookie);
    expect(seeded.status, JSON.stringify(seeded.body)).toBe(201);
    context = await newContext(language);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
    page = await context.newPage();
    keys = new ApiKeysPage(page, language, server.consoleUrl);
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/administration');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/administration`);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('creates a key with inventory write and shows its text once', async () => {
    await keys.keys.getByText(keys.t.noKeys).waitFor();
    await checkpoint(page, language, FLOW, '1-empty');

    await keys.newKey.click();
    await keys.form.waitFor();
    // Nothing granted, no name: the form says so before sending.
    await keys.form.getByRole('button', { name: keys.t.createKey, exact: true }).click();
    expect(await keys.form.getByText(keys.t.grantOne).textContent()).toBe(keys.t.grantOne);
    expect(await keys.fieldError(keys.t.name)).toBe(keys.common.required);
    // A company limit applies to the companies' routes: closed until companies is granted.
    expect(await keys.companyLimit.isDisabled()).toBe(true);
    await keys.form.getByText(keys.t.companyLimitDisabled).waitFor();
    await keys.level('companies').selectOption('read');
    expect(await keys.companyLimit.isDisabled()).toBe(false);
    await keys.level('companies').selectOption('none');
    // Dashboards and the audit trail are only read.
    expect(
      await keys
        .level('audit')
        .locator('option')
        .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)),
    ).toEqual(['none', 'read']);
    await checkpoint(page, language, FLOW, '2-create-form');

    // The server's word under its field: an expiry that is past.
    await keys.form.getByLabel(keys.t.expiresOn, { exact: true }).fill(dayAfter(-3));
    await keys.createKey(name, { inventory: 'write' });
    await expect.poll(() => keys.fieldError(keys.t.expiresOn)).toBe('must be in the future');
    expect(await listed()).toEqual([]);

    // Valid until the end of a day a year ahead, in the browser's zone (São Paulo, UTC-3).
    await keys.form.getByLabel(keys.t.expiresOn, { exact: true }).fill(expiresOn);
    await keys.form.getByRole('button', { name: keys.t.createKey, exact: true }).click();
    await keys.alert.waitFor();
    await keys.form.waitFor({ state: 'detached' });
    first = await keys.shownKey.inputValue();
    expect(first).toMatch(WHOLE_KEY);
    expect(first.startsWith('bo_test_')).toBe(true);
    expect(await keys.shownKey.getAttribute('readonly')).not.toBeNull();
    await keys.alert.getByText(keys.t.secretWarning).waitFor();
    await keys.alert.getByRole('button', { name: keys.t.copyKey, exact: true }).click();
    await expect
      .poll(() => keys.alert.getByRole('status').textContent())
      .toMatch(new RegExp(`^(${literal(keys.t.keyCopied)}|${literal(keys.t.copyFallback)})$`));
    if ((await keys.alert.getByRole('status').textContent()) === keys.t.keyCopied)
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
    await checkpoint(page, language, FLOW, '3-key-shown');

    await keys.closeShownKey();
    const row = keys.keyRow(name);
    await row.waitFor();
    const [stored] = await listed();
    expect(stored).toMatchObject({
      name,
      scopes: { companies: 'none', suppliers: 'none', inventory: 'write', dashboards: 'none', audit: 'none' },
      expiresAt: new Date(`${expiresOn}T23:59:59.999-03:00`).toISOString(),
      companyId: null,
    });
    expect(first.startsWith(stored?.prefix ?? '?')).toBe(true);
    await row.getByText(stored?.prefix ?? '?', { exact: true }).waitFor();
    expect(await row.textContent()).toContain(keys.t.scopeLine(keys.t.resourceName('inventory'), keys.t.levelName('write')));
    expect(await row.textContent()).toContain(keys.t.neverUsed);
    expect(await row.textContent()).toContain(`${expiresOn.split('-').reverse().join('/')} 23:59`);
    // The text is gone from the page once its dialog closed.
    expect(await pageText(page)).not.toContain(first);
    await checkpoint(page, language, FLOW, '4-listed');
  });

  it('lets a system use the key within its scope only', async () => {
    const warehouses = await withKey<{ name: string }[]>(first, '/inventory/warehouses');
    expect(warehouses.status).toBe(200);
    expect(warehouses.body.map((listedWarehouse) => listedWarehouse.name)).toContain(warehouse);
    const suppliers = await withKey<{ detail: string }>(first, '/suppliers');
    expect(suppliers.status).toBe(403);
    expect(suppliers.body.detail).toBe('The API key may not read suppliers');
  });

  it('rolls the key with no overlap: the old text stops at once, the new one works', async () => {
    await keys.roll(name, '0');
    await keys.alert.waitFor();
    second = await keys.shownKey.inputValue();
    expect(second).toMatch(WHOLE_KEY);
    expect(second).not.toBe(first);
    expect(await keys.alert.getByRole('heading').textContent()).toBe(keys.t.rolledKeyTitle(name));
    await checkpoint(page, language, FLOW, '5-rolled');
    await keys.closeShownKey();

    expect((await withKey(first, '/inventory/warehouses')).status).toBe(401);
    expect((await withKey(second, '/inventory/warehouses')).status).toBe(200);

    const row = keys.keyRow(name);
    await expect.poll(() => row.textContent()).toContain(keys.t.previousStopped);
    const [stored] = await listed();
    expect(stored?.previousSecretExpiresAt).toBeNull();
    expect(stored?.lastUsedAt).not.toBeNull();
    // The list read after the roll knows the key's first use.
    await page.reload();
    await expect.poll(() => keys.keyRow(name).textContent()).not.toContain(keys.t.neverUsed);
    const text = await pageText(page);
    expect(text).not.toContain(first);
    expect(text).not.toContain(second);
  });

  it('revokes the key: the next request with it gets 401', async () => {
    await keys.revoke(name);
    await keys.keyRow(name).waitFor({ state: 'detached' });
    await expect.poll(() => keys.keys.getByRole('status').first().textContent()).toBe(keys.t.keyRevoked(name));
    expect(await listed()).toEqual([]);
    expect((await withKey(second, '/inventory/warehouses')).status).toBe(401);
    await keys.keys.getByText(keys.t.noKeys).waitFor();
    await checkpoint(page, language, FLOW, '6-revoked');
  });

  it('shows a member no API keys section, and the API refuses the member the list', async () => {
    const email = `member-keys-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;
    expect((await apiCall(server, 'POST', '/auth/invitations', { email }, tenant.cookie)).status).toBe(201);
    const link = mailedLink(server.dataDir, email, 'register');
    const registered = await apiCall(server, 'POST', '/auth/register', {
      name: 'Bruno Membro',
      email,
      password: PASSWORD,
      tenantId: tenant.tenantId,
      invitationToken: link.searchParams.get('token'),
    });
    expect(registered.status).toBe(200);
    const refused = await apiCall(server, 'GET', '/api-keys', undefined, await signInCookie(server, email, PASSWORD));
    expect(refused.status).toBe(403);

    const memberContext = await newContext(language);
    const memberPage = await memberContext.newPage();
    const signIn = new SignInPage(memberPage, language, server.consoleUrl);
    await signIn.open('/administration');
    await signIn.signIn(email, PASSWORD);
    await memberPage.waitForURL(`${server.consoleUrl}/administration`);
    await memberPage.getByRole('alert').waitFor();
    const member = new ApiKeysPage(memberPage, language, server.consoleUrl);
    expect(await member.keys.count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: member.t.newKey }).count()).toBe(0);
    await memberContext.close();
  });
});

/** The day `days` from today as a date input takes it (`YYYY-MM-DD`), in São Paulo's calendar (UTC-3, as the browser's zone). */
function dayAfter(days: number): string {
  return new Date(Date.now() + days * 24 * 3600 * 1000 - 3 * 3600 * 1000).toISOString().slice(0, 10);
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
