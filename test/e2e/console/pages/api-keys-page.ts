import type { Page } from 'playwright-core';
import type { Language } from '../harness';
import { AdminPage } from './admin-page';

/** The administration page's API keys section: the list, the create and roll forms, the key shown once, the revoke question. */
export class ApiKeysPage extends AdminPage {
  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
  }

  get keys() {
    return this.section(this.t.keysTitle);
  }

  get newKey() {
    return this.keys.getByRole('button', { name: this.t.newKey, exact: true });
  }

  /** The create and roll forms (Radix Dialog). */
  get form() {
    return this.page.getByRole('dialog');
  }

  /** The key shown once, and the revoke question (Radix AlertDialog). */
  get alert() {
    return this.page.getByRole('alertdialog');
  }

  keyRow(name: string) {
    return this.keys.getByRole('row').filter({ has: this.page.getByRole('cell', { name, exact: true }) });
  }

  level(resource: 'companies' | 'suppliers' | 'inventory' | 'dashboards' | 'audit') {
    return this.form.getByLabel(this.t.resourceName(resource), { exact: true });
  }

  get companyLimit() {
    return this.form.getByLabel(this.t.companyLimit, { exact: true });
  }

  /** The message under a field of the open form (TextField and SelectField: `<id>-error`). */
  async fieldError(label: string): Promise<string | null> {
    const id = await this.form.getByLabel(label, { exact: true }).getAttribute('id');
    return this.page.locator(`[id="${id}-error"]`).textContent({ timeout: 5_000 });
  }

  async createKey(name: string, levels: Partial<Record<'companies' | 'suppliers' | 'inventory' | 'dashboards' | 'audit', string>>): Promise<void> {
    await this.form.getByLabel(this.t.name, { exact: true }).fill(name);
    for (const [resource, level] of Object.entries(levels)) await this.level(resource as keyof typeof levels).selectOption(level);
    await this.form.getByRole('button', { name: this.t.createKey, exact: true }).click();
  }

  /** The key's text in the dialog that shows it once. */
  get shownKey() {
    return this.alert.getByLabel(this.t.secretField, { exact: true });
  }

  async closeShownKey(): Promise<void> {
    await this.alert.getByRole('button', { name: this.t.secretDone, exact: true }).click();
    await this.alert.waitFor({ state: 'detached' });
  }

  async roll(name: string, hours: string): Promise<void> {
    await this.keys.getByRole('button', { name: this.t.rollKey(name), exact: true }).click();
    await this.form.getByLabel(this.t.rollHours, { exact: true }).fill(hours);
    await this.form.getByRole('button', { name: this.t.roll, exact: true }).click();
  }

  async revoke(name: string): Promise<void> {
    await this.keys.getByRole('button', { name: this.t.revokeKey(name), exact: true }).click();
    await this.alert.getByRole('button', { name: this.t.revoke, exact: true }).click();
    await this.alert.waitFor({ state: 'detached' });
  }
}
