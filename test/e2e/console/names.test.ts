import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, checkpoint, closeBrowser, createTenant, newContext, resetScreenshots, startConsole, type ConsoleServer, type Tenant } from './harness';

/**
 * The names the product promises, literally, in English (a browser that prefers it): the
 * sign-in form, the navigation, Sign out on every signed-in page, and the key controls of the
 * supplier, product, account and administration pages. Then the language switch, which holds
 * across visits.
 * (The other specs find controls through the console's own texts, in both languages.)
 */
const FLOW = 'names';
const NAVIGATION = ['Dashboard', 'Companies', 'Suppliers', 'Inventory', 'Administration', 'Account'];

let server: ConsoleServer;
let tenant: Tenant;
let context: BrowserContext;
let page: Page;
let productId: string;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  tenant = await createTenant(server, 'Names');
  const product = await apiCall<{ id: string }>(server, 'POST', '/inventory/products', { sku: 'NAMES-1', name: 'Café torrado 500 g' }, tenant.cookie);
  expect(product.status).toBe(201);
  productId = product.body.id;
  context = await newContext('en');
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await closeBrowser();
  await server?.stop();
});

describe('the English names', () => {
  it('signs in with E-mail, Password and Sign in', async () => {
    await page.goto(`${server.consoleUrl}/`);
    await page.waitForURL(/\/console\/sign-in/);
    await page.getByLabel('E-mail', { exact: true }).fill(tenant.adminEmail);
    await page.getByLabel('Password', { exact: true }).fill(tenant.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/`);
  });

  it('has the six navigation links, and Sign out on every page they lead to', async () => {
    const navigation = page.getByRole('navigation');
    for (const name of NAVIGATION) {
      await navigation.getByRole('link', { name, exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Sign out', exact: true }).isVisible()).toBe(true);
      expect(await navigation.getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
    }
  });

  it('names the supplier page’s search box and its New supplier button', async () => {
    await page.goto(`${server.consoleUrl}/suppliers`);
    await page
      .getByRole('searchbox', { name: 'Search suppliers' })
      .or(page.getByRole('textbox', { name: 'Search suppliers' }))
      .waitFor();
    await page.getByRole('button', { name: 'New supplier' }).waitFor();
  });

  it('names the movement form’s Quantity field and its Record movement button', async () => {
    await page.goto(`${server.consoleUrl}/inventory/products/${productId}`);
    await page.getByLabel('Quantity', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Record movement' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out', exact: true }).isVisible()).toBe(true);
  });

  it('names the account page’s Change password', async () => {
    await page.goto(`${server.consoleUrl}/account`);
    await page.getByRole('button', { name: 'Change password' }).waitFor();
  });

  it('names the administration page’s API keys section and its New API key button', async () => {
    await page.goto(`${server.consoleUrl}/administration`);
    const keys = page.getByRole('region', { name: 'API keys', exact: true });
    await keys.getByRole('button', { name: 'New API key', exact: true }).waitFor();
  });

  it('switches to Portuguese, and keeps it on the next visit', async () => {
    await page.goto(`${server.consoleUrl}/`);
    await page.getByRole('combobox', { name: 'Language' }).selectOption('pt-BR');
    await page.getByRole('button', { name: 'Sair', exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    await page.reload();
    await page.getByRole('link', { name: 'Painel', exact: true }).waitFor();
    await checkpoint(page, 'pt-BR', FLOW, 'switched');
    await page.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
    await page.getByRole('link', { name: 'Dashboard', exact: true }).waitFor();
  });
});
