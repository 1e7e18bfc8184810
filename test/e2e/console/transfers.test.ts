import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inventoryMessages } from '../../../console/src/pages/inventory/messages';
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
import { InventoryPage, ProductPage } from './pages/inventory-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * Stock moved between warehouses by hand: on the product page, from Central to Loja, with both
 * balances after it said at once, the two sides in the stock history each naming the other
 * warehouse, and the transfer in the recent list; a transfer of more than is on hand refused
 * (409) with the quantities said beside the field, and nothing moved; and the same on a
 * 360×740 phone, where the inventory page's form picks the product too.
 */
const FLOW = 'transfers';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

interface TransferList {
  items: { fromWarehouseId: string; toWarehouseId: string; quantity: number; value: number; note: string | null }[];
}

const MONEY: Record<Language, (reais: number) => string> = {
  'pt-BR': (reais) => `R$ ${reais},00`,
  en: (reais) => `R$ ${reais}.00`,
};

describe.each(LANGUAGES)('transfers between warehouses (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  let productId: string;
  let central: string;
  let loja: string;
  const t = inventoryMessages[language];
  const money = MONEY[language];

  const seed = async <T>(path: string, body: unknown) => {
    const answer = await apiCall<T>(server, 'POST', path, body, tenant.cookie);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  const transfers = async () => {
    const answer = await apiCall<TransferList>(server, 'GET', `/inventory/transfers?productId=${productId}`, undefined, tenant.cookie);
    expect(answer.status).toBe(200);
    return answer.body.items;
  };
  const openProduct = async () => {
    const view = new ProductPage(page, language, server.consoleUrl);
    await view.open(`/inventory/products/${productId}`);
    await view.title('CAFE-500', 'Café torrado 500 g').waitFor();
    return view;
  };
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  beforeAll(async () => {
    tenant = await createTenant(server, `Transfers-${language === 'en' ? 'en' : 'pt'}`);
    central = (await seed<{ id: string }>('/inventory/warehouses', { name: 'Central' })).id;
    loja = (await seed<{ id: string }>('/inventory/warehouses', { name: 'Loja' })).id;
    productId = (await seed<{ id: string }>('/inventory/products', { sku: 'CAFE-500', name: 'Café torrado 500 g', unit: 'UN' })).id;
    await seed('/inventory/movements', { productId, warehouseId: central, type: 'IN', quantity: 10, unitCost: 10 });
    // A long name among the picker's options must not widen the inventory page past a phone's width.
    await seed('/inventory/products', { sku: 'CHA-MATE-1KG', name: 'Chá mate tostado em folhas, pacote econômico de um quilograma', unit: 'KG' });
    context = await newContext(language);
    page = await context.newPage();
    await page.goto(`${server.consoleUrl}/`);
    await new SignInPage(page, language, server.consoleUrl).signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/`);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('moves stock from Central to Loja on the product page, and shows both balances, the history and the recent list', async () => {
    const view = await openProduct();
    await expect.poll(() => view.rows('balances')).toEqual([['Central', '10', money(10)]]);
    await view.page.getByText(t.noTransfers, { exact: true }).waitFor();
    const transfer = view.transfer;

    await transfer.field(t.fromWarehouse).selectOption({ label: 'Central' });
    await transfer.form.getByText(t.onHandHere('10'), { exact: true }).waitFor();
    await transfer.fill({ from: 'Central', to: 'Loja', quantity: '4', note: 'Reposição da loja' });
    await transfer.submit.click();

    // What moved, its value and both balances after it.
    await transfer.status.getByText(t.transferDone('4 UN', 'Central', 'Loja'), { exact: true }).waitFor();
    const receipt = await transfer.status.textContent();
    expect(receipt).toContain(money(40));
    expect(receipt).toContain(t.costMethodNames('WEIGHTED_AVERAGE'));
    expect(receipt).toContain(`${t.balanceIn('Central')}${t.balanceWithCost('6', money(10))}`);
    expect(receipt).toContain(`${t.balanceIn('Loja')}${t.balanceWithCost('4', money(10))}`);
    expect(await transfers()).toEqual([
      expect.objectContaining({ fromWarehouseId: central, toWarehouseId: loja, quantity: 4, value: 40, note: 'Reposição da loja' }),
    ]);

    // The page's other views read again: the balances, both sides in the history, the recent list.
    await expect
      .poll(() => view.rows('balances'))
      .toEqual([
        ['Central', '6', money(10)],
        ['Loja', '4', money(10)],
      ]);
    await expect
      .poll(async () => (await view.rows('history')).map((row) => [row[1], row[2], row[3], row[5]]).sort())
      .toEqual(
        [
          [`${t.typeNames('TRANSFER_OUT')} ${t.counterpartTo('Loja')}`, 'Central', '4', '6'],
          [`${t.typeNames('TRANSFER_IN')} ${t.counterpartFrom('Central')}`, 'Loja', '4', '4'],
          [t.typeNames('IN'), 'Central', '10', '10'],
        ].sort(),
      );
    await expect
      .poll(async () => (await view.rows('transfers')).map((row) => row.slice(1)))
      .toEqual([['Central', 'Loja', '4', money(40), 'Reposição da loja']]);
    await checkpoint(page, language, FLOW, '1-moved');
  });

  it('explains a transfer of more than is on hand (409) beside the quantity, and moves nothing', async () => {
    const view = await openProduct();
    const transfer = view.transfer;
    await transfer.fill({ from: 'Central', to: 'Loja', quantity: '7' });
    await transfer.form.getByText(t.onHandHere('6'), { exact: true }).waitFor();
    await transfer.submit.click();

    await transfer.alert.getByText(t.notEnoughStock, { exact: true }).waitFor();
    const quantity = transfer.field(t.transferQuantity);
    await expect.poll(() => quantity.getAttribute('aria-invalid')).toBe('true');
    await transfer.form.getByText(t.notEnoughStockField('Central', '6', '7'), { exact: true }).waitFor();
    expect(await transfers()).toHaveLength(1);
    await expect
      .poll(() => view.rows('balances'))
      .toEqual([
        ['Central', '6', money(10)],
        ['Loja', '4', money(10)],
      ]);
    expect(await view.rows('transfers')).toHaveLength(1);
    await checkpoint(page, language, FLOW, '2-refused');
  });

  it('fits a 360×740 phone: the product page’s transfer back, and the inventory page’s form that picks the product', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      const view = await openProduct();
      await view.transfer.fill({ from: 'Loja', to: 'Central', quantity: '1' });
      await view.transfer.submit.click();
      await view.transfer.status.getByText(t.transferDone('1 UN', 'Loja', 'Central'), { exact: true }).waitFor();
      await expect.poll(async () => (await view.rows('transfers')).length).toBe(2);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '3-phone-product');

      const inventory = new InventoryPage(page, language, server.consoleUrl);
      await inventory.open('/inventory');
      await inventory.title.waitFor();
      const transfer = inventory.transfer;
      await transfer.pickProduct('cafe', t.productTitle('CAFE-500', 'Café torrado 500 g'));
      await transfer.fill({ from: 'Central', to: 'Loja', quantity: '2' });
      await transfer.form.getByText(t.onHandHere('7'), { exact: true }).waitFor();
      await transfer.submit.click();
      await transfer.status.getByText(t.transferDone('2 UN', 'Central', 'Loja'), { exact: true }).waitFor();
      expect(await transfer.status.textContent()).toContain(`${t.balanceIn('Central')}${t.balanceWithCost('5', money(10))}`);
      expect((await transfers()).map((item) => [item.fromWarehouseId, item.toWarehouseId, item.quantity])).toEqual([
        [central, loja, 2],
        [loja, central, 1],
        [central, loja, 4],
      ]);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '4-phone-inventory');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
