import type { Page } from 'playwright-core';
import { supplierMessages } from '../../../../console/src/pages/suppliers/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** /console/suppliers: the search, the numbered pages, the supplier dialog and the delete question. */
export class SuppliersPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = supplierMessages[language];
  }

  async openSuppliers(): Promise<void> {
    await this.open('/suppliers');
    await this.heading(this.t.title).waitFor();
  }

  get search() {
    return this.page.getByRole('searchbox', { name: this.t.search, exact: true });
  }

  /** The page's own "New supplier" (the empty state may show a second one). */
  get newSupplier() {
    return this.page.getByRole('button', { name: this.t.newSupplier, exact: true }).first();
  }

  get table() {
    return this.page.getByRole('table');
  }

  get rows() {
    return this.table.locator('tbody tr');
  }

  /** The names in the table's first column, in order. */
  async names(): Promise<string[]> {
    return this.rows.locator('td:first-child').allTextContents();
  }

  get pager() {
    return this.page.getByRole('navigation', { name: this.t.pager });
  }

  get nextPage() {
    return this.pager.getByRole('button', { name: this.common.nextPage });
  }

  get previousPage() {
    return this.pager.getByRole('button', { name: this.common.previousPage });
  }

  get notice() {
    return this.page.locator('p.alert-ok[role="status"]');
  }

  get dialog() {
    return this.page.getByRole('dialog');
  }

  field(label: 'name' | 'corporateName' | 'document' | 'email' | 'phone') {
    return this.dialog.getByLabel(this.t[label], { exact: true });
  }

  get activeBox() {
    return this.dialog.getByRole('checkbox', { name: this.t.active });
  }

  /** The message shown under a field of the dialog (its aria-describedby error). */
  async fieldError(label: 'name' | 'corporateName' | 'document' | 'email' | 'phone'): Promise<string | null> {
    const input = this.field(label);
    const id = await input.getAttribute('id');
    return this.page.locator(`[id="${id}-error"]`).textContent({ timeout: 5_000 });
  }

  get save() {
    return this.dialog.getByRole('button', { name: this.common.save, exact: true });
  }

  editButton(name: string) {
    return this.page.getByRole('button', { name: this.t.editSupplier(name), exact: true });
  }

  deleteButton(name: string) {
    return this.page.getByRole('button', { name: this.t.deleteSupplier(name), exact: true });
  }

  get confirm() {
    return this.page.getByRole('alertdialog', { name: this.t.deleteTitle });
  }

  get clearSearch() {
    return this.page.getByRole('button', { name: this.t.clearSearch, exact: true });
  }
}
