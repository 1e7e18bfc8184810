import type { Page } from 'playwright-core';
import { categoryMessages } from '../../../../console/src/pages/categories/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** /console/inventory/categories: the categories by name with their product counts, the create/rename dialog, the delete question. */
export class CategoriesPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = categoryMessages[language];
  }

  get title() {
    return this.heading(this.t.title);
  }

  async openCategories(): Promise<void> {
    await this.open('/inventory/categories');
    await this.title.waitFor();
  }

  get newCategory() {
    return this.page.getByRole('button', { name: this.t.newCategory, exact: true });
  }

  get table() {
    return this.page.getByRole('table', { name: this.t.tableCaption });
  }

  /** Each row's name and product count, in the table's order. */
  async rows(): Promise<[string, string][]> {
    return this.table
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim()).slice(0, 2) as [string, string]),
      );
  }

  get notice() {
    return this.page.locator('p.alert-ok[role="status"]');
  }

  get dialog() {
    return this.page.getByRole('dialog');
  }

  get name() {
    return this.dialog.getByLabel(this.t.name, { exact: true });
  }

  get save() {
    return this.dialog.getByRole('button', { name: this.common.save, exact: true });
  }

  get cancel() {
    return this.dialog.getByRole('button', { name: this.common.cancel, exact: true });
  }

  /** The message under the name field (its aria-describedby error). */
  async nameError(): Promise<string | null> {
    const id = await this.name.getAttribute('id');
    return this.page.locator(`[id="${id}-error"]`).textContent({ timeout: 5_000 });
  }

  renameButton(name: string) {
    return this.page.getByRole('button', { name: this.t.renameCategory(name), exact: true });
  }

  deleteButton(name: string) {
    return this.page.getByRole('button', { name: this.t.deleteCategory(name), exact: true });
  }

  confirm(name: string) {
    return this.page.getByRole('alertdialog', { name: this.t.deleteTitle(name) });
  }

  /** Creates a category through the dialog and waits for the notice. */
  async create(name: string): Promise<void> {
    await this.newCategory.click();
    await this.name.fill(name);
    await this.save.click();
    await this.notice.filter({ hasText: this.t.created(name) }).waitFor();
  }
}
