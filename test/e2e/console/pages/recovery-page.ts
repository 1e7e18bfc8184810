import type { Page } from 'playwright-core';
import { recoveryMessages } from '../../../../console/src/pages/auth/recovery-messages';
import type { Language } from '../harness';

/** The public account pages besides sign-in: forgot and reset password, an invitation's registration, the company sign-up. */
export class RecoveryPage {
  readonly t;

  constructor(
    readonly page: Page,
    readonly language: Language,
    readonly consoleUrl: string,
  ) {
    this.t = recoveryMessages[language];
  }

  heading(name: string) {
    return this.page.getByRole('heading', { level: 1, name });
  }

  field(label: string) {
    return this.page.getByLabel(label, { exact: true });
  }

  button(name: string) {
    return this.page.getByRole('button', { name, exact: true });
  }

  get status() {
    return this.page.getByRole('status').filter({ hasText: /\S/ });
  }

  async forgotPassword(email: string): Promise<void> {
    await this.page.goto(`${this.consoleUrl}/forgot-password`);
    await this.field(this.t.email).fill(email);
    await this.button(this.t.sendLink).click();
  }

  async resetPassword(password: string, confirmation = password): Promise<void> {
    await this.field(this.t.newPassword).fill(password);
    await this.field(this.t.confirmPassword).fill(confirmation);
    await this.button(this.t.resetSubmit).click();
  }

  async register(name: string, password: string): Promise<void> {
    await this.field(this.t.name).fill(name);
    await this.field(this.t.password).fill(password);
    await this.field(this.t.confirmPassword).fill(password);
    await this.button(this.t.createAccount).click();
  }

  async signUp({
    companyName,
    slug,
    plan,
    adminEmail,
  }: {
    companyName: string;
    slug?: string;
    plan?: 'STARTER' | 'PROFESSIONAL' | 'ENTERPRISE';
    adminEmail: string;
  }): Promise<void> {
    await this.page.goto(`${this.consoleUrl}/sign-up`);
    await this.field(this.t.companyName).fill(companyName);
    if (slug !== undefined) await this.field(this.t.slug).fill(slug);
    if (plan) await this.field(this.t.plan).selectOption(plan);
    await this.field(this.t.adminEmail).fill(adminEmail);
    await this.button(this.t.signUpSubmit).click();
  }
}
