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
import { CountPage, CountsPage } from './pages/counts-page';
import { InventoryPage, ProductPage } from './pages/inventory-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * A stock count (inventário) by hand, on a 360×740 phone with a USB scanner: started from the
 * inventory page, the GTINs typed and Enter (one twice, one undone, an unknown code said in an
 * alert with the field still ready), the running count shown big, the review (largest
 * difference first, totals, the product nobody counted), the close that leaves the uncounted
 * one as it is, and the balances adjusted. Then the same pages on a desktop: a SKU scanned, a
 * quantity typed, an uncounted product counted and a line edited, a second count of the
 * warehouse refused (409) with a link to the open one, and the count cancelled with nothing
 * adjusted. The camera (BarcodeDetector) with a stubbed camera and detector. Every screen
 * scanned with axe, in Portuguese and in English.
 */
const FLOW = 'counts';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

interface Product {
  id: string;
  sku: string;
  name: string;
  gtin?: string;
}

interface CountBody {
  id: string;
  status: string;
  totals: { lines: number; linesWithDifference: number; surplusValue: number; shortageValue: number; differenceValue: number };
  lines: { productId: string; counted: number; systemAtCount: number; appliedDifference: number | null }[];
}

interface MovementList {
  items: { createdAt: string; balance: { quantity: number } }[];
}

const CAFE = { sku: 'CAFE-500', name: 'Café torrado 500 g', unit: 'UN', gtin: '7891000315507' };
const CHA = { sku: 'CHA-100', name: 'Chá verde 100 g', unit: 'UN', gtin: '7891234567802' };
const ACUCAR = { sku: 'ACUCAR-1', name: 'Açúcar cristal 1 kg', unit: 'UN', gtin: '7891000000014' };
const VELA = { sku: 'VELA-1', name: 'Vela branca', unit: 'UN' };

/** The labels the product promises in each language, written out (not read from messages.ts). */
const LITERAL: Record<Language, { listTitle: string; scanLabel: string; undo: string; review: string; close: string }> = {
  'pt-BR': { listTitle: 'Inventários', scanLabel: 'Código de barras ou SKU', undo: 'Desfazer', review: 'Revisar e fechar', close: 'Fechar inventário' },
  en: { listTitle: 'Stock counts', scanLabel: 'Barcode or SKU', undo: 'Undo', review: 'Review and close', close: 'Close count' },
};

