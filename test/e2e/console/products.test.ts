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
import { ConsolePage } from './pages/console-page';
import { InventoryPage, ProductPage } from './pages/inventory-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * The product catalog by hand: every field of a product edited on its page and saved; a save
 * after someone else changed the product refused (412) with what to do, then reloaded; the list
 * filtered by status; a barcode scanner's digits and Enter opening the product; a product
 * without movements deleted, one with movements kept with the advice to deactivate it; the
 * movement form of an inactive product, which says what it takes before anything is sent; and
 * the pages on a 360-px-wide phone.
 */
const FLOW = 'products';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

interface ProductView {
  id: string;
  sku: string;
  name: string;
  description: string | null;
  brand: string | null;
  unit: string;
  gtin: string | null;
  ncm: string | null;
  cest: string | null;
  salePrice: number | null;
  status: 'ACTIVE' | 'INACTIVE';
  version: number;
}

/** /console/inventory/products/:id as this flow uses it: the details, the edit form, the delete dialog. */
class ProductCatalogPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = inventoryMessages[language];
  }

  get details() {
    return this.page.getByRole('region', { name: this.t.details });
  }

  /** The values the details show, in their order (SKU … status), without the dates. */
  async shownValues(): Promise<string[]> {
    return (await this.details.getByRole('definition').allTextContents()).slice(0, 11);
  }

  get editButton() {
    return this.details.getByRole('button', { name: this.t.editProduct, exact: true });
  }

  get form() {
    return this.page.getByRole('form', { name: this.t.editProduct });
  }

  field(label: string) {
    return this.form.getByLabel(label, { exact: true });
  }

  get save() {
    return this.form.getByRole('button', { name: this.t.saveProduct, exact: true });
  }

  get status() {
    return this.details.getByRole('status');
  }

  get deleteButton() {
    return this.details.getByRole('button', { name: this.t.deleteProduct, exact: true });
  }

  get deleteDialog() {
    return this.page.getByRole('alertdialog');
  }
}

/** What the edit form is given in each language, and what the page then shows. */
const TYPED: Record<Language, { price: string; shownPrice: string; formPrice: string }> = {
  'pt-BR': { price: '1.234,5', shownPrice: 'R$ 1.234,50', formPrice: '1.234,50' },
  en: { price: '1,234.5', shownPrice: 'R$ 1,234.50', formPrice: '1,234.50' },
};

