import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import type { components } from '../../../clients/typescript/src';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookMessages } from '../../../console/src/pages/webhooks/webhook-messages';
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
import { AdminPage } from './pages/admin-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * Webhooks on the administration page: an administrator registers an endpoint on a receiver
 * this test runs on 127.0.0.1 (npm start lets http reach loopback), sees its signing secret
 * once, records a stock movement through the API, and sees the delivery succeed in the
 * endpoint's log, while the receiver checks the signature with that secret. Then the secret is
 * rotated (the next delivery verifies with the new one), the endpoint disabled by hand and
 * deleted. The page never shows a secret again once its dialog is closed.
 */
const FLOW = 'webhooks';

let server: ConsoleServer;
let receiver: Receiver;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
  receiver = await startReceiver();
});

afterAll(async () => {
  await closeBrowser();
  await receiver?.stop();
  await server?.stop();
});

interface Received {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
}

interface Receiver {
  origin: string;
  received: Received[];
  stop(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1: keeps every request, answers 200 with a short text the delivery log then shows (`stored <n>`, the n-th request to that path). */
async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const http: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      const count = received.filter((earlier) => earlier.path === request.url).length;
      response.writeHead(200, { 'content-type': 'text/plain' }).end(`stored ${count}`);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    received,
    stop: () => new Promise((resolve) => http.close(() => resolve())),
  };
}

