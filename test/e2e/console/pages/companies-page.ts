import type { Page } from 'playwright-core';
import { companyMessages } from '../../../../console/src/pages/companies/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

type Field = 'name' | 'document' | 'email' | 'street' | 'number' | 'city' | 'state' | 'zipCode' | 'taxRegime' | 'costMethod';

/** /console/companies: the list, the company dialog and the status dialog. */
export class CompaniesPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = companyMessages[language];
  }

  async openCompanies(): Promise<void> {
    await this.open('/companies');
    await this.heading(this.t.title).waitFor();
  }

  get newCompany() {
    return this.page.getByRole('button', { name: this.t.newCompany, exact: true }).first();
  }

  get rows() {
    return this.page.getByRole('table').locator('tbody tr');
  }

  row(name: string) {
    return this.rows.filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  get dialog() {
    return this.page.getByRole('dialog');
  }

  field(label: Field) {
    return this.dialog.getByLabel(this.t[label], { exact: true });
  }

  async fieldError(label: Field): Promise<string | null> {
    const id = await this.field(label).getAttribute('id');
    return this.page.locator(`[id="${id}-error"]`).textContent({ timeout: 5_000 });
  }

  get save() {
    return this.dialog.getByRole('button', { name: this.common.save, exact: true });
  }

  editButton(name: string) {
    return this.page.getByRole('button', { name: this.t.editCompany(name), exact: true });
  }

  statusButton(name: string) {
    return this.page.getByRole('button', { name: this.t.changeStatusOf(name), exact: true });
  }

  get newStatus() {
    return this.dialog.getByLabel(this.t.newStatus, { exact: true });
  }

  get applyStatus() {
    return this.dialog.getByRole('button', { name: this.t.applyStatus, exact: true });
  }

  get notice() {
    return this.page.locator('p.alert-ok[role="status"]');
  }
}
