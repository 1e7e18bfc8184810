import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { common } from '../../../console/src/i18n/common';
import { exportMessages } from '../../../console/src/pages/exports/messages';
import {
  apiCall,
  checkpoint,
  closeBrowser,
  createTenant,
  expectAccessible,
  LANGUAGES,
  newContext,
  resetScreenshots,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { SignInPage } from './pages/sign-in-page';

/**
 * Exporting a spreadsheet: the suppliers exported from the Exportar page, reached from the menu;
 * the job followed until its link shows; the file downloaded by following it, its first line the
 * header the import reads and a row the supplier's.
 */
const FLOW = 'exports';

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('exports (%s)', (language) => {
  const t = exportMessages[language];
  let tenant: Tenant;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    tenant = await createTenant(server, `Export-${language}`);
    const created = await apiCall(
      server,
      'POST',
      '/suppliers',
      { name: 'Café União', corporateName: 'Café União Comércio LTDA', document: '52998224725', phone: '+5511987654321' },
      tenant.cookie,
    );
    expect(created.status).toBe(201);
    context = await newContext(language);
    page = await context.newPage();
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/`);
  });
  afterAll(async () => {
    await context.close();
  });

  it('exports the suppliers and downloads the file from its link', async () => {
    const navigation = page.getByRole('navigation', { name: common[language].mainNavigation });
    await expect.poll(() => navigation.getByRole('link', { name: common[language].imports, exact: true }).count()).toBe(1);
    await navigation.getByRole('link', { name: common[language].exports, exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/exports`);
    await page.getByRole('heading', { name: t.title, level: 1 }).waitFor();
    const form = page.getByRole('form', { name: t.formTitle });
    const kind = form.getByRole('combobox', { name: t.kind, exact: true });
    expect(await kind.inputValue()).toBe('suppliers');
    // The period is asked for only for the kinds that have one.
    expect(await form.getByLabel(t.from, { exact: true }).count()).toBe(0);
    await kind.selectOption('stock-history');
    await form.getByLabel(t.from, { exact: true }).waitFor();
    await kind.selectOption('suppliers');
    await checkpoint(page, language, FLOW, '1-form');

    await form.getByRole('button', { name: t.submit, exact: true }).click();
    const state = page.getByRole('region', { name: t.jobTitle(t.kindNames('suppliers')) });
    const link = state.getByRole('link', { name: /\.csv$/ });
    await link.waitFor({ timeout: 30_000 });
    expect(await state.getByRole('status').textContent()).toBe(`${t.status}: ${t.statusNames('done')} · ${t.rows('1')}`);
    await expectAccessible(page, 'exports');
    await checkpoint(page, language, FLOW, '2-done');

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^fornecedores-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readFile(await download.path(), 'utf8')).split('\r\n');
    expect(lines[0]).toBe('\uFEFFNome;Razão social;CNPJ/CPF;E-mail;Telefone;Ativo');
    expect(lines.slice(1)).toEqual(['Café União;Café União Comércio LTDA;529.982.247-25;;(11) 98765-4321;sim', '']);
  });
});