/** Whether a received delivery carries a valid Standard Webhooks signature made with `secret`. */
function signedWith(delivery: Received, secret: string): boolean {
  try {
    new Webhook(secret).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

/** Every text the page holds now, visible or not: its markup and each field's value. */
async function pageText(page: Page): Promise<string> {
  const values = await page.evaluate(() =>
    Array.from(document.querySelectorAll('input, textarea, select'), (field) => (field as HTMLInputElement).value).join('\n'),
  );
  return `${await page.content()}\n${values}`;
}

/** The administration page's Webhooks section, its forms and dialogs, by the console's own names in the test's language. */
class WebhooksPage extends AdminPage {
  readonly w;

  constructor(page: Page, language: Language, consoleUrl: string) {
    super(page, language, consoleUrl);
    this.w = webhookMessages[language];
  }

  get webhooks() {
    return this.section(this.w.title);
  }

  /** The register and edit forms (Radix Dialog). */
  get form() {
    return this.page.getByRole('dialog');
  }

  /** The secret shown once, and the rotate and delete questions (Radix AlertDialog). */
  get alert() {
    return this.page.getByRole('alertdialog');
  }

  get shownSecret() {
    return this.alert.getByLabel(this.w.secretField, { exact: true });
  }

  endpointRow(url: string) {
    return this.webhooks.getByRole('table', { name: this.w.caption }).getByRole('row').filter({ hasText: url });
  }

  eventBox(type: string) {
    return this.form.getByRole('checkbox', { name: `${this.w.eventName(type)} (${type})`, exact: true });
  }

  /** The message under a field of the open form (`<id>-error`). */
  async fieldError(label: string): Promise<string | null> {
    const id = await this.form.getByLabel(label, { exact: true }).getAttribute('id');
    return this.page.locator(`[id="${id}-error"]`).textContent({ timeout: 5_000 });
  }

  async closeShownSecret(): Promise<void> {
    await this.alert.getByRole('button', { name: this.w.secretDone, exact: true }).click();
    await this.alert.waitFor({ state: 'detached' });
  }

  log(url: string) {
    return this.webhooks.getByRole('region', { name: this.w.logTitle(url) });
  }

  /** The log's rows, read again with its refresh button until one holds `text`. */
  async waitForDelivery(url: string, text: string): Promise<void> {
    const log = this.log(url);
    await expect
      .poll(
        async () => {
          await log.getByRole('button', { name: this.w.refresh, exact: true }).click();
          return (await log.getByRole('table').count()) > 0 ? log.getByRole('table').innerText() : '';
        },
        { timeout: 30_000, interval: 500 },
      )
      .toContain(text);
  }
}

type Listed = components['schemas']['UpdateWebhookEndpointResponse'];

describe.each(LANGUAGES)('webhooks (%s)', (language) => {
  let tenant: Tenant;
  let context: BrowserContext;
  let page: Page;
  let hooks: WebhooksPage;
  const url = () => `${receiver.origin}/hooks/${language}`;
  const description = language === 'en' ? 'ERP stock sync' : 'Sincronia de estoque do ERP';
  const listed = async () => (await apiCall<Listed[]>(server, 'GET', '/webhook-endpoints', undefined, tenant.cookie)).body;
  const deliveredHere = () => receiver.received.filter((delivery) => delivery.path === `/hooks/${language}`);
  let productId = '';
  let warehouseId = '';
  let secret = '';
  let rotated = '';

  /** A stock movement recorded through the API: the event the endpoint subscribes to. */
  const recordMovement = async () => {
    const movement = await apiCall(server, 'POST', '/inventory/movements', { productId, warehouseId, type: 'IN', quantity: 10, unitCost: 5 }, tenant.cookie);
    expect(movement.status, JSON.stringify(movement.body)).toBe(201);
  };

  beforeAll(async () => {
    tenant = await createTenant(server, `Hooks-${language}`);
    const warehouse = await apiCall<{ id: string }>(server, 'POST', '/inventory/warehouses', { name: `Depósito ${language}` }, tenant.cookie);
    const product = await apiCall<{ id: string }>(
      server,
      'POST',
      '/inventory/products',
      { sku: `HOOK-${language}`, name: 'Café torrado 500 g' },
      tenant.cookie,
    );
    expect([warehouse.status, product.status]).toEqual([201, 201]);
    warehouseId = warehouse.body.id;
    productId = product.body.id;
    ({ context, page } = await administrationOf(tenant, language));
    hooks = new WebhooksPage(page, language, server.consoleUrl);
  });
  afterAll(async () => {
    await context?.close();
  });

  it('registers an endpoint and shows its signing secret once', async () => {
    await hooks.webhooks.getByText(hooks.w.noEndpoints).waitFor();
    await hooks.webhooks.getByRole('button', { name: hooks.w.newEndpoint, exact: true }).click();
    await hooks.form.waitFor();
    // No URL, no event: the form says so before sending.
    await hooks.form.getByRole('button', { name: hooks.w.create, exact: true }).click();
    expect(await hooks.fieldError(hooks.w.url)).toBe(hooks.common.required);
    await hooks.form.getByText(hooks.w.pickOne).waitFor();
    await checkpoint(page, language, FLOW, '1-register-form');

    // The server's word under the URL: a private address is refused.
    await hooks.form.getByLabel(hooks.w.url, { exact: true }).fill('http://10.1.2.3/hooks');
    await hooks.eventBox('stock_movement.created').check();
    await hooks.eventBox('supplier.created').check();
    await hooks.form.getByLabel(hooks.w.description, { exact: true }).fill(description);
    await hooks.form.getByRole('button', { name: hooks.w.create, exact: true }).click();
    await expect.poll(() => hooks.fieldError(hooks.w.url)).toMatch(/\S/);
    expect(await listed()).toEqual([]);

    await hooks.form.getByLabel(hooks.w.url, { exact: true }).fill(url());
    await hooks.form.getByRole('button', { name: hooks.w.create, exact: true }).click();
    await hooks.alert.waitFor();
    await hooks.form.getByRole('button', { name: hooks.w.create, exact: true }).waitFor({ state: 'detached' });
    secret = await hooks.shownSecret.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    expect(await hooks.shownSecret.getAttribute('readonly')).not.toBeNull();
    await hooks.alert.getByRole('button', { name: hooks.w.copySecret, exact: true }).click();
    await expect
      .poll(() => hooks.alert.getByRole('status').textContent())
      .toMatch(new RegExp(`^(${literal(hooks.w.secretCopied)}|${literal(hooks.w.copyFallback)})$`));
    if ((await hooks.alert.getByRole('status').textContent()) === hooks.w.secretCopied)
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checkpoint(page, language, FLOW, '2-secret-shown');
    await hooks.closeShownSecret();

    const row = hooks.endpointRow(url());
    await row.waitFor();
    expect(await row.textContent()).toContain(hooks.w.stateName('enabled'));
    expect(await row.textContent()).toContain(description);
    expect(await row.textContent()).toContain(hooks.w.eventName('stock_movement.created'));
    expect(await listed()).toMatchObject([
      { url: url(), description, events: ['supplier.created', 'stock_movement.created'], enabled: true, disabledReason: null },
    ]);
    expect(await pageText(page)).not.toContain(secret);
    await checkpoint(page, language, FLOW, '3-listed');
  });

  it('delivers a stock movement, signed with that secret, and shows the delivery in the log', async () => {
    await hooks.webhooks.getByRole('button', { name: hooks.w.showDeliveries(url()), exact: true }).click();
    const log = hooks.log(url());
    await log.getByText(hooks.w.noDeliveries).waitFor();

    await recordMovement();
    await hooks.waitForDelivery(url(), hooks.w.statusName('succeeded'));
    const [delivery] = deliveredHere();
    expect(delivery).toBeDefined();
    expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({ type: 'stock_movement.created', data: { productId, warehouseId, type: 'IN' } });
    expect(signedWith(delivery as Received, secret)).toBe(true);

    const table = await log.getByRole('table').innerText();
    expect(table).toContain(hooks.w.eventName('stock_movement.created'));
    expect(table).toContain(hooks.w.statusCode(200));
    expect(table).toContain('stored 1');
    expect(table).toMatch(/\d ms/);
    await checkpoint(page, language, FLOW, '4-delivered');

    // Filters: no failed delivery; the one delivered is a stock movement, not a supplier.
    await log.getByLabel(hooks.w.status, { exact: true }).selectOption('failed');
    await log.getByText(hooks.w.noDeliveries).waitFor();
    await log.getByLabel(hooks.w.status, { exact: true }).selectOption('');
    await log.getByLabel(hooks.w.eventType, { exact: true }).selectOption('supplier.created');
    await log.getByText(hooks.w.noDeliveries).waitFor();
    await log.getByLabel(hooks.w.eventType, { exact: true }).selectOption('stock_movement.created');
    await log.getByRole('table').getByText('stored 1').waitFor();
    await log.getByLabel(hooks.w.eventType, { exact: true }).selectOption('');
  });

  it('rotates the secret: shown once, the previous one signing 24 hours more, the next delivery signed with the new one', async () => {
    await hooks.webhooks.getByRole('button', { name: hooks.w.rotateEndpoint(url()), exact: true }).click();
    await hooks.alert.getByText(hooks.w.rotateText).waitFor();
    await hooks.alert.getByRole('button', { name: hooks.w.rotate, exact: true }).click();
    await hooks.alert.getByRole('heading', { name: hooks.w.rotatedTitle }).waitFor();
    rotated = await hooks.shownSecret.inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await hooks.alert.textContent()).toMatch(new RegExp(literal(hooks.w.previousSigns('§')).replace('§', '\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}')));
    await checkpoint(page, language, FLOW, '5-rotated');
    await hooks.closeShownSecret();
    expect(await pageText(page)).not.toContain(rotated);

    await recordMovement();
    await hooks.waitForDelivery(url(), 'stored');
    await expect.poll(() => deliveredHere().length, { timeout: 30_000 }).toBe(2);
    const second = deliveredHere()[1] as Received;
    expect(signedWith(second, rotated)).toBe(true);
    // Both signatures during the overlap: the previous secret still verifies.
    expect(signedWith(second, secret)).toBe(true);
  });

  it('sends a test event and a delivery again now, each said on the page and signed', async () => {
    await hooks.webhooks.getByRole('button', { name: hooks.w.sendTestTo(url()), exact: true }).click();
    await expect
      .poll(() => hooks.webhooks.getByRole('status').first().textContent(), { timeout: 20_000 })
      .toMatch(new RegExp(`^${literal(hooks.w.testSent(url(), '§')).replace('§', `${literal(hooks.w.statusCode(200))}, \\S+ ms`)}$`));
    expect(deliveredHere()).toHaveLength(3);
    const ping = deliveredHere()[2] as Received;
    expect(JSON.parse(ping.body)).toMatchObject({ type: 'ping' });
    expect(signedWith(ping, rotated)).toBe(true);
    const log = hooks.log(url());
    await log.getByRole('table').getByText(hooks.w.eventName('ping')).waitFor();

    // The first stock movement's delivery, sent again: the same webhook-id, a second attempt in the log.
    const first = deliveredHere()[0] as Received;
    const oldest = log.getByRole('table').getByRole('row').filter({ hasText: 'stored 1' });
    await oldest
      .getByRole('button', { name: new RegExp(`^${literal(hooks.w.retryDelivery(hooks.w.eventName('stock_movement.created'), '§')).replace('§', '\\w{8}')}$`) })
      .click();
    await expect.poll(() => log.getByRole('status').first().textContent(), { timeout: 20_000 }).toContain(hooks.w.statusCode(200));
    expect(deliveredHere()).toHaveLength(4);
    expect(deliveredHere()[3]?.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await expect.poll(() => oldest.getByRole('listitem').count()).toBe(2);
    expect(await oldest.textContent()).toContain('stored 4');
    await checkpoint(page, language, FLOW, '6-test-and-retry');
  });

  it('disables the endpoint by hand, then deletes it after asking', async () => {
    await hooks.webhooks.getByRole('button', { name: hooks.w.editEndpoint(url()), exact: true }).click();
    await hooks.form.waitFor();
    expect(await hooks.eventBox('stock_movement.created').isChecked()).toBe(true);
    await hooks.form.getByRole('checkbox', { name: hooks.w.enabled, exact: true }).uncheck();
    await hooks.form.getByRole('button', { name: hooks.w.saveEndpoint, exact: true }).click();
    await hooks.form.waitFor({ state: 'detached' });
    await expect.poll(() => hooks.endpointRow(url()).textContent()).toContain(hooks.w.stateName('manual'));
    expect(await listed()).toMatchObject([{ enabled: false, disabledReason: 'manual' }]);
    // A disabled endpoint's delivery is not sent again: the API's reason, shown in the log.
    const log = hooks.log(url());
    await log
      .getByRole('button', { name: new RegExp(`^${literal(hooks.w.retryDelivery(hooks.w.eventName('stock_movement.created'), ''))}`) })
      .first()
      .click();
    await log.getByRole('alert').waitFor();
    expect(deliveredHere()).toHaveLength(4);
    await checkpoint(page, language, FLOW, '7-disabled');

    await hooks.webhooks.getByRole('button', { name: hooks.w.deleteEndpoint(url()), exact: true }).click();
    await hooks.alert.getByRole('button', { name: hooks.w.deleteLabel, exact: true }).click();
    await hooks.alert.waitFor({ state: 'detached' });
    await hooks.webhooks.getByText(hooks.w.noEndpoints).waitFor();
    await expect.poll(() => hooks.webhooks.getByRole('status').first().textContent()).toBe(hooks.w.deleted(url()));
    expect(await hooks.log(url()).count()).toBe(0);
    expect(await listed()).toEqual([]);
  });
});

/** The administration page, signed in as the tenant's administrator, in a browser profile in `language` that may use the clipboard. */
async function administrationOf(tenant: Tenant, language: Language): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(language);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  const page = await context.newPage();
  const signIn = new SignInPage(page, language, server.consoleUrl);
  await signIn.open('/administration');
  await signIn.signIn(tenant.adminEmail, tenant.password);
  await page.waitForURL(`${server.consoleUrl}/administration`);
  return { context, page };
}

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