describe.each(LANGUAGES)('product catalog (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  const t = inventoryMessages[language];

  const create = async (body: Record<string, unknown>) => {
    const answer = await apiCall<ProductView>(server, 'POST', '/inventory/products', body, tenant.cookie);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  const read = (id: string) => apiCall<ProductView>(server, 'GET', `/inventory/products/${id}`, undefined, tenant.cookie);
  const openProduct = async (product: ProductView) => {
    const view = new ProductCatalogPage(page, language, server.consoleUrl);
    await view.open(`/inventory/products/${product.id}`);
    await view.heading(t.productTitle(product.sku, product.name)).waitFor();
    return view;
  };

  beforeAll(async () => {
    tenant = await createTenant(server, `Catalog-${language === 'en' ? 'en' : 'pt'}`);
    context = await newContext(language);
    page = await context.newPage();
    await page.goto(`${server.consoleUrl}/`);
    await new SignInPage(page, language, server.consoleUrl).signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/`);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('edits every field of a product, says a refused field beside it, and shows what was saved', async () => {
    const product = await create({ sku: 'CAFE-500', name: 'Café torrado 500 g' });
    const view = await openProduct(product);
    expect(await view.shownValues()).toEqual([
      'CAFE-500',
      'Café torrado 500 g',
      t.notSet,
      t.notSet,
      t.notSet,
      t.unitOption('UN'),
      t.notSet,
      t.notSet,
      t.notSet,
      t.notSet,
      t.statusNames('ACTIVE'),
    ]);
    await view.editButton.click();
    await view.field(t.name).fill('Café torrado 1 kg');
    await view.field(t.description).fill('Torra média.\nPacote almofadado.');
    await view.field(t.brand).fill('Pilão');
    await view.field(t.unit).selectOption('KG');
    await view.field(t.gtin).fill('7891234567802');
    await view.field(t.ncm).fill('123');
    await view.field(t.cest).fill('17.096.00');
    await view.field(t.salePrice).fill(TYPED[language].price);
    await view.field(t.status).selectOption('INACTIVE');

    // An NCM of 3 digits: the server's reason beside the field, and nothing saved.
    const refused = await apiCall<{ errors: { field: string; message: string }[] }>(
      server,
      'PATCH',
      `/inventory/products/${product.id}`,
      { ncm: '123' },
      tenant.cookie,
    );
    expect(refused.status).toBe(400);
    const reason = refused.body.errors.find((error) => error.field === 'ncm')?.message ?? '';
    expect(reason).not.toBe('');
    await view.save.click();
    await expect.poll(() => view.field(t.ncm).getAttribute('aria-invalid')).toBe('true');
    await view.form.getByText(reason, { exact: true }).waitFor();
    expect((await read(product.id)).body.version).toBe(1);
    await checkpoint(page, language, FLOW, '1-field-refused');

    await view.field(t.ncm).fill('0901.21.00');
    await view.save.click();
    await view.status.getByText(t.productSaved).waitFor();
    const saved = await read(product.id);
    expect(saved.headers.get('etag')).toBe('"2"');
    expect(saved.body).toMatchObject({
      sku: 'CAFE-500',
      name: 'Café torrado 1 kg',
      description: 'Torra média.\nPacote almofadado.',
      brand: 'Pilão',
      unit: 'KG',
      gtin: '7891234567802',
      ncm: '09012100',
      cest: '1709600',
      salePrice: 1234.5,
      status: 'INACTIVE',
      version: 2,
    });
    await view.heading(t.productTitle('CAFE-500', 'Café torrado 1 kg')).waitFor();
    expect(await view.shownValues()).toEqual([
      'CAFE-500',
      'Café torrado 1 kg',
      'Torra média.\nPacote almofadado.',
      'Pilão',
      t.notSet,
      t.unitOption('KG'),
      '7891234567802',
      '09012100',
      '1709600',
      TYPED[language].shownPrice,
      t.statusNames('INACTIVE'),
    ]);
    await checkpoint(page, language, FLOW, '2-saved');

    // The form opens on the saved values; emptied optional fields are cleared (null).
    await view.editButton.click();
    expect(await view.field(t.salePrice).inputValue()).toBe(TYPED[language].formPrice);
    await view.field(t.brand).fill('');
    await view.field(t.salePrice).fill('');
    await view.save.click();
    await view.status.getByText(t.productSaved).waitFor();
    expect((await read(product.id)).body).toMatchObject({ brand: null, salePrice: null, version: 3 });
  });

  it('refuses a save over someone else’s change with “reload”, and reloads the product as it is now', async () => {
    const product = await create({ sku: 'CHA-100', name: 'Chá verde 100 g' });
    const view = await openProduct(product);
    await view.editButton.click();
    await view.field(t.name).fill('Chá verde 200 g');

    // Someone changes the product after the page loaded it.
    const other = await apiCall<ProductView>(server, 'PATCH', `/inventory/products/${product.id}`, { name: 'Chá mate 100 g' }, tenant.cookie);
    expect(other.status).toBe(200);

    await view.save.click();
    const alert = view.form.getByRole('alert');
    await alert.getByText(t.staleProduct, { exact: true }).waitFor();
    expect((await read(product.id)).body).toMatchObject({ name: 'Chá mate 100 g', version: 2 });
    await checkpoint(page, language, FLOW, '3-stale');

    await alert.getByRole('button', { name: t.reloadProduct }).click();
    await expect.poll(() => view.field(t.name).inputValue()).toBe('Chá mate 100 g');
    await expect.poll(() => alert.count()).toBe(0);
    await view.field(t.name).fill('Chá mate 200 g');
    await view.save.click();
    await view.status.getByText(t.productSaved).waitFor();
    expect((await read(product.id)).body).toMatchObject({ name: 'Chá mate 200 g', version: 3 });
  });

  it('lists the active products by default, and the inactive ones or all of them on demand', async () => {
    await create({ sku: 'FILTRO-ATIVO', name: 'Filtro de papel' });
    await create({ sku: 'FILTRO-INATIVO', name: 'Filtro de pano', status: 'INACTIVE' });
    const inventory = new InventoryPage(page, language, server.consoleUrl);
    await inventory.open('/inventory');
    await inventory.title.waitFor();
    await inventory.search.fill('filtro');
    const skus = () => inventory.productsTable.getByRole('link').allTextContents();
    await expect.poll(skus).toEqual(['FILTRO-ATIVO']);

    const status = page.getByLabel(t.statusFilter, { exact: true });
    expect(await status.inputValue()).toBe('ACTIVE');
    await status.selectOption({ label: t.statusFilterNames('INACTIVE') });
    await expect.poll(skus).toEqual(['FILTRO-INATIVO']);
    await checkpoint(page, language, FLOW, '4-inactive');
    await status.selectOption({ label: t.statusFilterNames('ALL') });
    await expect.poll(skus).toEqual(['FILTRO-ATIVO', 'FILTRO-INATIVO']);
    await expect
      .poll(() => inventory.productsTable.getByRole('row').allTextContents())
      .toEqual([expect.any(String), expect.stringContaining(t.statusNames('ACTIVE')), expect.stringContaining(t.statusNames('INACTIVE'))]);
  });

  it('opens the product whose barcode a scanner types (digits, then Enter), of any status, and says when none has it', async () => {
    const product = await create({ sku: 'ACUCAR-1', name: 'Açúcar cristal 1 kg', gtin: '7891000315507', status: 'INACTIVE' });
    const inventory = new InventoryPage(page, language, server.consoleUrl);
    await inventory.open('/inventory');
    await inventory.title.waitFor();
    const lookup = page.getByRole('search', { name: t.barcodeSearch });
    const barcode = lookup.getByLabel(t.barcode, { exact: true });

    // No product has this one: said, and the field emptied for the next scan.
    await barcode.pressSequentially('96385074');
    await barcode.press('Enter');
    await lookup.getByRole('status').getByText(t.barcodeNotFound('96385074')).waitFor();
    await expect.poll(() => barcode.inputValue()).toBe('');
    await checkpoint(page, language, FLOW, '5-barcode-unknown');

    await barcode.pressSequentially('7891000315507');
    await barcode.press('Enter');
    await page.waitForURL(`${server.consoleUrl}/inventory/products/${product.id}`);
    await new ProductCatalogPage(page, language, server.consoleUrl).heading(t.productTitle('ACUCAR-1', 'Açúcar cristal 1 kg')).waitFor();
  });

  it('deletes a product that never moved, and keeps one with movements, saying to deactivate it', async () => {
    const unused = await create({ sku: 'APAGAR-1', name: 'Cadastrado por engano' });
    let view = await openProduct(unused);
    await view.deleteButton.click();
    await view.deleteDialog.getByRole('heading', { name: t.deleteTitle('APAGAR-1') }).waitFor();
    await view.deleteDialog.getByRole('button', { name: t.deleteConfirm, exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/inventory`);
    await page.getByRole('status').getByText(t.productDeleted('APAGAR-1')).waitFor();
    expect((await read(unused.id)).status).toBe(404);

    const moved = await create({ sku: 'VENDIDO-1', name: 'Vendido uma vez' });
    const warehouse = await apiCall<{ id: string }>(server, 'POST', '/inventory/warehouses', { name: 'Depósito Centro' }, tenant.cookie);
    expect(warehouse.status).toBe(201);
    const movement = await apiCall(
      server,
      'POST',
      '/inventory/movements',
      { productId: moved.id, warehouseId: warehouse.body.id, type: 'IN', quantity: 2, unitCost: 5 },
      tenant.cookie,
    );
    expect(movement.status).toBe(201);
    view = await openProduct(moved);
    await view.deleteButton.click();
    await view.deleteDialog.getByRole('button', { name: t.deleteConfirm, exact: true }).click();
    await view.deleteDialog.getByRole('alert').getByText(t.deleteHasMovements).waitFor();
    await checkpoint(page, language, FLOW, '6-delete-refused');
    expect((await read(moved.id)).status).toBe(200);
    await page.keyboard.press('Escape');
    await expect.poll(() => view.deleteDialog.count()).toBe(0);
  });

  it('warns on the movement form of an inactive product that it takes no IN or SALE, and offers only OUT and ADJUSTMENT', async () => {
    const product = await create({ sku: 'FORA-DE-LINHA', name: 'Saiu de linha' });
    const warehouse = await apiCall<{ id: string }>(server, 'POST', '/inventory/warehouses', { name: 'Depósito Norte' }, tenant.cookie);
    expect(warehouse.status).toBe(201);
    const stocked = await apiCall(
      server,
      'POST',
      '/inventory/movements',
      { productId: product.id, warehouseId: warehouse.body.id, type: 'IN', quantity: 3, unitCost: 4 },
      tenant.cookie,
    );
    expect(stocked.status).toBe(201);
    const view = new ProductPage(page, language, server.consoleUrl);
    await view.open(`/inventory/products/${product.id}`);
    await view.title('FORA-DE-LINHA', 'Saiu de linha').waitFor();
    const options = () => view.type.locator('option').evaluateAll((list) => list.map((option) => (option as HTMLOptionElement).value));
    expect(await options()).toEqual(['IN', 'OUT', 'SALE', 'ADJUSTMENT']);
    expect(await view.form.getByText(t.inactiveMovements).count()).toBe(0);

    // Deactivated on its page: the form says at once what an inactive product takes.
    const catalog = new ProductCatalogPage(page, language, server.consoleUrl);
    await catalog.editButton.click();
    await catalog.field(t.status).selectOption('INACTIVE');
    await catalog.save.click();
    await catalog.status.getByText(t.productSaved).waitFor();
    await view.form.getByText(t.inactiveMovements, { exact: true }).waitFor();
    await expect.poll(options).toEqual(['OUT', 'ADJUSTMENT']);
    expect(await view.type.inputValue()).toBe('OUT');
    expect(await view.form.getByText(t.inactiveTypesHint, { exact: true }).isVisible()).toBe(true);
    await checkpoint(page, language, FLOW, '7-inactive-movement');

    // What it still takes: its stock leaves.
    await view.fill({ type: 'OUT', warehouse: 'Depósito Norte', quantity: '3' });
    await view.record.click();
    await view.status.getByText(t.movementRecorded('OUT')).waitFor();
    const moved = await apiCall<{ items: { type: string; quantity: number }[] }>(
      server,
      'GET',
      `/inventory/movements?productId=${product.id}`,
      undefined,
      tenant.cookie,
    );
    expect(moved.body.items.map((movement) => [movement.type, movement.quantity])).toEqual([
      ['OUT', 3],
      ['IN', 3],
    ]);
  });

  it('fits a 360-px-wide phone: the product page, its form and the list', async () => {
    const product = await create({ sku: 'TELEFONE-360', name: 'Produto visto num telefone', brand: 'Marca com um nome bem comprido' });
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      const view = await openProduct(product);
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await view.editButton.click();
      await view.field(t.salePrice).waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '8-phone-form');

      const inventory = new InventoryPage(page, language, server.consoleUrl);
      await inventory.open('/inventory');
      await inventory.productLink('TELEFONE-360').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '9-phone-list');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
