import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_CONFIG_VARIABLES } from '../../../local/environment';
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
  type Language,
  type Tenant,
} from './harness';
import { DashboardPage } from './pages/dashboard-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * The dashboard on stock seeded through the API: coverage in the API's order with what runs
 * out within the horizon marked, for 7, 30, 90 days and another period, and stock by
 * warehouse with exact quantities and money.
 *
 * Coverage counts the sales of complete days once the daily roll-up has folded them in
 * (docs/inventory.md): the sales are back-dated two days and the job is run once after the
 * seeding, as `npm run job -- sales-rollup` does against the running store. 7, 30 and 90 days
 * are then read from the refreshed index; another period is computed on demand. Both give:
 *
 * | SKU   | on hand | sold | 7 days | 30 days | 90 days | 10 days |
 * |-------|---------|------|--------|---------|---------|---------|
 * | A-100 | 30      | 70   | 3      | 12.86   | 38.57   | 4.29    |
 * | B-200 | 490.25  | 10   | 343.18 | 1470.75 | 4412.25 | 490.25  |
 * | C-300 | 20      | 0    | —      | —       | —       | —       |
 * | D-400 | 0       | 0    | —      | —       | —       | —       |
 */
const FLOW = 'dashboard';
const DAY = 24 * 3600 * 1000;

let server: ConsoleServer;
const tenants = new Map<Language, Tenant>();

async function post<T extends { id: string }>(tenant: Tenant, path: string, body: unknown): Promise<T> {
  const answer = await apiCall<T>(server, 'POST', path, body, tenant.cookie);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function seed(tenant: Tenant): Promise<void> {
  const north = await post(tenant, '/inventory/warehouses', { name: 'Depósito Norte' });
  const south = await post(tenant, '/inventory/warehouses', { name: 'Depósito Sul' });
  const product = (sku: string, name: string) => post(tenant, '/inventory/products', { sku, name, unit: 'KG' });
  const a = await product('A-100', 'Arroz 5 kg');
  const b = await product('B-200', 'Feijão 1 kg');
  const c = await product('C-300', 'Óleo 900 ml');
  await product('D-400', 'Sal 1 kg');
  const received = new Date(Date.now() - 3 * DAY).toISOString();
  const sold = new Date(Date.now() - 2 * DAY).toISOString();
  const movement = (body: Record<string, unknown>) => post(tenant, '/inventory/movements', body);
  await movement({ productId: a.id, warehouseId: north.id, type: 'IN', quantity: 100, unitCost: 10, occurredAt: received });
  await movement({ productId: b.id, warehouseId: north.id, type: 'IN', quantity: 500.25, unitCost: 2, occurredAt: received });
  await movement({ productId: c.id, warehouseId: south.id, type: 'IN', quantity: 20, unitCost: 61.728, occurredAt: received });
  await movement({ productId: a.id, warehouseId: north.id, type: 'SALE', quantity: 70, occurredAt: sold });
  await movement({ productId: b.id, warehouseId: north.id, type: 'SALE', quantity: 10, occurredAt: sold });
}

/** The daily sales roll-up, once, against the test's running store (`npm run job -- sales-rollup`). */
async function runSalesRollup(): Promise<void> {
  const environment = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(LOCAL_CONFIG_VARIABLES as readonly string[]).includes(name)));
  await new Promise<void>((resolve, reject) => {
    const child = spawn(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['scripts/job.ts', 'sales-rollup'], {
      env: { ...environment, DATA_DIR: server.dataDir, NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`sales-rollup exited with ${code}:\n${output}`))));
  });
}

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  for (const language of LANGUAGES) {
    const tenant = await createTenant(server, `Dashboard-${language === 'en' ? 'en' : 'pt'}`);
    await seed(tenant);
    tenants.set(language, tenant);
  }
  await runSalesRollup();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

const NUMBERS: Record<Language, (text: string) => string> = {
  'pt-BR': (text) => text.replace(/\./g, '#').replace(/,/g, '.').replace(/#/g, ','),
  en: (text) => text,
};

describe.each(LANGUAGES)('dashboard (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  // Numbers written in English below, shown in the language of the test.
  const n = NUMBERS[language];

  beforeAll(async () => {
    context = await newContext(language);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('shows coverage in the API order, marks what runs out within the horizon, and stock by warehouse', async () => {
    const tenant = tenants.get(language);
    if (!tenant) throw new Error('no tenant');
    await page.goto(`${server.consoleUrl}/`);
    await new SignInPage(page, language, server.consoleUrl).signIn(tenant.adminEmail, tenant.password);
    await page.waitForURL(`${server.consoleUrl}/`);
    const dashboard = new DashboardPage(page, language, server.consoleUrl);
    await dashboard.title.waitFor();

    // 30 days by default, horizon 14.
    await expect
      .poll(() => dashboard.coverageRows(30, 14))
      .toEqual([
        { sku: 'A-100', available: '30', coverage: n('12.86'), highlighted: true, badge: dashboard.t.runsOut(14) },
        { sku: 'B-200', available: n('490.25'), coverage: n('1,470.75'), highlighted: false, badge: dashboard.t.ok },
        { sku: 'C-300', available: '20', coverage: '—', highlighted: false, badge: dashboard.t.noSales },
        { sku: 'D-400', available: '0', coverage: '—', highlighted: false, badge: dashboard.t.noSales },
      ]);
    await dashboard.coverageChartFor(30).waitFor();
    await expect
      .poll(() => dashboard.warehouseRows())
      .toEqual([
        ['Depósito Norte', n('520.25'), '2', `R$ ${n('1,280.50')}`],
        ['Depósito Sul', '20', '1', `R$ ${n('1,234.56')}`],
      ]);
    await dashboard.warehouseChart.waitFor();
    await checkpoint(page, language, FLOW, '1-30-days');

    await dashboard.period(7).check();
    await expect
      .poll(async () => (await dashboard.coverageRows(7, 14)).map((row) => [row.sku, row.coverage, row.highlighted]))
      .toEqual([
        ['A-100', '3', true],
        ['B-200', n('343.18'), false],
        ['C-300', '—', false],
        ['D-400', '—', false],
      ]);
    await checkpoint(page, language, FLOW, '2-7-days');

    await dashboard.period(90).check();
    await expect
      .poll(async () => (await dashboard.coverageRows(90, 14)).map((row) => [row.sku, row.coverage, row.highlighted]))
      .toEqual([
        ['A-100', n('38.57'), false],
        ['B-200', n('4,412.25'), false],
        ['C-300', '—', false],
        ['D-400', '—', false],
      ]);
    await checkpoint(page, language, FLOW, '3-90-days');

    // Another period: computed on demand, the same order.
    await dashboard.customPeriod(10);
    await expect
      .poll(async () => (await dashboard.coverageRows(10, 14)).map((row) => [row.sku, row.coverage, row.highlighted]))
      .toEqual([
        ['A-100', n('4.29'), true],
        ['B-200', n('490.25'), false],
        ['C-300', '—', false],
        ['D-400', '—', false],
      ]);
    await checkpoint(page, language, FLOW, '4-10-days');

    // A wider horizon marks B too; products without sales never.
    await dashboard.horizon.fill('500');
    await expect
      .poll(async () => (await dashboard.coverageRows(10, 500)).filter((row) => row.highlighted).map((row) => [row.sku, row.badge]))
      .toEqual([
        ['A-100', dashboard.t.runsOut(500)],
        ['B-200', dashboard.t.runsOut(500)],
      ]);
    await checkpoint(page, language, FLOW, '5-horizon');
  });
});
