import type { Page } from 'playwright-core';
import { inventoryMessages } from '../../../../console/src/pages/inventory/messages';
import { supplierProductMessages } from '../../../../console/src/pages/supplier-products/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** The text of each body row's cells of a table. */
const cellTexts = (rows: Element[]) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim()));

/**
 * /console/suppliers/:id/products: what a supplier sells, its add/edit dialog (the product
 * picked by search) and the remove question; and the product page's Suppliers section.
 */
export class SupplierProductsPage extends ConsolePage {
  readonly t;
  /** The product picker's words (it is the inventory's). */
  readonly inventory;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = supplierProductMessages[language];
    this.inventory = inventoryMessages[language];
  }

  title(supplier: string) {
    return this.heading(this.t.title(supplier));
  }

  async openFor(supplierId: string, supplier: string): Promise<void> {
    await this.open(`/suppliers/${supplierId}/products`);
    await this.title(supplier).waitFor();
  }

  /** The page's own "Add a product". */
  get addProduct() {
    return this.page.getByRole('button', { name: this.t.addProduct, exact: true });
  }

  table(supplier: string) {
    return this.page.getByRole('table', { name: this.t.tableCaption(supplier) });
  }

  /** Each row's cells but the actions, in the table's order. */
  async rows(supplier: string): Promise<string[][]> {
    const rows = await this.table(supplier).locator('tbody tr').evaluateAll(cellTexts);
    return rows.map((cells) => cells.slice(0, -1));
  }

  get notice() {
    return this.page.locator('p.alert-ok[role="status"]');
  }

  get dialog() {
    return this.page.getByRole('dialog');
  }

  field(label: string) {
    return this.dialog.getByLabel(label, { exact: true });
  }

  /** The message under a field of the dialog (its aria-describedby error). */
  async fieldError(label: string): Promise<string | null> {
    const id = await this.field(label).getAttribute('id');
    return this.page.locator(`[id="${id}-error"]`).textContent({ timeout: 5_000 });
  }

  /** Finds the product by part of its SKU or name in the dialog's picker, then chooses it. */
  async pickProduct(search: string, label: string): Promise<void> {
    await this.dialog.getByRole('searchbox', { name: this.inventory.findProduct }).fill(search);
    const select = this.field(this.inventory.product);
    await select.locator('option', { hasText: label }).waitFor({ state: 'attached' });
    await select.selectOption({ label });
  }

  get preferredBox() {
    return this.dialog.getByRole('checkbox', { name: this.t.preferredBox });
  }

  async fillTerms(terms: {
    supplierCode?: string;
    unit?: string;
    unitsPerPack?: string;
    lastCost?: string;
    leadTimeDays?: string;
    minimumOrder?: string;
    preferred?: boolean;
  }): Promise<void> {
    const t = this.t;
    if (terms.supplierCode !== undefined) await this.field(t.supplierCode).fill(terms.supplierCode);
    if (terms.unit !== undefined) await this.field(t.supplierUnit).fill(terms.unit);
    if (terms.unitsPerPack !== undefined) await this.field(t.unitsPerPack).fill(terms.unitsPerPack);
    if (terms.lastCost !== undefined) await this.field(t.lastCost).fill(terms.lastCost);
    if (terms.leadTimeDays !== undefined) await this.field(t.leadTimeDays).fill(terms.leadTimeDays);
    if (terms.minimumOrder !== undefined) await this.field(t.minimumOrder).fill(terms.minimumOrder);
    if (terms.preferred !== undefined) await this.preferredBox.setChecked(terms.preferred);
  }

  get save() {
    return this.dialog.getByRole('button', { name: this.common.save, exact: true });
  }

  get cancel() {
    return this.dialog.getByRole('button', { name: this.common.cancel, exact: true });
  }

  editButton(sku: string) {
    return this.page.getByRole('button', { name: this.t.editTerms(sku), exact: true });
  }

  removeButton(sku: string) {
    return this.page.getByRole('button', { name: this.t.removeProduct(sku), exact: true });
  }

  confirm(sku: string, supplier: string) {
    return this.page.getByRole('alertdialog', { name: this.t.removeTitle(sku, supplier) });
  }

  /** The product page's "Suppliers" section. */
  get productSuppliers() {
    return this.page.getByRole('region', { name: this.t.productSuppliers, exact: true });
  }

  /** Each row of the product page's suppliers table. */
  async productSupplierRows(): Promise<string[][]> {
    return this.productSuppliers.getByRole('table', { name: this.t.productSuppliersCaption }).locator('tbody tr').evaluateAll(cellTexts);
  }
}
