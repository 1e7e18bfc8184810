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
import { CategoriesPage } from './pages/categories-page';
import { InventoryPage, ProductPage } from './pages/inventory-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * Product categories by hand: reached from the inventory page; created, a name another has
 * (case and accents aside) refused beside the field, renamed, a rename over someone else's
 * refused (412) with what to do, then reloaded; products given a category on their create form
 * and on their page, the list showing it and filtered by it; a category in use kept with the
 * advice to move its products first, an unused one deleted; and the pages on a 360-px phone,
 * where the product list leaves the category out. The API is asked what it holds after each step.
 */
const FLOW = 'categories';

interface CategoryView {
  id: string;
  name: string;
  productCount: number;
  version: number;
}
interface ProductView {
  id: string;
  sku: string;
  categoryId: string | null;
}

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('product categories (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  let categories: CategoriesPage;
  let inventory: InventoryPage;

  const listCategories = async () => (await apiCall<CategoryView[]>(server, 'GET', '/inventory/categories?limit=100', undefined, tenant.cookie)).body;
  const categoryNamed = async (name: string) => {
    const found = (await listCategories()).find((category) => category.name === name);
    if (!found) throw new Error(`no category named ${name}`);
    return found;
  };
  const readCategory = (id: string) => apiCall<CategoryView>(server, 'GET', `/inventory/categories/${id}`, undefined, tenant.cookie);
  const createProduct = async (body: Record<string, unknown>) => {
    const answer = await apiCall<ProductView>(server, 'POST', '/inventory/products', body, tenant.cookie);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body;
  };
  const productSkus = () => inventory.productsTable.getByRole('link').allTextContents();
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  beforeAll(async () => {
    tenant = await createTenant(server, language === 'en' ? 'Categories-en' : 'Categories-pt');
    context = await newContext(language);
    page = await context.newPage();
    categories = new CategoriesPage(page, language, server.consoleUrl);
    inventory = new InventoryPage(page, language, server.consoleUrl);
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/inventory');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await inventory.title.waitFor();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('creates categories from the inventory’s link, refuses a name another has (case and accents aside), and renames one', async () => {
    const c = categories.t;
    await page.getByRole('link', { name: inventory.t.manageCategories, exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/inventory/categories`);
    await categories.title.waitFor();
    await page.getByText(c.emptyTitle, { exact: true }).waitFor();
    expect(await categories.navLink('inventory').getAttribute('aria-current')).toBe('page');
    await checkpoint(page, language, FLOW, '1-empty');

    await categories.create('Bebidas');
    await categories.create('Limpeza');
    await expect
      .poll(() => categories.rows())
      .toEqual([
        ['Bebidas', c.productCount(0)],
        ['Limpeza', c.productCount(0)],
      ]);

    // Another case and an accent make no new name: the API's 409, said beside the field.
    const taken = await apiCall<{ detail: string }>(server, 'POST', '/inventory/categories', { name: 'BEBÍDAS' }, tenant.cookie);
    expect(taken.status).toBe(409);
    await categories.newCategory.click();
    await categories.name.fill('BEBÍDAS');
    await categories.save.click();
    await expect.poll(() => categories.nameError()).toBe(c.nameTaken);
    expect(await categories.name.getAttribute('aria-invalid')).toBe('true');
    expect(await categories.dialog.getByRole('alert').textContent()).toContain(taken.body.detail);
    await checkpoint(page, language, FLOW, '2-name-taken');
    await categories.cancel.click();
    await expect.poll(() => categories.dialog.count()).toBe(0);
    expect((await listCategories()).map((category) => category.name)).toEqual(['Bebidas', 'Limpeza']);

    await categories.renameButton('Limpeza').click();
    expect(await categories.name.inputValue()).toBe('Limpeza');
    await categories.name.fill('Limpeza e higiene');
    await categories.save.click();
    await categories.notice.filter({ hasText: c.renamed('Limpeza e higiene') }).waitFor();
    expect(await categories.dialog.count()).toBe(0);
    expect(await categoryNamed('Limpeza e higiene')).toMatchObject({ productCount: 0, version: 2 });
    await expect
      .poll(() => categories.rows())
      .toEqual([
        ['Bebidas', c.productCount(0)],
        ['Limpeza e higiene', c.productCount(0)],
      ]);
  });

  it('refuses a rename over someone else’s with “reload”, and reloads the category as it is now', async () => {
    const c = categories.t;
    const drinks = await categoryNamed('Bebidas');
    await categories.renameButton('Bebidas').click();
    await categories.name.fill('Bebidas geladas');

    // Someone renames it after the dialog opened.
    const other = await apiCall(server, 'PATCH', `/inventory/categories/${drinks.id}`, { name: 'Bebidas e sucos' }, tenant.cookie);
    expect(other.status).toBe(200);

    await categories.save.click();
    const alert = categories.dialog.getByRole('alert');
    await alert.getByText(c.stale, { exact: true }).waitFor();
    expect((await readCategory(drinks.id)).body).toMatchObject({ name: 'Bebidas e sucos', version: 2 });
    await checkpoint(page, language, FLOW, '3-stale');

    await alert.getByRole('button', { name: c.reload, exact: true }).click();
    await expect.poll(() => categories.name.inputValue()).toBe('Bebidas e sucos');
    await expect.poll(() => alert.count()).toBe(0);
    await categories.name.fill('Bebidas geladas');
    await categories.save.click();
    await categories.notice.filter({ hasText: c.renamed('Bebidas geladas') }).waitFor();
    const renamed = await readCategory(drinks.id);
    expect(renamed.headers.get('etag')).toBe('"3"');
    expect(renamed.body).toMatchObject({ name: 'Bebidas geladas', version: 3 });
  });

  it('gives products a category on their create form and on their page, shows it in the list, and filters the list by it', async () => {
    const t = inventory.t;
    const drinks = await categoryNamed('Bebidas geladas');
    const water = await createProduct({ sku: 'AGUA-500', name: 'Água mineral 500 ml' });
    await createProduct({ sku: 'SABAO-1', name: 'Sabão em pó 1 kg' });

    await inventory.open('/inventory');
    await inventory.title.waitFor();
    const categoryOnCreate = inventory.productForm.getByLabel(t.category, { exact: true });
    await expect.poll(() => categoryOnCreate.locator('option').allTextContents()).toEqual([t.noCategory, 'Bebidas geladas', 'Limpeza e higiene']);
    await categoryOnCreate.selectOption({ label: 'Bebidas geladas' });
    await inventory.createProduct('SUCO-1', 'Suco de uva 1 L');
    expect(await categoryOnCreate.inputValue()).toBe('');
    const juice = (await apiCall<ProductView[]>(server, 'GET', '/inventory/products?search=SUCO-1', undefined, tenant.cookie)).body;
    expect(juice.map((product) => [product.sku, product.categoryId])).toEqual([['SUCO-1', drinks.id]]);

    // On its page: chosen in the edit form, then shown by name.
    const product = new ProductPage(page, language, server.consoleUrl);
    await product.open(`/inventory/products/${water.id}`);
    await product.title('AGUA-500', 'Água mineral 500 ml').waitFor();
    const details = page.getByRole('region', { name: t.details });
    await details.getByRole('button', { name: t.editProduct, exact: true }).click();
    const form = page.getByRole('form', { name: t.editProduct });
    expect(await form.getByLabel(t.category, { exact: true }).inputValue()).toBe('');
    await form.getByLabel(t.category, { exact: true }).selectOption({ label: 'Bebidas geladas' });
    await form.getByRole('button', { name: t.saveProduct, exact: true }).click();
    await details.getByRole('status').getByText(t.productSaved).waitFor();
    await details.getByRole('definition').filter({ hasText: 'Bebidas geladas' }).waitFor();
    expect((await apiCall<ProductView>(server, 'GET', `/inventory/products/${water.id}`, undefined, tenant.cookie)).body.categoryId).toBe(drinks.id);
    await checkpoint(page, language, FLOW, '4-product-category');

    // The list names each product's category; the filter keeps one category's products.
    await inventory.open('/inventory');
    await inventory.title.waitFor();
    await expect.poll(productSkus).toEqual(['AGUA-500', 'SABAO-1', 'SUCO-1']);
    expect(await inventory.productsTable.getByRole('columnheader', { name: t.category, exact: true }).count()).toBe(1);
    await expect
      .poll(() => inventory.productsTable.getByRole('row').allTextContents())
      .toEqual([
        expect.any(String),
        expect.stringContaining('Bebidas geladas'),
        expect.not.stringContaining('Bebidas geladas'),
        expect.stringContaining('Bebidas geladas'),
      ]);
    const filters = page.getByRole('group', { name: t.productFilters });
    await filters.getByLabel(t.categoryFilter, { exact: true }).selectOption({ label: 'Bebidas geladas' });
    await expect.poll(productSkus).toEqual(['AGUA-500', 'SUCO-1']);
    await checkpoint(page, language, FLOW, '5-filtered');
    await filters.getByLabel(t.categoryFilter, { exact: true }).selectOption({ label: 'Limpeza e higiene' });
    await page.getByText(t.noProductsInCategory, { exact: true }).waitFor();

    // The categories page counts them, and its count opens the list of them.
    const c = categories.t;
    await categories.openCategories();
    await expect
      .poll(() => categories.rows())
      .toEqual([
        ['Bebidas geladas', c.productCount(2)],
        ['Limpeza e higiene', c.productCount(0)],
      ]);
    await categories.table.getByRole('link', { name: c.seeProducts('Bebidas geladas', 2), exact: true }).click();
    await inventory.title.waitFor();
    expect(await filters.getByLabel(t.categoryFilter, { exact: true }).inputValue()).toBe(drinks.id);
    expect(await filters.getByLabel(t.statusFilter, { exact: true }).inputValue()).toBe('ALL');
    await expect.poll(productSkus).toEqual(['AGUA-500', 'SUCO-1']);
  });

  it('keeps a category products use, saying to move them first, and deletes an unused one', async () => {
    const c = categories.t;
    const drinks = await categoryNamed('Bebidas geladas');
    const cleaning = await categoryNamed('Limpeza e higiene');
    await categories.openCategories();

    await categories.deleteButton('Bebidas geladas').click();
    const refused = categories.confirm('Bebidas geladas');
    await refused.waitFor();
    expect(await refused.textContent()).toContain(c.deleteDescription);
    await refused.getByRole('button', { name: c.deleteConfirm, exact: true }).click();
    await refused.getByRole('alert').getByText(c.inUse('Bebidas geladas'), { exact: true }).waitFor();
    expect(await refused.getByRole('button', { name: c.deleteConfirm, exact: true }).isDisabled()).toBe(true);
    expect(await refused.getByRole('link', { name: c.seeProductsOf('Bebidas geladas'), exact: true }).getAttribute('href')).toBe(
      `/console/inventory?categoryId=${drinks.id}&status=ALL`,
    );
    await checkpoint(page, language, FLOW, '6-delete-refused');
    expect((await readCategory(drinks.id)).body).toMatchObject({ productCount: 2 });
    await page.keyboard.press('Escape');
    await expect.poll(() => refused.count()).toBe(0);

    await categories.deleteButton('Limpeza e higiene').click();
    await categories.confirm('Limpeza e higiene').getByRole('button', { name: c.deleteConfirm, exact: true }).click();
    await categories.notice.filter({ hasText: c.deleted('Limpeza e higiene') }).waitFor();
    expect(await categories.confirm('Limpeza e higiene').count()).toBe(0);
    expect((await readCategory(cleaning.id)).status).toBe(404);
    await expect.poll(() => categories.rows()).toEqual([['Bebidas geladas', c.productCount(2)]]);
    await checkpoint(page, language, FLOW, '7-deleted');
  });

  it('fits a 360-px-wide phone: the categories, their dialog, and the product list without the category column', async () => {
    await page.setViewportSize({ width: 360, height: 780 });
    try {
      await categories.openCategories();
      await expect.poll(() => categories.rows()).toEqual([['Bebidas geladas', categories.t.productCount(2)]]);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '8-phone-list');
      await categories.renameButton('Bebidas geladas').click();
      await categories.name.waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '9-phone-rename');
      await categories.cancel.click();

      await inventory.open('/inventory');
      await inventory.productLink('AGUA-500').waitFor();
      expect(await inventory.productsTable.getByRole('columnheader', { name: inventory.t.category, exact: true }).count()).toBe(0);
      expect(await page.getByRole('group', { name: inventory.t.productFilters }).getByLabel(inventory.t.categoryFilter, { exact: true }).isVisible()).toBe(
        true,
      );
      expect(await overflow()).toBeLessThanOrEqual(0);
      await checkpoint(page, language, FLOW, '10-phone-products');
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });
});
