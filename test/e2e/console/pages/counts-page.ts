import type { Locator, Page } from 'playwright-core';
import { countMessages } from '../../../../console/src/pages/counts/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** The cells of each body row of a table, as text. */
async function rowsOf(table: Locator): Promise<string[][]> {
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => (cell.textContent ?? '').trim())));
}

/** /console/inventory/counts: the start form, the counts in progress, every count. */
export class CountsPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = countMessages[language];
  }

  get title() {
    return this.heading(this.t.title);
  }

  get startForm() {
    return this.page.getByRole('form', { name: this.t.startTitle });
  }

  async start(warehouse: string, note?: string): Promise<void> {
    await this.startForm.getByLabel(this.t.warehouse, { exact: true }).selectOption({ label: warehouse });
    if (note !== undefined) await this.startForm.getByLabel(this.t.note, { exact: true }).fill(note);
    await this.startForm.getByRole('button', { name: this.t.startSubmit, exact: true }).click();
  }

  get openTable() {
    return this.page.getByRole('table', { name: this.t.openCountsCaption });
  }

  get allTable() {
    return this.page.getByRole('table', { name: this.t.allCountsCaption });
  }

  rows(table: 'open' | 'all'): Promise<string[][]> {
    return rowsOf(table === 'open' ? this.openTable : this.allTable);
  }
}

/** /console/inventory/counts/:id: the scanning screen, the review and the close, the result. */
export class CountPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = countMessages[language];
  }

  title(warehouse: string) {
    return this.heading(this.t.countTitle(warehouse));
  }

  get scanField() {
    return this.page.getByLabel(this.t.scanLabel, { exact: true });
  }

  get scanForm() {
    return this.page.getByRole('form', { name: this.t.scanForm });
  }

  get lastScan() {
    return this.page.getByRole('region', { name: this.t.lastScan });
  }

  get undo() {
    return this.lastScan.getByRole('button', { name: this.t.undo, exact: true });
  }

  get typeQuantity() {
    return this.lastScan.getByRole('button', { name: this.t.typeQuantity, exact: true });
  }

  get camera() {
    return this.page.getByRole('button', { name: this.t.camera, exact: true });
  }

  /** Whether the code field has the keyboard (where a scanner types). */
  scanFieldFocused(): Promise<boolean> {
    return this.scanField.evaluate((field) => field === document.activeElement);
  }

  /** What a USB scanner does: the code's keys into whatever has the focus, then Enter. */
  async scan(code: string): Promise<void> {
    await this.page.keyboard.type(code);
    await this.page.keyboard.press('Enter');
  }

  /** Waits until the last scan shows this product with this running count. */
  async lastScanShows(name: string, counted: string, unit = 'UN'): Promise<void> {
    await this.lastScan.getByText(name, { exact: true }).waitFor();
    await this.lastScan.getByText(`${this.t.counted}: ${counted} ${unit}`, { exact: true }).waitFor();
  }

  step(name: 'scan' | 'review') {
    return this.page
      .getByRole('navigation', { name: this.t.views })
      .getByRole('link', { name: name === 'scan' ? this.t.scanView : this.t.reviewView, exact: true });
  }

  /** The totals as shown: each term with its value. */
  async shownTotals(): Promise<Record<string, string>> {
    return this.page
      .locator('dl.count-totals > div')
      .evaluateAll((items) =>
        Object.fromEntries(items.map((item) => [item.querySelector('dt')?.textContent ?? '', item.querySelector('dd')?.textContent ?? ''])),
      );
  }

  get linesTable() {
    return this.page.getByRole('table', { name: this.t.linesCaption });
  }

  get resultTable() {
    return this.page.getByRole('table', { name: this.t.resultCaption });
  }

  get uncounted() {
    return this.page.getByRole('region', { name: this.t.uncountedTitle });
  }

  get uncountedTable() {
    return this.page.getByRole('table', { name: this.t.uncountedCaption });
  }

  get close() {
    return this.page.getByRole('region', { name: this.t.closeTitle });
  }

  get dialog() {
    return this.page.getByRole('dialog');
  }

  get alertDialog() {
    return this.page.getByRole('alertdialog');
  }

  rows(table: 'lines' | 'result' | 'uncounted'): Promise<string[][]> {
    return rowsOf(table === 'lines' ? this.linesTable : table === 'result' ? this.resultTable : this.uncountedTable);
  }

  /** Types a counted quantity in the open quantity dialog and saves it. */
  async typeInDialog(quantity: string): Promise<void> {
    await this.dialog.getByLabel(this.t.countedQuantity, { exact: true }).fill(quantity);
    await this.dialog.getByRole('button', { name: this.t.saveQuantity, exact: true }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }
}
