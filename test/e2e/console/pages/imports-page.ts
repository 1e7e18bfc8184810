import type { Page } from 'playwright-core';
import { importMessages } from '../../../../console/src/pages/imports/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** /console/imports: the file form and the report of the job it started. */
export class ImportsPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = importMessages[language];
  }

  get title() {
    return this.heading(this.t.title);
  }

  get form() {
    return this.page.getByRole('form', { name: this.t.formTitle });
  }

  get kind() {
    return this.form.getByLabel(this.t.kind, { exact: true });
  }

  get file() {
    return this.form.getByLabel(this.t.file, { exact: true });
  }

  get dryRun() {
    return this.form.getByRole('checkbox', { name: this.t.dryRun });
  }

  /** Chooses the file (as its bytes) and sends it, as a check or for real. */
  async send(name: string, text: string, { dryRun }: { dryRun: boolean }): Promise<void> {
    await this.file.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
    await this.dryRun.setChecked(dryRun);
    await this.form.getByRole('button', { name: this.t.submit, exact: true }).click();
  }

  report(fileName: string) {
    return this.page.getByRole('region', { name: this.t.reportTitle(fileName) });
  }

  /** The report's status once it reads `status` (e.g. succeeded), waited for. */
  async waitForStatus(fileName: string, status: 'succeeded' | 'failed'): Promise<void> {
    await this.report(fileName).getByRole('status').getByText(this.t.statusNames(status), { exact: true }).waitFor();
  }

  /** The value of one row of the summary, found by its row header. */
  async count(fileName: string, label: string): Promise<string | null> {
    const summary = this.report(fileName).getByRole('table', { name: this.t.summary });
    return summary
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: label, exact: true }) })
      .getByRole('cell')
      .textContent();
  }

  /** The refused rows as their cells read: line, column, problem. */
  async refusedRows(fileName: string): Promise<string[][]> {
    const rows = this.report(fileName).getByRole('table', { name: this.t.errorsCaption }).getByRole('row');
    const all = await rows.all();
    const cells = await Promise.all(all.slice(1).map((row) => row.getByRole('cell').allTextContents()));
    return cells;
  }

  progress(fileName: string) {
    return this.report(fileName).getByRole('progressbar', { name: this.t.progress });
  }

  realImportButton(fileName: string) {
    return this.report(fileName).getByRole('button', { name: this.t.realImport, exact: true });
  }
}
