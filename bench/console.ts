import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { freePort } from '../local/dynamodb-local';
import { startLocalApi } from '../tools/local-api';
import { generateSuppliers } from './support/brazilian-suppliers';
import { signUp } from './support/sign-up';

/**
 * `npm run bench -- console`: the console's budgets, against `npm start` on a fresh data folder
 * with a seeded tenant (warehouses, products with stock and sales, suppliers):
 *
 * - the JavaScript the first page downloads, gzipped as served (every script response's bytes
 *   on the wire, in Chromium): the sign-in page of a new visitor, and the dashboard of a
 *   signed-in one; budget 200 KB each;
 * - Lighthouse 12.2.3 (Debian's Chromium) performance and accessibility of the dashboard and
 *   the suppliers page, signed in: budget 90 each, with Lighthouse's desktop settings (the
 *   console is a back-office used at a desk) and with its mobile ones (a mid-range phone on
 *   slow 4G, 4x CPU slowdown).
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const CONSOLE_BUDGETS = { firstPageJsGzipBytes: 200 * 1024, lighthouse: 90 } as const;

export interface ConsoleFigures {
  firstPageJs: { page: string; bytes: number; files: number; met: boolean }[];
  lighthouse: {
    page: string;
    formFactor: 'desktop' | 'mobile';
    performance: number;
    accessibility: number;
    lcpMs: number;
    tbtMs: number;
    cls: number;
    met: boolean;
  }[];
  seeded: { warehouses: number; products: number; movements: number; suppliers: number };
}

async function call(origin: string, cookie: string, method: string, path: string, body: unknown, idempotent = false): Promise<Record<string, unknown>> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Cookie: cookie, ...(idempotent ? { 'Idempotency-Key': crypto.randomUUID() } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

/** A few at a time, as a busy client would send them. */
async function inBatches<T>(items: readonly T[], size: number, task: (item: T, index: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < items.length; start += size)
    await Promise.all(items.slice(start, start + size).map((item, offset) => task(item, start + offset)));
}

async function seed(origin: string, cookie: string): Promise<ConsoleFigures['seeded']> {
  const warehouses = await Promise.all(
    ['Matriz', 'Filial Campinas', 'Filial Recife'].map((name) => call(origin, cookie, 'POST', '/inventory/warehouses', { name }, true)),
  );
  const products: Record<string, unknown>[] = [];
  await inBatches(
    Array.from({ length: 300 }, (_, index) => index),
    10,
    async (index) =>
      products.push(
        await call(origin, cookie, 'POST', '/inventory/products', { sku: `SKU-${String(index).padStart(5, '0')}`, name: `Produto ${index}` }, true),
      ),
  );
  let movements = 0;
  await inBatches(products, 10, async (product, index) => {
    const warehouse = warehouses[index % warehouses.length]!;
    await call(
      origin,
      cookie,
      'POST',
      '/inventory/movements',
      { productId: product.id, warehouseId: warehouse.id, type: 'IN', quantity: 100 + (index % 50), unitCost: 10 + (index % 7) + 0.25 },
      true,
    );
    await call(
      origin,
      cookie,
      'POST',
      '/inventory/movements',
      { productId: product.id, warehouseId: warehouse.id, type: 'SALE', quantity: 1 + (index % 9) },
      true,
    );
    movements += 2;
  });
  const suppliers = generateSuppliers(200);
  await inBatches(suppliers, 10, (supplier) =>
    call(
      origin,
      cookie,
      'POST',
      '/suppliers',
      {
        name: supplier.name,
        corporateName: supplier.corporateName,
        document: supplier.document,
        ...(supplier.email ? { email: supplier.email } : {}),
        ...(supplier.phone ? { phone: supplier.phone } : {}),
      },
      true,
    ),
  );
  return { warehouses: warehouses.length, products: products.length, movements, suppliers: suppliers.length };
}

