import type { Page } from 'playwright-core';
import { messagesOf } from './texts';
import type { Language } from '../harness';

/**
 * The frame every signed-in page shares: the main navigation, the language switch and Sign
 * out. Each page object extends it; each finds controls by their accessible names, in the
 * language of the test (texts.ts reads them from the console's own message files).
 */
export class ConsolePage {
  readonly common;

  constructor(
    readonly page: Page,
    readonly language: Language,
    readonly consoleUrl: string,
  ) {
    this.common = messagesOf('common', language);
  }

  get navigation() {
    return this.page.getByRole('navigation', { name: this.common.mainNavigation });
  }

  navLink(name: 'dashboard' | 'companies' | 'suppliers' | 'inventory' | 'administration' | 'account') {
    return this.navigation.getByRole('link', { name: this.common[name], exact: true });
  }

  get signOutButton() {
    return this.page.getByRole('button', { name: this.common.signOut });
  }

  heading(name: string) {
    return this.page.getByRole('heading', { level: 1, name });
  }

  async open(path: string): Promise<void> {
    await this.page.goto(`${this.consoleUrl}${path}`);
  }

  async signOut(): Promise<void> {
    await this.signOutButton.click();
  }
}
