import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMessages } from '../../../console/src/pages/account/messages';
import { inventoryMessages } from '../../../console/src/pages/inventory/messages';
import {
  apiCall,
  checkpoint,
  closeBrowser,
  createTenant,
  LANGUAGES,
  newContext,
  resetScreenshots,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { AccountPage } from './pages/account-page';
import { ImportsPage } from './pages/imports-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * Importing a spreadsheet: products checked first (a refused row named by its line, column and
 * message, nothing written), then imported for real and counted; a clean file checked and then
 * imported with "Import for real". And the account's copy of my data, saved as a JSON file.
 */
const FLOW = 'imports';

/** A products file as a spreadsheet writes it: `;`, a column no field claims, a SKU the API refuses on line 3. */
const WITH_REFUSAL = ['Código;Descrição;Corredor', 'CAF-500;Café 500 g;A1', 'ACU 1;Açúcar 1 kg;A2', 'ARR-5;Arroz 5 kg;B1', ''].join('\r\n');
const CLEAN = ['Código;Descrição', 'FEI-1;Feijão 1 kg', ''].join('\r\n');

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

/** The tenant's product SKUs, as the API holds them. */
async function skus(tenant: Tenant): Promise<string[]> {
  const list = await apiCall<{ sku: string }[]>(server, 'GET', '/inventory/products?limit=100', undefined, tenant.cookie);
  expect(list.status).toBe(200);
  return list.body.map((product) => product.sku).sort();
}

describe.each(LANGUAGES)('imports (%s)', (language) => {
  let tenant: Tenant;
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    tenant = await createTenant(server, `Import-${language}`);
    context = await newContext(language);
    page = await context.newPage();
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/inventory');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/inventory`);
  });
  afterAll(async () => {
    await context.close();
  });

  it('checks a products file, shows the refused row, then imports it for real and counts the products', async () => {
    const imports = new ImportsPage(page, language, server.consoleUrl);
    await page.getByRole('link', { name: inventoryMessages[language].importProducts, exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/imports?kind=products`);
    await imports.title.waitFor();
    expect(await imports.kind.inputValue()).toBe('products');
    expect(await imports.dryRun.isChecked()).toBe(true);
    await checkpoint(page, language, FLOW, '1-form');

    // Sent with no file: said at once, nothing asked of the API.
    await imports.form.getByRole('button', { name: imports.t.submit, exact: true }).click();
    await imports.form.getByText(imports.t.fileMissing, { exact: true }).waitFor();
    expect(await imports.file.getAttribute('aria-invalid')).toBe('true');

    await imports.send('produtos.csv', WITH_REFUSAL, { dryRun: true });
    const report = imports.report('produtos.csv');
    await report.getByText(imports.t.reportDryRun, { exact: true }).waitFor();
    await imports.waitForStatus('produtos.csv', 'succeeded');
    expect(await imports.refusedRows('produtos.csv')).toEqual([['3', 'Código', 'must be letters, digits and . _ / - only']]);
    expect(await imports.count('produtos.csv', imports.t.rows)).toBe('3');
    expect(await imports.count('produtos.csv', imports.t.wouldCreate)).toBe('2');
    expect(await imports.count('produtos.csv', imports.t.existing)).toBe('0');
    expect(await imports.count('produtos.csv', imports.t.refused)).toBe('1');
    expect(await imports.progress('produtos.csv').getAttribute('value')).toBe('100');
    await report.getByText(imports.t.ignoredColumns('Corredor'), { exact: true }).waitFor();
    // Rows were refused: no real import offered from the check; it says what to do instead.
    await report.getByText(imports.t.fixAndRetry, { exact: true }).waitFor();
    expect(await imports.realImportButton('produtos.csv').count()).toBe(0);
    expect(await skus(tenant)).toEqual([]);
    await checkpoint(page, language, FLOW, '2-checked');

    await imports.send('produtos.csv', WITH_REFUSAL, { dryRun: false });
    await report.getByText(imports.t.reportReal, { exact: true }).waitFor();
    await imports.waitForStatus('produtos.csv', 'succeeded');
    expect(await imports.count('produtos.csv', imports.t.created)).toBe('2');
    expect(await imports.count('produtos.csv', imports.t.refused)).toBe('1');
    expect(await imports.refusedRows('produtos.csv')).toEqual([['3', 'Código', 'must be letters, digits and . _ / - only']]);
    expect(await skus(tenant)).toEqual(['ARR-5', 'CAF-500']);
    await checkpoint(page, language, FLOW, '3-imported');

    // A clean file: the check offers the real import of the same file.
    await imports.send('feijao.csv', CLEAN, { dryRun: true });
    await imports.waitForStatus('feijao.csv', 'succeeded');
    expect(await imports.count('feijao.csv', imports.t.wouldCreate)).toBe('1');
    await imports.realImportButton('feijao.csv').click();
    await imports.report('feijao.csv').getByText(imports.t.reportReal, { exact: true }).waitFor();
    await imports.waitForStatus('feijao.csv', 'succeeded');
    expect(await imports.count('feijao.csv', imports.t.created)).toBe('1');
    expect(await imports.refusedRows('feijao.csv')).toEqual([]);
    expect(await skus(tenant)).toEqual(['ARR-5', 'CAF-500', 'FEI-1']);

    // The inventory page lists what was imported.
    await imports.report('feijao.csv').getByRole('link', { name: imports.t.seeProducts, exact: true }).click();
    await page.waitForURL(`${server.consoleUrl}/inventory`);
    const products = page.getByRole('table', { name: inventoryMessages[language].productsCaption });
    await products.getByRole('link', { name: 'FEI-1', exact: true }).waitFor();
    await checkpoint(page, language, FLOW, '4-listed');
  });

  it('saves my data as a JSON file holding my e-mail', async () => {
    const account = new AccountPage(page, language, server.consoleUrl);
    const t = accountMessages[language];
    await account.open('/account');
    const section = account.section(t.myDataTitle);
    await section.getByText(t.myDataIntro, { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: t.myDataDownload, exact: true }).click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^${t.myDataFilePrefix}-\\d{4}-\\d{2}-\\d{2}\\.json$`));
    const saved = JSON.parse(await readFile(await download.path(), 'utf8')) as { user: { email: string; name: string } };
    expect(saved.user).toMatchObject({ email: tenant.adminEmail, name: 'Ana Admin' });
    await expect.poll(() => section.getByRole('status').textContent()).toBe(t.myDataSaved(download.suggestedFilename()));
    await checkpoint(page, language, FLOW, '5-my-data');
  });
});
