import type { BrowserContext, Page } from 'playwright-core';
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
  type Language,
  type Tenant,
} from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { InventoryPage, ProductPage } from './pages/inventory-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * Inventory by hand: a warehouse and products created in the console, a product searched and
 * opened, an IN typed in the user's language, a SALE double-clicked (recorded once: the API
 * says so), an OUT over the balance refused with the server's reason and nothing recorded.
 */
const FLOW = 'inventory';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

interface MovementList {
  items: { type: string; quantity: number; unitCost: number | null; balance: { quantity: number; averageCost: number } }[];
}

const TYPED: Record<Language, { quantity: string; unitCost: string; shown: string; afterSale: string; cost: string }> = {
  'pt-BR': { quantity: '1.234,5', unitCost: '10,25', shown: '1.234,5', afterSale: '1.232,25', cost: 'R$ 10,25' },
  en: { quantity: '1,234.5', unitCost: '10.25', shown: '1,234.5', afterSale: '1,232.25', cost: 'R$ 10.25' },
};

describe.each(LANGUAGES)('inventory (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  const typed = TYPED[language];
  const sale = language === 'pt-BR' ? '2,25' : '2.25';

  beforeAll(async () => {
    tenant = await createTenant(server, `Inventory-${language === 'en' ? 'en' : 'pt'}`);
    context = await newContext(language);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  const movements = async (productId: string) => {
    const answer = await apiCall<MovementList>(server, 'GET', `/inventory/movements?productId=${productId}`, undefined, tenant.cookie);
    expect(answer.status).toBe(200);
    return answer.body.items;
  };

  it('creates, searches, opens a product and records its movements exactly once each', async () => {
    // A new tenant's dashboard says what to do first, and leads there.
    await page.goto(`${server.consoleUrl}/`);
    await new SignInPage(page, language, server.consoleUrl).signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/`);
    const dashboard = new DashboardPage(page, language, server.consoleUrl);
    await page.getByText(dashboard.t.noProducts, { exact: true }).waitFor();
    await page.getByText(dashboard.t.noWarehouses, { exact: true }).waitFor();
    await checkpoint(page, language, FLOW, '0-dashboard-empty');
    await page.getByRole('link', { name: dashboard.t.goToInventory }).first().click();
    await page.waitForURL(`${server.consoleUrl}/inventory`);
    const inventory = new InventoryPage(page, language, server.consoleUrl);
    await inventory.title.waitFor();
    await inventory.page.getByText(inventory.t.noWarehouses).waitFor();
    await checkpoint(page, language, FLOW, '1-empty');

    await inventory.createWarehouse('Depósito Centro');
    await expect.poll(() => inventory.warehousesTable.locator('tbody tr').allTextContents()).toEqual([expect.stringContaining('Depósito Centro')]);
    // Sold by weight: its quantities take decimals (a unit like UN takes whole ones only).
    await inventory.productForm.getByLabel(inventory.t.unit, { exact: true }).selectOption('KG');
    await inventory.createProduct('CAFE-500', 'Café torrado 500 g');
    await inventory.createProduct('CHA-100', 'Chá verde 100 g');
    await expect.poll(() => inventory.productsTable.locator('tbody tr').count()).toBe(2);
    await checkpoint(page, language, FLOW, '2-created');

    // Accent- and case-insensitive, debounced: only the coffee is left.
    await inventory.search.fill('cafe');
    await expect.poll(() => inventory.productsTable.locator('tbody tr td:first-child').allTextContents()).toEqual(['CAFE-500']);
    await checkpoint(page, language, FLOW, '3-searched');

    // Opened from the keyboard: the page is now taller than the window, and the full-page
    // screenshot above leaves it scrolled past its end, so a click's coordinates go stale.
    await inventory.productLink('CAFE-500').press('Enter');
    await page.waitForURL(/\/console\/inventory\/products\/[0-9a-f-]+$/);
    const productId = page.url().split('/').pop() ?? '';
    const product = new ProductPage(page, language, server.consoleUrl);
    await product.title('CAFE-500', 'Café torrado 500 g').waitFor();
    await page.getByText(product.t.noBalances).waitFor();
    await checkpoint(page, language, FLOW, '4-product');

    // IN, typed in the user's language; the unit cost field is there for IN only.
    await product.fill({ type: 'IN', warehouse: 'Depósito Centro', quantity: typed.quantity, unitCost: typed.unitCost });
    await product.record.click();
    await product.status.getByText(product.t.movementRecorded('IN')).waitFor();
    await expect.poll(() => product.rows('balances')).toEqual([['Depósito Centro', typed.shown, typed.cost]]);
    await expect
      .poll(async () => (await product.rows('history')).map((row) => [row[1], row[2], row[3], row[4], row[5]]))
      .toEqual([[product.t.typeNames('IN'), 'Depósito Centro', typed.shown, typed.cost, typed.shown]]);
    expect((await movements(productId)).map((movement) => [movement.type, movement.quantity, movement.unitCost])).toEqual([['IN', 1234.5, 10.25]]);
    await checkpoint(page, language, FLOW, '5-in');

    // SALE: no unit cost; a double click records one movement.
    await product.type.selectOption('SALE');
    await expect.poll(() => product.unitCost.count()).toBe(0);
    await product.quantity.fill(sale);
    await product.record.dblclick();
    await product.status.getByText(product.t.movementRecorded('SALE')).waitFor();
    await expect.poll(() => product.rows('balances')).toEqual([['Depósito Centro', typed.afterSale, typed.cost]]);
    await expect
      .poll(async () => (await movements(productId)).map((movement) => [movement.type, movement.quantity]))
      .toEqual([
        ['SALE', 2.25],
        ['IN', 1234.5],
      ]);
    await expect.poll(async () => (await product.rows('history')).length).toBe(2);
    await checkpoint(page, language, FLOW, '6-sale');

    // OUT over the balance: the server's reason, and nothing recorded.
    const refused = await apiCall<{ detail: string }>(
      server,
      'POST',
      '/inventory/movements',
      { productId, warehouseId: (await warehouseIdOf(product)) ?? '', type: 'OUT', quantity: 5000 },
      tenant.cookie,
    );
    expect(refused.status).toBe(409);
    await product.type.selectOption('OUT');
    await product.quantity.fill('5000');
    await product.record.click();
    await expect.poll(() => product.alert.textContent()).toContain(refused.body.detail);
    expect(await movements(productId)).toHaveLength(2);
    await expect.poll(() => product.rows('balances')).toEqual([['Depósito Centro', typed.afterSale, typed.cost]]);
    await checkpoint(page, language, FLOW, '7-refused');
  });
});

/** The id of the warehouse chosen in the form's select. */
async function warehouseIdOf(product: ProductPage): Promise<string | undefined> {
  return product.warehouse.inputValue();
}
