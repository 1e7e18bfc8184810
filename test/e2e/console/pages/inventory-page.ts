import type { Page } from 'playwright-core';
import { inventoryMessages } from '../../../../console/src/pages/inventory/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** /console/inventory: warehouses and products, each created and listed there. */
export class InventoryPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = inventoryMessages[language];
  }

  get title() {
    return this.heading(this.t.title);
  }

  get warehouseForm() {
    return this.page.getByRole('form', { name: this.t.newWarehouse });
  }

  get productForm() {
    return this.page.getByRole('form', { name: this.t.newProduct });
  }

  get warehousesTable() {
    return this.page.getByRole('table', { name: this.t.warehousesCaption });
  }

  get productsTable() {
    return this.page.getByRole('table', { name: this.t.productsCaption });
  }

  get search() {
    return this.page.getByRole('searchbox', { name: this.t.searchProducts });
  }

  async createWarehouse(name: string): Promise<void> {
    await this.warehouseForm.getByLabel(this.t.warehouseName, { exact: true }).fill(name);
    await this.warehouseForm.getByRole('button', { name: this.t.createWarehouse }).click();
    await this.warehouseForm.getByRole('status').getByText(this.t.warehouseCreated(name)).waitFor();
  }

  async createProduct(sku: string, name: string): Promise<void> {
    await this.productForm.getByLabel(this.t.sku, { exact: true }).fill(sku);
    await this.productForm.getByLabel(this.t.productName, { exact: true }).fill(name);
    await this.productForm.getByRole('button', { name: this.t.createProduct }).click();
    await this.productForm.getByRole('status').getByText(this.t.productCreated(sku)).waitFor();
  }

  productLink(sku: string) {
    return this.productsTable.getByRole('link', { name: sku, exact: true });
  }

  /** The transfer form, with its product picker. */
  get transfer() {
    return new TransferFormPart(this.page, this.t);
  }
}

/** The transfer form, on the product page and (with its product picker) on the inventory page. */
export class TransferFormPart {
  constructor(
    readonly page: Page,
    readonly t: (typeof inventoryMessages)[Language],
  ) {}

  get form() {
    return this.page.getByRole('form', { name: this.t.transferTitle });
  }

  field(label: string) {
    return this.form.getByLabel(label, { exact: true });
  }

  get submit() {
    return this.form.getByRole('button', { name: this.t.transferSubmit, exact: true });
  }

  get status() {
    return this.form.getByRole('status');
  }

  get alert() {
    return this.form.getByRole('alert');
  }

  /** Finds the product by part of its SKU or name, then chooses it (inventory page only). */
  async pickProduct(search: string, label: string): Promise<void> {
    await this.form.getByRole('searchbox', { name: this.t.findProduct }).fill(search);
    const select = this.field(this.t.product);
    await select.locator('option', { hasText: label }).waitFor({ state: 'attached' });
    await select.selectOption({ label });
  }

  async fill({ from, to, quantity, note }: { from: string; to: string; quantity: string; note?: string }): Promise<void> {
    await this.field(this.t.fromWarehouse).selectOption({ label: from });
    await this.field(this.t.toWarehouse).selectOption({ label: to });
    await this.field(this.t.transferQuantity).fill(quantity);
    if (note !== undefined) await this.field(this.t.note).fill(note);
  }
}

/** /console/inventory/products/:id: balances, the movement and transfer forms, the recent transfers, the stock history. */
export class ProductPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = inventoryMessages[language];
  }

  title(sku: string, name: string) {
    return this.heading(this.t.productTitle(sku, name));
  }

  get form() {
    return this.page.getByRole('form', { name: this.t.newMovement });
  }

  get type() {
    return this.form.getByLabel(this.t.type, { exact: true });
  }

  get warehouse() {
    return this.form.getByLabel(this.t.warehouse, { exact: true });
  }

  /** Named "Quantity" in English, as the product promises. */
  get quantity() {
    return this.form.getByLabel(this.t.quantity, { exact: true });
  }

  get unitCost() {
    return this.form.getByLabel(this.t.unitCost, { exact: true });
  }

  /** Named "Record movement" in English, as the product promises. */
  get record() {
    return this.form.getByRole('button', { name: this.t.recordMovement, exact: true });
  }

  get status() {
    return this.form.getByRole('status');
  }

  get alert() {
    return this.form.getByRole('alert');
  }

  get balancesTable() {
    return this.page.getByRole('table', { name: this.t.balancesCaption });
  }

  get historyTable() {
    return this.page.getByRole('table', { name: this.t.historyCaption });
  }

  get transfersTable() {
    return this.page.getByRole('table', { name: this.t.recentTransfersCaption });
  }

  /** The transfer form, the product fixed. */
  get transfer() {
    return new TransferFormPart(this.page, this.t);
  }

  /** The cells of each body row of a table, as text. */
  async rows(table: 'balances' | 'history' | 'transfers'): Promise<string[][]> {
    const locator = table === 'balances' ? this.balancesTable : table === 'history' ? this.historyTable : this.transfersTable;
    return locator
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim())));
  }

  async fill({
    type,
    warehouse,
    quantity,
    unitCost,
  }: {
    type: 'IN' | 'OUT' | 'SALE' | 'ADJUSTMENT';
    warehouse: string;
    quantity: string;
    unitCost?: string;
  }): Promise<void> {
    await this.type.selectOption(type);
    await this.warehouse.selectOption({ label: warehouse });
    await this.quantity.fill(quantity);
    if (unitCost !== undefined) await this.unitCost.fill(unitCost);
  }
}
