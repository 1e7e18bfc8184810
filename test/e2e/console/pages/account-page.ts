import type { Page } from 'playwright-core';
import { accountMessages } from '../../../../console/src/pages/account/messages';
import type { Language } from '../harness';
import { ConsolePage } from './console-page';

/** /console/account: my sessions, changing the password, the second factor. */
export class AccountPage extends ConsolePage {
  readonly t;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.t = accountMessages[language];
  }

  section(title: string) {
    return this.page.getByRole('region', { name: title });
  }

  get sessions() {
    return this.section(this.t.sessionsTitle);
  }

  get sessionRows() {
    return this.sessions.locator('tbody tr');
  }

  get password() {
    return this.section(this.t.passwordTitle);
  }

  get secondFactor() {
    return this.section(this.t.mfaTitle);
  }

  get dialog() {
    return this.page.getByRole('alertdialog');
  }

  async revokeOthers(): Promise<void> {
    await this.sessions.getByRole('button', { name: this.t.revokeOthers, exact: true }).click();
    await this.dialog.getByRole('button', { name: this.t.revokeOthers, exact: true }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }

  async changePassword(current: string, next: string, confirmation = next): Promise<void> {
    await this.password.getByLabel(this.t.currentPassword, { exact: true }).fill(current);
    await this.password.getByLabel(this.t.newPassword, { exact: true }).fill(next);
    await this.password.getByLabel(this.t.confirmPassword, { exact: true }).fill(confirmation);
    await this.password.getByRole('button', { name: this.t.changePassword, exact: true }).click();
  }

  async startEnrolment(password: string): Promise<void> {
    await this.secondFactor.getByLabel(this.t.currentPassword, { exact: true }).fill(password);
    await this.secondFactor.getByRole('button', { name: this.t.mfaStart, exact: true }).click();
  }

  get qrCode() {
    return this.secondFactor.getByRole('img', { name: this.t.qrAlt });
  }

  /** The base32 key shown for manual entry, without the spaces that group it. */
  async secret(): Promise<string> {
    const text = await this.secondFactor.locator('p', { hasText: this.t.secret }).locator('code').textContent();
    return (text ?? '').replace(/\s/g, '');
  }

  async confirmEnrolment(code: string): Promise<void> {
    await this.secondFactor.getByLabel(this.t.mfaCode, { exact: true }).fill(code);
    await this.secondFactor.getByRole('button', { name: this.t.mfaConfirm, exact: true }).click();
  }

  get recoveryCodes() {
    return this.secondFactor.getByRole('list', { name: this.t.recoveryCaption }).getByRole('listitem');
  }

  async turnOff(code: string): Promise<void> {
    await this.secondFactor.getByLabel(this.t.mfaDisableCode, { exact: true }).fill(code);
    await this.secondFactor.getByRole('button', { name: this.t.mfaDisable, exact: true }).click();
  }
}
