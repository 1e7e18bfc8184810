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
  type Tenant,
} from './harness';
import { ProductPage } from './pages/inventory-page';
import { SignInPage } from './pages/sign-in-page';
import { SupplierProductsPage } from './pages/supplier-products-page';
import { SuppliersPage } from './pages/suppliers-page';

/**
 * What each supplier sells: a supplier's products opened from its row of the suppliers page;
 * a product linked with its terms (picked by search, the form's Idempotency-Key sent, the
 * preferred mark taken from the product's other supplier), a product already linked and a code
 * already used refused beside their fields; the product page's Suppliers section with the
 * preferred one marked; the terms edited (If-Match), a save over someone else's change refused
 * (412) and reloaded; a supplier that sells products kept when deleted, with what to do; a
 * product removed after a question; and the pages on a 360-px phone. The API is asked what it
 * holds after each step.
 */
const FLOW = 'supplier-products';

interface LinkView {
  supplierId: string;
  supplierName: string;
  productId: string;
  sku: string;
  productName: string;
  supplierCode: string | null;
  unit: string | null;
  unitsPerPack: number;
  lastCost: number | null;
  leadTimeDays: number;
  minimumOrder: number | null;
  preferred: boolean;
  version: number;
}

/** A CPF with its check digits, from 9 digits. */
function cpf(base: string): string {
  const digits = base.split('').map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    const rest = sum % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join('');
}