/** A text made with a date, whatever the date (the browser's time zone formats it). */
function sayingWithADate(text: (date: string) => string): RegExp {
  const [before = '', after = ''] = text('\u0000').split('\u0000');
  const escape = (part: string) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escape(before)}\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}${escape(after)}$`);
}

describe.each(LANGUAGES)('stock counts (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  let central: string;
  let loja: string;
  let third: string;
  const products: Record<string, Product> = {};
  // Reais as the page shows them (the amounts here are below a thousand: no grouping).
  const money = (value: number) =>
    `${value < 0 ? '-' : ''}R$ ${Math.abs(value)
      .toFixed(2)
      .replace('.', language === 'en' ? '.' : ',')}`;
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  const seed = async <T>(path: string, body: unknown) => {
    const answer = await apiCall<T>(server, 'POST', path, body, tenant.cookie);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  const stockIn = (productId: string, warehouseId: string, quantity: number, unitCost: number) =>
    seed('/inventory/movements', { productId, warehouseId, type: 'IN', quantity, unitCost });
  /** A product's balance in a warehouse, after its movement recorded last. */
  const balance = async (productId: string, warehouseId: string) => {
    const answer = await apiCall<MovementList>(
      server,
      'GET',
      `/inventory/movements?productId=${productId}&warehouseId=${warehouseId}&limit=10`,
      undefined,
      tenant.cookie,
    );
    expect(answer.status).toBe(200);
    const latest = [...answer.body.items].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
    return latest?.balance.quantity;
  };
  const readCount = async (id: string) => {
    const answer = await apiCall<CountBody>(server, 'GET', `/inventory/counts/${id}`, undefined, tenant.cookie);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const countedOf = async (id: string) => Object.fromEntries((await readCount(id)).lines.map((line) => [line.productId, line.counted]));
  const countIdOfUrl = () => page.url().split('/').pop()?.split('?')[0] ?? '';

  beforeAll(async () => {
    tenant = await createTenant(server, `Counts-${language === 'en' ? 'en' : 'pt'}`);
    central = (await seed<{ id: string }>('/inventory/warehouses', { name: 'Central' })).id;
    loja = (await seed<{ id: string }>('/inventory/warehouses', { name: 'Loja' })).id;
    third = (await seed<{ id: string }>('/inventory/warehouses', { name: 'Depósito 3' })).id;
    for (const product of [CAFE, CHA, ACUCAR, VELA]) products[product.sku] = await seed<Product>('/inventory/products', product);
    const id = (sku: string) => products[sku]?.id ?? '';
    await stockIn(id('CAFE-500'), central, 1, 10);
    await stockIn(id('CHA-100'), central, 3, 6);
    await stockIn(id('ACUCAR-1'), central, 4, 2.5);
    await stockIn(id('VELA-1'), central, 7, 1);
    await stockIn(id('CAFE-500'), loja, 5, 10);
    await stockIn(id('CHA-100'), loja, 2, 6);
    await stockIn(id('ACUCAR-1'), third, 2, 2.5);
    context = await newContext(language);
    page = await context.newPage();
    await page.goto(`${server.consoleUrl}/`);
    await new SignInPage(page, language, server.consoleUrl).signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/`);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('counts a warehouse on a 360×740 phone with a scanner: scans, an undo, an unknown code, the review, the close and the balances adjusted', async () => {
    const cafe = products['CAFE-500'] as Product;
    const cha = products['CHA-100'] as Product;
    const acucar = products['ACUCAR-1'] as Product;
    const vela = products['VELA-1'] as Product;
    const literal = LITERAL[language];
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      // From the inventory page to the counts, and a count of Central started.
      const inventory = new InventoryPage(page, language, server.consoleUrl);
      await inventory.open('/inventory');
      await inventory.title.waitFor();
      await page.getByRole('link', { name: inventoryMessages[language].stockCounts, exact: true }).click();
      await page.waitForURL(`${server.consoleUrl}/inventory/counts`);
      const list = new CountsPage(page, language, server.consoleUrl);
      await page.getByRole('heading', { level: 1, name: literal.listTitle, exact: true }).waitFor();
      await page.getByText(list.t.noCounts, { exact: true }).waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '1-phone-list');
      await list.start('Central', 'Balanço de novembro');
      await page.waitForURL(/\/console\/inventory\/counts\/[0-9a-f-]+$/);
      const countId = countIdOfUrl();

      // The scanning screen: the code field, in the user's language, has the keyboard at once.
      const count = new CountPage(page, language, server.consoleUrl);
      await count.title('Central').waitFor();
      await page.getByLabel(literal.scanLabel, { exact: true }).waitFor();
      await expect.poll(() => count.scanFieldFocused()).toBe(true);
      await count.lastScan.getByText(count.t.nothingYet, { exact: true }).waitFor();
      // "Camera" only where the browser reads barcodes.
      const detector = await page.evaluate(() => 'BarcodeDetector' in window);
      expect(await count.camera.count()).toBe(detector ? 1 : 0);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '2-phone-scan');

      // A scanner's keys and Enter, one code after another: the field empties and keeps the keyboard.
      await count.scan(CAFE.gtin);
      await count.lastScanShows(CAFE.name, '1');
      expect(await count.scanField.inputValue()).toBe('');
      expect(await count.scanFieldFocused()).toBe(true);
      await count.scan(CHA.gtin);
      await count.lastScanShows(CHA.name, '1');
      await count.scan(CAFE.gtin);
      await count.lastScanShows(CAFE.name, '2');
      await count.lastScan.getByText(count.t.skuOf(CAFE.sku), { exact: true }).waitFor();
      await count.scan(ACUCAR.gtin);
      await count.scan(ACUCAR.gtin);
      await count.lastScanShows(ACUCAR.name, '2');

      // Undo takes one back (the same code, quantity -1), and the keyboard returns to the field.
      await page.getByRole('button', { name: literal.undo, exact: true }).click();
      await count.lastScanShows(ACUCAR.name, '1');
      await count.lastScan.getByText(count.t.undone(ACUCAR.name), { exact: true }).waitFor();
      await expect.poll(() => count.scanFieldFocused()).toBe(true);

      // An unknown code: the API's reason in an alert, the field empty and ready for the next scan.
      const refused = await apiCall<{ detail: string }>(server, 'POST', `/inventory/counts/${countId}/scans`, { sku: 'NAO-EXISTE' }, tenant.cookie);
      expect(refused.status).toBe(404);
      await count.scan('NAO-EXISTE');
      await count.scanForm.getByRole('alert').getByText(refused.body.detail, { exact: true }).waitFor();
      await count.scanForm.getByText(count.t.notCounted('NAO-EXISTE'), { exact: true }).waitFor();
      expect(await count.scanField.inputValue()).toBe('');
      expect(await count.scanFieldFocused()).toBe(true);
      await count.lastScanShows(ACUCAR.name, '1');
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '3-phone-scanned');
      expect(await countedOf(countId)).toEqual({ [cafe.id]: 2, [cha.id]: 1, [acucar.id]: 1 });

      // The review: the largest value of a difference first, the totals, the product nobody counted.
      await page.getByRole('link', { name: literal.review, exact: true }).click();
      await count.linesTable.waitFor();
      await expect
        .poll(async () => (await count.rows('lines')).map((row) => row.slice(0, 5)))
        .toEqual([
          [`${CHA.name}${CHA.sku}`, '1', '3', '-2', money(-12)],
          [`${CAFE.name}${CAFE.sku}`, '2', '1', '+1', money(10)],
          [`${ACUCAR.name}${ACUCAR.sku}`, '1', '4', '-3', money(-7.5)],
        ]);
      const totals = (await readCount(countId)).totals;
      expect(totals).toEqual({ lines: 3, linesWithDifference: 3, surplusValue: 10, shortageValue: -19.5, differenceValue: -9.5 });
      expect(await count.shownTotals()).toEqual({
        [count.t.totalLines]: '3',
        [count.t.linesWithDifference]: '3',
        [count.t.surplus]: money(10),
        [count.t.shortage]: money(-19.5),
        [count.t.net]: money(-9.5),
      });
      await count.uncounted.getByText(count.t.uncountedShown(1, false), { exact: true }).waitFor();
      expect(await count.rows('uncounted')).toEqual([[`${VELA.name}${VELA.sku}`, '7 UN', count.t.countIt]]);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '4-phone-review');

      // The close: the products nobody counted left as they are (the default), after a question.
      expect(await count.close.getByLabel(count.t.ruleIgnore, { exact: true }).isChecked()).toBe(true);
      expect(await count.close.getByLabel(count.t.ruleZero, { exact: true }).isChecked()).toBe(false);
      await count.close.getByRole('button', { name: literal.close, exact: true }).click();
      await count.alertDialog.getByText(count.t.closeConfirmDescription(false), { exact: true }).waitFor();
      await checkpoint(page, language, FLOW, '5-phone-close-question');
      await count.alertDialog.getByRole('button', { name: count.t.closeConfirm, exact: true }).click();
      await count.alertDialog.waitFor({ state: 'detached' });
      await page
        .getByRole('status')
        .filter({ hasText: count.t.uncountedWas('ignore') })
        .waitFor();
      await expect
        .poll(async () => (await count.rows('result')).map((row) => [row[0], row[5]]))
        .toEqual([
          [`${CHA.name}${CHA.sku}`, '-2'],
          [`${CAFE.name}${CAFE.sku}`, '+1'],
          [`${ACUCAR.name}${ACUCAR.sku}`, '-3'],
        ]);
      expect(await count.scanField.count()).toBe(0);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '6-phone-closed');
      const closed = await readCount(countId);
      expect(closed.status).toBe('CLOSED');
      expect(Object.fromEntries(closed.lines.map((line) => [line.productId, line.appliedDifference]))).toEqual({ [cha.id]: -2, [cafe.id]: 1, [acucar.id]: -3 });

      // The balances adjusted; the uncounted product kept its stock.
      expect(await balance(cafe.id, central)).toBe(2);
      expect(await balance(cha.id, central)).toBe(1);
      expect(await balance(acucar.id, central)).toBe(1);
      expect(await balance(vela.id, central)).toBe(7);
      // …and on the product's page, opened from the result.
      await count.resultTable.getByRole('link', { name: CAFE.name, exact: true }).click();
      const product = new ProductPage(page, language, server.consoleUrl);
      await product.title(CAFE.sku, CAFE.name).waitFor();
      await expect.poll(async () => (await product.rows('balances')).find((row) => row[0] === 'Central')).toEqual(['Central', '2', money(10)]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('counts on a desktop: a SKU, a typed quantity, an uncounted product and a line edited; a second count refused; the count cancelled', async () => {
    const cafe = products['CAFE-500'] as Product;
    const cha = products['CHA-100'] as Product;
    const list = new CountsPage(page, language, server.consoleUrl);
    await list.open('/inventory/counts');
    await list.title.waitFor();
    await page.getByText(list.t.noOpenCounts, { exact: true }).waitFor();
    await expect.poll(async () => (await list.rows('all')).map((row) => [row[0], row[2], row[3]])).toEqual([['Central', list.t.statusNames('CLOSED'), '3']]);
    await list.start('Loja');
    await page.waitForURL(/\/console\/inventory\/counts\/[0-9a-f-]+$/);
    const countId = countIdOfUrl();
    const count = new CountPage(page, language, server.consoleUrl);
    await count.title('Loja').waitFor();
    await expect.poll(() => count.scanFieldFocused()).toBe(true);
    await checkpoint(page, language, FLOW, '7-desktop-scan');

    // A code that is not a GTIN is sent as a SKU.
    await count.scan(CAFE.sku);
    await count.lastScanShows(CAFE.name, '1');
    // A shelf counted by hand: its quantity typed; the keyboard back in the code field after.
    await count.typeQuantity.click();
    await count.typeInDialog('4');
    await count.lastScanShows(CAFE.name, '4');
    await expect.poll(() => count.scanFieldFocused()).toBe(true);
    expect(await countedOf(countId)).toEqual({ [cafe.id]: 4 });

    // The review: the product nobody counted is counted there, and a line's quantity edited.
    await count.step('review').click();
    await count.uncounted.getByText(count.t.uncountedShown(1, false), { exact: true }).waitFor();
    await count.uncounted.getByRole('button', { name: count.t.countItName(CHA.name), exact: true }).click();
    await count.typeInDialog('2');
    await count.uncounted.getByText(count.t.uncountedShown(0, false), { exact: true }).waitFor();
    await page.getByRole('button', { name: count.t.editLine(CAFE.name), exact: true }).click();
    expect(await count.dialog.getByLabel(count.t.countedQuantity, { exact: true }).inputValue()).toBe('4');
    await count.typeInDialog('5');
    await page.getByRole('status').getByText(count.t.quantitySaved(CAFE.name, '5 UN'), { exact: true }).waitFor();
    // Both without a difference now: in either order.
    await expect
      .poll(async () => (await count.rows('lines')).map((row) => row.slice(0, 5)).sort())
      .toEqual([
        [`${CAFE.name}${CAFE.sku}`, '5', '5', '0', money(0)],
        [`${CHA.name}${CHA.sku}`, '2', '2', '0', money(0)],
      ]);
    expect(await countedOf(countId)).toEqual({ [cafe.id]: 5, [cha.id]: 2 });
    expect(await overflow()).toBeLessThanOrEqual(0);
    await checkpoint(page, language, FLOW, '8-desktop-review');

    // A second count of Loja while this one is open: the API's 409, with a link to the open one.
    await list.open('/inventory/counts');
    await expect.poll(async () => (await list.rows('open')).map((row) => [row[0], row[2]])).toEqual([['Loja', list.t.statusNames('OPEN')]]);
    await list.start('Loja');
    await list.startForm.getByRole('alert').waitFor();
    await list.startForm.getByRole('link', { name: list.t.continueOpen('Loja'), exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/inventory/counts/${countId}`);

    // Cancelled after a question: nothing adjusted.
    await count.step('review').click();
    await count.close.getByRole('button', { name: count.t.cancelCount, exact: true }).click();
    await count.alertDialog.getByRole('button', { name: count.t.keepCounting, exact: true }).waitFor();
    await count.alertDialog.getByRole('button', { name: count.t.cancelCount, exact: true }).click();
    await count.alertDialog.waitFor({ state: 'detached' });
    await page
      .getByRole('status')
      .filter({ hasText: sayingWithADate(count.t.cancelledOn) })
      .waitFor();
    expect((await readCount(countId)).status).toBe('CANCELLED');
    expect(await balance(cafe.id, loja)).toBe(5);
    expect(await balance(cha.id, loja)).toBe(2);
    await checkpoint(page, language, FLOW, '9-desktop-cancelled');
  });

  it('reads a barcode with the camera where the browser has a BarcodeDetector (camera and detector stubbed)', async () => {
    const acucar = products['ACUCAR-1'] as Product;
    const opened = await seed<{ id: string }>('/inventory/counts', { warehouseId: third });
    const phone = await context.newPage();
    try {
      await phone.setViewportSize({ width: 360, height: 740 });
      await phone.addInitScript((gtin: string) => {
        const record = window as unknown as Record<string, unknown>;
        let looks = 0;
        record.BarcodeDetector = class {
          constructor(options: { formats: string[] }) {
            record.barcodeFormats = options.formats;
          }
          /** Nothing in sight until the test shows the barcode, and a few frames after. */
          detect() {
            if (record.barcodeShown === true) looks += 1;
            return Promise.resolve(looks >= 3 ? [{ rawValue: gtin, format: 'ean_13' }] : []);
          }
        };
        navigator.mediaDevices.getUserMedia = (constraints?: MediaStreamConstraints) => {
          record.cameraConstraints = constraints;
          const canvas = document.createElement('canvas');
          canvas.width = 64;
          canvas.height = 48;
          canvas.getContext('2d')?.fillRect(0, 0, 64, 48);
          return Promise.resolve(canvas.captureStream(5));
        };
      }, ACUCAR.gtin);
      const count = new CountPage(phone, language, server.consoleUrl);
      await count.open(`/inventory/counts/${opened.id}`);
      await count.title('Depósito 3').waitFor();
      await count.camera.click();
      const dialog = phone.getByRole('dialog', { name: count.t.cameraTitle });
      await dialog.waitFor();
      await dialog.getByLabel(count.t.cameraPreview).waitFor();
      await checkpoint(phone, language, FLOW, '10-phone-camera-open');
      await phone.evaluate(() => ((window as unknown as Record<string, unknown>).barcodeShown = true));
      await dialog.waitFor({ state: 'detached' });
      await count.lastScanShows(ACUCAR.name, '1');
      await expect.poll(() => count.scanFieldFocused()).toBe(true);
      expect(await phone.evaluate(() => (window as unknown as Record<string, unknown>).cameraConstraints)).toEqual({
        video: { facingMode: 'environment' },
        audio: false,
      });
      expect(await phone.evaluate(() => (window as unknown as Record<string, unknown>).barcodeFormats)).toEqual(['ean_13', 'ean_8', 'upc_a']);
      expect(await countedOf(opened.id)).toEqual({ [acucar.id]: 1 });
      await checkpoint(phone, language, FLOW, '11-phone-camera-read');
    } finally {
      await phone.close();
    }
  });
});
