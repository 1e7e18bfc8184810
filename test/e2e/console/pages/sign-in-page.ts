import type { Page } from 'playwright-core';
import type { Language } from '../harness';
import { messagesOf } from './texts';

/** /console/sign-in: e-mail, password, remember me, then the second factor when the user has one. */
export class SignInPage {
  readonly t;

  constructor(
    readonly page: Page,
    readonly language: Language,
    readonly consoleUrl: string,
  ) {
    this.t = messagesOf('auth', language);
  }

  async open(next?: string): Promise<void> {
    await this.page.goto(`${this.consoleUrl}/sign-in${next ? `?next=${encodeURIComponent(next)}` : ''}`);
  }

  get email() {
    return this.page.getByLabel(this.t.email, { exact: true });
  }

  get password() {
    return this.page.getByLabel(this.t.password, { exact: true });
  }

  get rememberMe() {
    return this.page.getByLabel(this.t.rememberMe);
  }

  get submit() {
    return this.page.getByRole('button', { name: this.t.signIn, exact: true });
  }

  get code() {
    return this.page.getByLabel(this.t.code, { exact: true });
  }

  get recoveryCode() {
    return this.page.getByLabel(this.t.recoveryCode, { exact: true });
  }

  async signIn(email: string, password: string, { rememberMe = false } = {}): Promise<void> {
    await this.email.fill(email);
    await this.password.fill(password);
    if (rememberMe) await this.rememberMe.check();
    await this.submit.click();
  }

  async verify(code: string): Promise<void> {
    await this.code.fill(code);
    await this.page.getByRole('button', { name: this.t.verify }).click();
  }

  async verifyWithRecoveryCode(code: string): Promise<void> {
    await this.page.getByRole('button', { name: this.t.useRecoveryCode }).click();
    await this.recoveryCode.fill(code);
    await this.page.getByRole('button', { name: this.t.verify }).click();
  }
}
