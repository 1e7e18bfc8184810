import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  type Tenant,
} from './harness';
import { AdminPage } from './pages/admin-page';
import { SignInPage } from './pages/sign-in-page';

/** The administration page's stock-low alert: a threshold in days typed in the language's writing, kept across a reload, then turned off. */
const FLOW = 'stock-low';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

interface AuditPage {
  items: { action: string; changes: { field: string; before: unknown; after: unknown }[] | null }[];
}

/** The values the tenant's trail says the threshold was set to, newest first. */
async function thresholdChanges(tenant: Tenant): Promise<unknown[]> {
  const trail = await apiCall<AuditPage>(server, 'GET', `/audit-events?resourceId=${tenant.tenantId}`, undefined, tenant.cookie);
  expect(trail.status).toBe(200);
  return trail.body.items.flatMap((entry) => (entry.changes ?? []).filter((change) => change.field === 'stockLowThresholdDays').map((change) => change.after));
}

describe.each(LANGUAGES)('stock-low alert (%s)', (language) => {
  let tenant: Tenant;
  let context: BrowserContext;
  beforeAll(async () => {
    tenant = await createTenant(server, `Estoque-${language}`);
    context = await newContext(language);
  });
  afterAll(async () => {
    await context.close();
  });

  it('sets the threshold, sees it after a reload, then turns it off', async () => {
    const page = await context.newPage();
    const signInPage = new SignInPage(page, language, server.consoleUrl);
    await signInPage.open('/administration');
    await signInPage.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/administration`);
    const admin = new AdminPage(page, language, server.consoleUrl);
    const typed = language === 'pt-BR' ? '7,5' : '7.5';

    // A new tenant: the alert is off, the field empty.
    await admin.stockLow.getByText(admin.t.stockLowCurrentOff).waitFor();
    expect(await admin.stockLowField.inputValue()).toBe('');
    expect(await admin.stockLow.textContent()).toContain('product.stock_low');
    await checkpoint(page, language, FLOW, '1-off');

    // The other language's writing is refused before any request.
    await admin.saveStockLow(language === 'pt-BR' ? '7.5' : '7,5');
    await admin.stockLow.getByText(admin.t.stockLowInvalid).waitFor();
    expect(await admin.stockLowField.getAttribute('aria-invalid')).toBe('true');
    expect(await thresholdChanges(tenant)).toEqual([]);

    await admin.saveStockLow(typed);
    await expect.poll(() => admin.stockLow.getByRole('status').textContent()).toBe(admin.t.stockLowSaved(typed));
    expect(await thresholdChanges(tenant)).toEqual([7.5]);
    await checkpoint(page, language, FLOW, '2-saved');

    await page.reload();
    await admin.stockLow.getByText(admin.t.stockLowCurrent(typed)).waitFor();
    expect(await admin.stockLowField.inputValue()).toBe(typed);
    await checkpoint(page, language, FLOW, '3-reloaded');

    await admin.saveStockLow('');
    await expect.poll(() => admin.stockLow.getByRole('status').textContent()).toBe(admin.t.stockLowSavedOff);
    expect(await thresholdChanges(tenant)).toEqual([null, 7.5]);

    await page.reload();
    await admin.stockLow.getByText(admin.t.stockLowCurrentOff).waitFor();
    expect(await admin.stockLowField.inputValue()).toBe('');
    await checkpoint(page, language, FLOW, '4-off');
    await page.close();
  });
});