/** The gzipped bytes of every script a page loads until the network is idle. */
async function firstPageJs(url: string, cookie: string | undefined): Promise<{ bytes: number; files: number }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS.filter((flag) => !flag.startsWith('--headless')) });
  try {
    const context = await browser.newContext();
    if (cookie) {
      const [name = '', value = ''] = cookie.split(';')[0]!.split('=');
      // Path / as the API sets it (a cookie set for the page's URL would be scoped to /console/).
      await context.addCookies([{ name, value, url: new URL('/', url).toString() }]);
    }
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Network.enable');
    const scripts = new Map<string, string>();
    let bytes = 0;
    session.on('Network.responseReceived', (event: { requestId: string; type: string; response: { url: string } }) => {
      if (event.type === 'Script') scripts.set(event.requestId, event.response.url);
    });
    session.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
      if (scripts.has(event.requestId)) bytes += event.encodedDataLength;
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    // A signed-in measure that landed on sign-in would measure the wrong page.
    if (cookie && new URL(page.url()).pathname.startsWith('/console/sign-in')) throw new Error(`${url}: sent to sign-in, the cookie was refused`);
    return { bytes, files: scripts.size };
  } finally {
    await browser.close();
  }
}

async function audit(
  url: string,
  cookie: string,
  formFactor: 'desktop' | 'mobile',
): Promise<{ performance: number; accessibility: number; lcpMs: number; tbtMs: number; cls: number }> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], extraHeaders: { Cookie: cookie } },
      formFactor === 'desktop' ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (new URL(result.lhr.finalDisplayedUrl).pathname.startsWith('/console/sign-in'))
      throw new Error(`${url}: Lighthouse was sent to sign-in, the cookie was refused`);
    const { categories, audits } = result.lhr;
    return {
      performance: Math.round((categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((categories.accessibility?.score ?? 0) * 100),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? 0),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? 0),
      cls: Math.round((audits['cumulative-layout-shift']?.numericValue ?? 0) * 1000) / 1000,
    };
  } finally {
    chrome.kill();
  }
}

export async function runConsoleBench(log: (line: string) => void): Promise<ConsoleFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-console-bench-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const api = await startLocalApi({ dataDir, inMemory: false, port, allowedOrigins: `${origin},http://localhost:${port}` });
  try {
    const account = await signUp(origin, dataDir, {
      tenantName: `console-bench-${Date.now().toString(36)}`,
      name: 'Bench Admin',
      email: 'bench@example.com',
      password: 'correct horse battery staple',
    });
    log('console: seeding a tenant (3 warehouses, 300 products with stock and sales, 200 suppliers)');
    const seeded = await seed(origin, account.cookie);
    const accessCookie = account.cookie.split(/;\s*/).find((part) => part.startsWith('accessToken=')) ?? account.cookie;

    const firstPages: ConsoleFigures['firstPageJs'] = [];
    for (const [page, cookie] of [
      ['sign-in (a new visitor)', undefined],
      ['dashboard (signed in)', accessCookie],
    ] as const) {
      const measured = await firstPageJs(`${origin}/console/`, cookie);
      firstPages.push({ page, ...measured, met: measured.bytes <= CONSOLE_BUDGETS.firstPageJsGzipBytes });
    }

    const audits: ConsoleFigures['lighthouse'] = [];
    for (const [page, path] of [
      ['dashboard', '/console/'],
      ['suppliers', '/console/suppliers'],
    ] as const) {
      for (const formFactor of ['desktop', 'mobile'] as const) {
        log(`console: Lighthouse on the ${page} (${formFactor})`);
        const scores = await audit(`${origin}${path}`, accessCookie, formFactor);
        audits.push({
          page,
          formFactor,
          ...scores,
          met: scores.performance >= CONSOLE_BUDGETS.lighthouse && scores.accessibility >= CONSOLE_BUDGETS.lighthouse,
        });
      }
    }
    return { firstPageJs: firstPages, lighthouse: audits, seeded };
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