const CAFE = 'Café do Sul Distribuidora';
const NORTE = 'Atacado Norte';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('supplier products (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  let view: SupplierProductsPage;
  const ids = { cafe: '', norte: '', coffee: '', sugar: '' };
  /** Decimals as the user types them. */
  const typed = (text: string) => (language === 'en' ? text : text.replace('.', ','));
  /** Money as the console shows it: `R$ 8,50` (`R$ 8.50` in English). */
  const money = (value: string) => `R$ ${typed(value)}`;

  const call = <T>(method: string, path: string, body?: unknown) => apiCall<T>(server, method, path, body, tenant.cookie);
  const created = async (path: string, body: unknown) => {
    const answer = await call<{ id: string }>('POST', path, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.id;
  };
  const linksOf = async (supplierId: string) => (await call<{ items: LinkView[] }>('GET', `/suppliers/${supplierId}/products`)).body.items;
  const link = (supplierId: string, productId: string) => call<LinkView>('GET', `/suppliers/${supplierId}/products/${productId}`);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  /** The request headers of each console call to a supplier's products (method, path, headers). */
  const sent: { method: string; path: string; headers: Record<string, string> }[] = [];

  beforeAll(async () => {
    tenant = await createTenant(server, language === 'en' ? 'SupplierProducts-en' : 'SupplierProducts-pt');
    ids.cafe = await created('/suppliers', { name: CAFE, corporateName: `${CAFE} Ltda`, document: cpf('123456701') });
    ids.norte = await created('/suppliers', { name: NORTE, corporateName: `${NORTE} Ltda`, document: cpf('123456702') });
    ids.coffee = await created('/inventory/products', { sku: 'CAF-500', name: 'Café torrado 500 g' });
    ids.sugar = await created('/inventory/products', { sku: 'ACU-1', name: 'Açúcar cristal 1 kg' });
    // Atacado Norte sells the coffee first, as its preferred supplier.
    const first = await call('POST', `/suppliers/${ids.norte}/products`, { productId: ids.coffee, lastCost: 9.1, leadTimeDays: 3, preferred: true });
    expect(first.status, JSON.stringify(first.body)).toBe(201);

    context = await newContext(language);
    page = await context.newPage();
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (/^\/suppliers\/[^/]+\/products/.test(path) && request.method() !== 'GET') sent.push({ method: request.method(), path, headers: request.headers() });
    });
    view = new SupplierProductsPage(page, language, server.consoleUrl);
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/suppliers');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await view.signOutButton.waitFor();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('opens a supplier’s products from its row on the suppliers page, empty at first', async () => {
    const suppliers = new SuppliersPage(page, language, server.consoleUrl);
    await suppliers.openSuppliers();
    await page.getByRole('link', { name: suppliers.t.productsOf(CAFE), exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/suppliers/${ids.cafe}/products`);
    await view.title(CAFE).waitFor();
    // The title the product promises, literally, in each language.
    const heading = language === 'en' ? `Products from ${CAFE}` : `Produtos de ${CAFE}`;
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    expect(await page.title()).toBe(`${heading} · Back-office`);
    expect(await view.navLink('suppliers').getAttribute('aria-current')).toBe('page');
    await page.getByText(view.t.emptyTitle, { exact: true }).waitFor();
    expect(await view.addProduct.textContent()).toBe(language === 'en' ? 'Add a product' : 'Adicionar produto');
    await checkpoint(page, language, FLOW, '1-empty');
  });

  it('links a product with its terms (picked by search), then refuses a product already linked and a code already used', async () => {
    const t = view.t;
    await view.addProduct.click();
    await view.dialog.waitFor();
    expect(await view.field(t.unitsPerPack).inputValue()).toBe('1');
    expect(await view.field(t.leadTimeDays).inputValue()).toBe('7');
    await view.pickProduct('caf', 'CAF-500 · Café torrado 500 g');
    await view.fillTerms({
      supplierCode: 'CX-CAF-12',
      unit: 'CX',
      unitsPerPack: '12',
      lastCost: typed('8.5'),
      leadTimeDays: '10',
      minimumOrder: '24',
      preferred: true,
    });
    await checkpoint(page, language, FLOW, '2-add-form');
    await view.save.click();
    await view.notice.filter({ hasText: t.added('CAF-500') }).waitFor();
    expect(await view.dialog.count()).toBe(0);
    await expect
      .poll(() => view.rows(CAFE))
      .toEqual([['CAF-500', 'Café torrado 500 g', 'CX-CAF-12', t.packOf('CX', '12'), money('8.50'), t.days(10), '24', `★ ${t.preferred}`]]);

    expect(await linksOf(ids.cafe)).toEqual([
      expect.objectContaining({
        supplierName: CAFE,
        productId: ids.coffee,
        sku: 'CAF-500',
        supplierCode: 'CX-CAF-12',
        unit: 'CX',
        unitsPerPack: 12,
        lastCost: 8.5,
        leadTimeDays: 10,
        minimumOrder: 24,
        preferred: true,
        version: 1,
      }),
    ]);
    // The mark moved: the product's other supplier is no longer its preferred one.
    expect((await link(ids.norte, ids.coffee)).body).toMatchObject({ preferred: false, version: 2 });
    const posts = sent.filter((request) => request.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers['idempotency-key']).toMatch(/.{16,}/);

    // The same product again: the supplier sells it already, said beside the product.
    await view.addProduct.click();
    await view.pickProduct('CAF-500', 'CAF-500 · Café torrado 500 g');
    await view.save.click();
    await expect.poll(() => view.fieldError(view.inventory.product)).toBe(t.alreadyLinked);
    expect(await view.dialog.getByRole('alert').textContent()).toContain('already sells');
    await checkpoint(page, language, FLOW, '3-already-linked');

    // Another product with the code of the first (whatever its case): said beside the code.
    await view.pickProduct('ACU', 'ACU-1 · Açúcar cristal 1 kg');
    await view.fillTerms({ supplierCode: 'cx-caf-12' });
    await view.save.click();
    await expect.poll(() => view.fieldError(t.supplierCode)).toBe(t.codeTaken);
    expect(await view.field(t.supplierCode).getAttribute('aria-invalid')).toBe('true');
    expect(await linksOf(ids.cafe)).toHaveLength(1);

    await view.fillTerms({ supplierCode: 'FD-ACU' });
    await view.save.click();
    await view.notice.filter({ hasText: t.added('ACU-1') }).waitFor();
    // Each opening of the form had its own key.
    const keys = sent.filter((request) => request.method === 'POST').map((request) => request.headers['idempotency-key']);
    expect(new Set(keys.slice(1)).size).toBe(1);
    expect(keys[1]).not.toBe(keys[0]);
    await expect.poll(() => view.rows(CAFE).then((rows) => rows.map((row) => row[0]))).toEqual(expect.arrayContaining(['CAF-500', 'ACU-1']));
    expect((await link(ids.cafe, ids.sugar)).body).toMatchObject({
      supplierCode: 'FD-ACU',
      unit: null,
      unitsPerPack: 1,
      lastCost: null,
      leadTimeDays: 7,
      preferred: false,
    });
    await checkpoint(page, language, FLOW, '4-list');
  });

  it('shows the product’s suppliers on its page, the preferred one marked and first', async () => {
    const t = view.t;
    await view.table(CAFE).getByRole('link', { name: 'CAF-500', exact: true }).click();
    const product = new ProductPage(page, language, server.consoleUrl);
    await product.title('CAF-500', 'Café torrado 500 g').waitFor();
    await view.productSuppliers.getByRole('heading', { level: 2, name: t.productSuppliers, exact: true }).waitFor();
    await expect
      .poll(() => view.productSupplierRows())
      .toEqual([
        [CAFE, 'CX-CAF-12', t.packOf('CX', '12'), money('8.50'), t.days(10), '24', `★ ${t.preferred}`],
        [NORTE, t.notSet, t.productUnit, money('9.10'), t.days(3), t.noMinimum, ''],
      ]);
    expect(await view.productSuppliers.getByRole('link', { name: NORTE, exact: true }).getAttribute('href')).toBe(`/console/suppliers/${ids.norte}/products`);
    await checkpoint(page, language, FLOW, '5-product-suppliers');
  });

  it('edits the terms with If-Match; a save over someone else’s change is refused (412) and reloaded', async () => {
    const t = view.t;
    await view.openFor(ids.cafe, CAFE);
    await view.editButton('CAF-500').click();
    await view.dialog.waitFor();
    expect(await view.dialog.getByText('CAF-500 · Café torrado 500 g').count()).toBe(1);
    expect(await view.field(t.lastCost).inputValue()).toBe(typed('8.5'));
    expect(await view.preferredBox.isChecked()).toBe(true);
    await view.fillTerms({ lastCost: typed('8.75'), leadTimeDays: '5', minimumOrder: '' });
    await view.save.click();
    await view.notice.filter({ hasText: t.updated('CAF-500') }).waitFor();
    const patch = sent.filter((request) => request.method === 'PATCH').at(-1);
    expect(patch?.headers['if-match']).toBe('"1"');
    expect((await link(ids.cafe, ids.coffee)).body).toMatchObject({
      lastCost: 8.75,
      leadTimeDays: 5,
      minimumOrder: null,
      supplierCode: 'CX-CAF-12',
      version: 2,
    });
    await expect
      .poll(() => view.rows(CAFE).then((rows) => rows.find((row) => row[0] === 'CAF-500')))
      .toEqual(['CAF-500', 'Café torrado 500 g', 'CX-CAF-12', t.packOf('CX', '12'), money('8.75'), t.days(5), t.noMinimum, `★ ${t.preferred}`]);

    // Someone changes the lead time after the dialog opened.
    await view.editButton('CAF-500').click();
    await view.fillTerms({ leadTimeDays: '6' });
    const other = await call('PATCH', `/suppliers/${ids.cafe}/products/${ids.coffee}`, { leadTimeDays: 9 });
    expect(other.status).toBe(200);
    await view.save.click();
    const alert = view.dialog.getByRole('alert');
    await alert.getByText(t.stale, { exact: true }).waitFor();
    expect((await link(ids.cafe, ids.coffee)).body).toMatchObject({ leadTimeDays: 9, version: 3 });
    await checkpoint(page, language, FLOW, '6-stale');
    await alert.getByRole('button', { name: t.reload, exact: true }).click();
    await expect.poll(() => view.field(t.leadTimeDays).inputValue()).toBe('9');
    await view.fillTerms({ leadTimeDays: '6' });
    await view.save.click();
    await view.notice.filter({ hasText: t.updated('CAF-500') }).waitFor();
    expect((await link(ids.cafe, ids.coffee)).body).toMatchObject({ leadTimeDays: 6, version: 4 });

    // Nothing changed: nothing is sent.
    const patches = sent.filter((request) => request.method === 'PATCH').length;
    await view.editButton('CAF-500').click();
    await view.save.click();
    await view.notice.filter({ hasText: t.nothingChanged }).waitFor();
    expect(sent.filter((request) => request.method === 'PATCH')).toHaveLength(patches);
  });

  it('keeps a supplier that sells products when deleted, and removes a product after asking', async () => {
    const t = view.t;
    const suppliers = new SuppliersPage(page, language, server.consoleUrl);
    await suppliers.openSuppliers();
    await suppliers.deleteButton(CAFE).click();
    await suppliers.confirm.getByRole('button', { name: suppliers.t.deleteConfirm, exact: true }).click();
    await suppliers.confirm.getByRole('alert').getByText(suppliers.t.deleteHasProducts(CAFE), { exact: true }).waitFor();
    expect(await suppliers.confirm.getByRole('link', { name: suppliers.t.seeProductsOf(CAFE), exact: true }).getAttribute('href')).toBe(
      `/console/suppliers/${ids.cafe}/products`,
    );
    expect((await call('GET', `/suppliers/${ids.cafe}`)).status).toBe(200);
    await suppliers.confirm.getByRole('link', { name: suppliers.t.seeProductsOf(CAFE), exact: true }).click();
    await view.title(CAFE).waitFor();

    await view.removeButton('CAF-500').click();
    const question = view.confirm('CAF-500', CAFE);
    await question.waitFor();
    expect(await question.textContent()).toContain(t.removeDescription);
    await checkpoint(page, language, FLOW, '7-remove-question');
    await question.getByRole('button', { name: t.removeConfirm, exact: true }).click();
    await view.notice.filter({ hasText: t.removed('CAF-500') }).waitFor();
    expect(await question.count()).toBe(0);
    expect(sent.filter((request) => request.method === 'DELETE').at(-1)?.headers['if-match']).toBe('"4"');
    expect((await link(ids.cafe, ids.coffee)).status).toBe(404);
    await expect.poll(() => view.rows(CAFE).then((rows) => rows.map((row) => row[0]))).toEqual(['ACU-1']);

    // The product page lists only the other supplier now, not preferred (the mark left with the link).
    const product = new ProductPage(page, language, server.consoleUrl);
    await product.open(`/inventory/products/${ids.coffee}`);
    await product.title('CAF-500', 'Café torrado 500 g').waitFor();
    await expect.poll(() => view.productSupplierRows()).toEqual([[NORTE, t.notSet, t.productUnit, money('9.10'), t.days(3), t.noMinimum, '']]);
    // Without suppliers, the sugar's page says how to link one.
    await call('DELETE', `/suppliers/${ids.cafe}/products/${ids.sugar}`);
    await product.open(`/inventory/products/${ids.sugar}`);
    await view.productSuppliers.getByText(t.noSuppliers, { exact: true }).waitFor();
    await checkpoint(page, language, FLOW, '8-no-suppliers');
  });

  it('fits a 360-px-wide phone: the supplier’s products, the add dialog, the product’s suppliers', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    try {
      await view.openFor(ids.norte, NORTE);
      await expect.poll(() => view.rows(NORTE).then((rows) => rows.map((row) => row[0]))).toEqual(['CAF-500']);
      expect(await view.editButton('CAF-500').isVisible()).toBe(true);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '9-phone-list');

      await view.addProduct.click();
      await view.pickProduct('ACU', 'ACU-1 · Açúcar cristal 1 kg');
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '10-phone-add');
      await view.cancel.click();
      await expect.poll(() => view.dialog.count()).toBe(0);

      await view.open(`/inventory/products/${ids.coffee}`);
      await expect.poll(() => view.productSupplierRows().then((rows) => rows.map((row) => row[0]))).toEqual([NORTE]);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '11-phone-product');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
