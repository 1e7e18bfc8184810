import type { Page } from 'playwright-core';
import { adminMessages } from '../../../../console/src/pages/settings/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** /console/administration: users, invitations, the audit trail, the second-factor policy, the stock-low alert. */
export class AdminPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = adminMessages[language];
  }

  section(title: string) {
    return this.page.getByRole('region', { name: title });
  }

  get users() {
    return this.section(this.t.usersTitle);
  }

  get invitations() {
    return this.section(this.t.invitationsTitle);
  }

  get audit() {
    return this.section(this.t.auditTitle);
  }

  get dialog() {
    return this.page.getByRole('alertdialog');
  }

  get stockLow() {
    return this.section(this.t.stockLowTitle);
  }

  get stockLowField() {
    return this.stockLow.getByRole('textbox', { name: this.t.stockLowDays, exact: true });
  }

  /** Types the threshold (empty: off) and saves it. */
  async saveStockLow(days: string): Promise<void> {
    await this.stockLowField.fill(days);
    await this.stockLow.getByRole('button', { name: this.t.saveStockLow, exact: true }).click();
  }

  userRow(email: string) {
    return this.users.getByRole('row').filter({ hasText: email });
  }

  roleSelect(name: string) {
    return this.users.getByLabel(this.t.roleOf(name), { exact: true });
  }

  async invite(email: string): Promise<void> {
    await this.invitations.getByLabel(this.t.email, { exact: true }).fill(email);
    await this.invitations.getByRole('button', { name: this.t.invite, exact: true }).click();
  }

  invitationRow(email: string) {
    return this.invitations.getByRole('row').filter({ hasText: email });
  }

  async withdraw(email: string): Promise<void> {
    await this.invitations.getByRole('button', { name: this.t.withdrawInvitation(email) }).click();
    await this.dialog.getByRole('button', { name: this.t.withdraw, exact: true }).click();
  }

  async filterAudit({ action }: { action?: string }): Promise<void> {
    if (action) await this.audit.getByLabel(this.t.action, { exact: true }).selectOption(action);
    await this.audit.getByRole('button', { name: this.t.applyFilters, exact: true }).click();
  }

  /** The action code of each entry shown (beside its name in words). */
  auditActions() {
    return this.audit.getByRole('table').locator('tbody tr td:nth-child(3) code').allTextContents();
  }
}
