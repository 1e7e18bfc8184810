import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { SignInPage } from './pages/sign-in-page';
import { SuppliersPage } from './pages/suppliers-page';

/**
 * Suppliers: the empty list says how to add one; 25 seeded suppliers a page of 10 at a time;
 * a search as one types (stale requests cancelled, the table matching the final text); a
 * supplier created through the form (masked document, the server's field message, the 409
 * of a duplicate), edited and deleted, with the API asked what it holds after each step.
 */
const FLOW = 'suppliers';

interface Supplier {
  id: string;
  name: string;
  corporateName: string;
  document: string;
  email: string | null;
  phone: string | null;
  active: boolean;
}
interface SupplierPage {
  data: Supplier[];
  total: number;
}

/** A CPF with its check digits, from 9 digits. */
function cpf(base: string): string {
  const digits = base.split('').map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    const rest = sum % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join('');
}
const seedCpf = (index: number) => cpf(String(123456000 + index * 7).padStart(9, '0'));
const formatted = (value: string) => `${value.slice(0, 3)}.${value.slice(3, 6)}.${value.slice(6, 9)}-${value.slice(9)}`;

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('suppliers (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  let suppliers: SuppliersPage;
  const list = async (query = '') => (await apiCall<SupplierPage>(server, 'GET', `/suppliers?limit=100${query}`, undefined, tenant.cookie)).body;

  beforeAll(async () => {
    tenant = await createTenant(server, language === 'en' ? 'Suppliers-en' : 'Suppliers-pt');
    context = await newContext(language);
    page = await context.newPage();
    suppliers = new SuppliersPage(page, language, server.consoleUrl);
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/suppliers');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await suppliers.signOutButton.waitFor();
    await suppliers.openSuppliers();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('with no suppliers, says how to add the first one', async () => {
    await page.getByText(suppliers.t.emptyTitle).waitFor();
    expect(await page.getByText(suppliers.t.emptyHint).isVisible()).toBe(true);
    if (language === 'en') {
      // The names the product promises, literally.
      expect(await page.getByRole('searchbox', { name: 'Search suppliers', exact: true }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'New supplier', exact: true }).count()).toBeGreaterThan(0);
    }
    await checkpoint(page, language, FLOW, '1-empty');
  });

  it('pages through 25 suppliers, 10 at a time, by name', async () => {
    const seeded = await Promise.all(
      Array.from({ length: 25 }, (_, index) => {
        const name = index === 24 ? 'Café do Sul' : `Atacado ${String(index + 1).padStart(2, '0')}`;
        return apiCall(server, 'POST', '/suppliers', { name, corporateName: `${name} Comércio Ltda`, document: seedCpf(index) }, tenant.cookie);
      }),
    );
    expect(seeded.map((answer) => answer.status)).toEqual(Array.from({ length: 25 }, () => 201));
    await suppliers.openSuppliers();
    await expect.poll(() => suppliers.rows.count()).toBe(10);
    expect(await suppliers.names()).toEqual(Array.from({ length: 10 }, (_, index) => `Atacado ${String(index + 1).padStart(2, '0')}`));
    expect(await suppliers.pager.textContent()).toContain(suppliers.common.pageOf(1, 3));
    expect(await page.getByText(suppliers.t.total(25)).isVisible()).toBe(true);
    await checkpoint(page, language, FLOW, '2-list');

    await suppliers.nextPage.click();
    await expect.poll(() => suppliers.names().then((names) => names[0])).toBe('Atacado 11');
    await suppliers.nextPage.click();
    await expect.poll(() => suppliers.names()).toEqual(['Atacado 21', 'Atacado 22', 'Atacado 23', 'Atacado 24', 'Café do Sul']);
    expect(await suppliers.pager.textContent()).toContain(suppliers.common.pageOf(3, 3));
    expect(await suppliers.nextPage.isDisabled()).toBe(true);
    await suppliers.previousPage.click();
    await expect.poll(() => suppliers.names().then((names) => names[0])).toBe('Atacado 11');
  });

  it('searches as one types: stale searches cancelled, the table matching the final text', async () => {
    // Each search answers 700 ms late, so the next keystroke's search finds it still running.
    const searched: string[] = [];
    await page.route(/\/suppliers\?.*search=/, async (route) => {
      searched.push(new URL(route.request().url()).searchParams.get('search') ?? '');
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue().catch(() => undefined);
    });
    const failed: string[] = [];
    const onFailed = (request: { url(): string; failure(): { errorText: string } | null }) => {
      if (request.url().includes('search=')) failed.push(`${new URL(request.url()).searchParams.get('search')}: ${request.failure()?.errorText}`);
    };
    page.on('requestfailed', onFailed);

    await suppliers.search.pressSequentially('cafe', { delay: 450 });
    await expect.poll(() => suppliers.names(), { timeout: 10_000 }).toEqual(['Café do Sul']);
    expect(await suppliers.search.inputValue()).toBe('cafe');
    // Several searches went out while typing; every one but the last was cancelled.
    expect(searched.length).toBeGreaterThan(1);
    expect(searched.at(-1)).toBe('cafe');
    await expect.poll(() => failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.every((line) => line.includes('ABORTED'))).toBe(true);
    expect(failed.some((line) => line.startsWith('cafe:'))).toBe(false);
    page.off('requestfailed', onFailed);
    await page.unroute(/\/suppliers\?.*search=/);
    await checkpoint(page, language, FLOW, '3-searched');

    await suppliers.search.fill('nada assim');
    await page.getByText(suppliers.t.noMatchTitle('nada assim')).waitFor();
    await checkpoint(page, language, FLOW, '4-no-match');
    await suppliers.clearSearch.click();
    await expect.poll(() => suppliers.rows.count()).toBe(10);
    expect(await suppliers.search.inputValue()).toBe('');
  });

  it('creates a supplier through the form: masked as typed, the server’s messages beside the fields', async () => {
    await suppliers.newSupplier.click();
    await suppliers.dialog.waitFor();
    await suppliers.field('name').fill('Padaria Pão Quente');
    await suppliers.field('corporateName').fill('Padaria Pão Quente Ltda');
    const invalid = `${seedCpf(99).slice(0, 10)}${(Number(seedCpf(99).slice(10)) + 1) % 10}`;
    await suppliers.field('document').pressSequentially(invalid);
    expect(await suppliers.field('document').inputValue()).toBe(formatted(invalid));
    await suppliers.field('phone').pressSequentially('11987654321');
    expect(await suppliers.field('phone').inputValue()).toBe('+55 11 98765-4321');
    await checkpoint(page, language, FLOW, '5-create-form');

    // A wrong check digit: the server's own message for the document.
    const refused = await apiCall<{ errors: { field: string; message: string }[] }>(
      server,
      'POST',
      '/suppliers',
      { name: 'x', corporateName: 'x', document: invalid },
      tenant.cookie,
    );
    expect(refused.status).toBe(400);
    const documentMessage = refused.body.errors.find((error) => error.field === 'document')?.message;
    expect(documentMessage).toBeTruthy();
    await suppliers.save.click();
    await expect.poll(() => suppliers.fieldError('document')).toBe(documentMessage);
    expect(await suppliers.field('document').getAttribute('aria-invalid')).toBe('true');
    await checkpoint(page, language, FLOW, '6-invalid-document');

    // A document another supplier has: the 409's detail.
    const duplicate = await apiCall<{ detail: string }>(server, 'POST', '/suppliers', { name: 'x', corporateName: 'x', document: seedCpf(3) }, tenant.cookie);
    expect(duplicate.status).toBe(409);
    await suppliers.field('document').fill(seedCpf(3));
    expect(await suppliers.field('document').inputValue()).toBe(formatted(seedCpf(3)));
    await suppliers.save.click();
    await expect.poll(() => suppliers.fieldError('document')).toBe(duplicate.body.detail);
    expect(await suppliers.dialog.getByRole('alert').textContent()).toContain(duplicate.body.detail);
    await checkpoint(page, language, FLOW, '7-duplicate');
    expect((await list()).total).toBe(25);

    await suppliers.field('document').fill(seedCpf(99));
    await suppliers.save.click();
    await suppliers.notice.filter({ hasText: suppliers.t.created('Padaria Pão Quente') }).waitFor();
    expect(await suppliers.dialog.count()).toBe(0);
    const stored = (await list('&search=padaria')).data;
    expect(stored).toEqual([
      {
        id: expect.any(String),
        name: 'Padaria Pão Quente',
        corporateName: 'Padaria Pão Quente Ltda',
        document: formatted(seedCpf(99)),
        email: null,
        phone: '+5511987654321',
        active: true,
      },
    ]);
    expect((await list()).total).toBe(26);
  });

  it('edits the supplier: changed fields saved, an emptied phone cleared', async () => {
    await suppliers.search.fill('padaria');
    await expect.poll(() => suppliers.names()).toEqual(['Padaria Pão Quente']);
    await suppliers.editButton('Padaria Pão Quente').click();
    await suppliers.dialog.waitFor();
    expect(await suppliers.field('document').inputValue()).toBe(formatted(seedCpf(99)));
    expect(await suppliers.field('phone').inputValue()).toBe('+55 11 98765-4321');
    await suppliers.field('corporateName').fill('Padaria Pão Quente Eireli');
    await suppliers.field('email').fill('Compras@PaoQuente.example');
    await suppliers.field('phone').fill('');
    await suppliers.activeBox.uncheck();
    await checkpoint(page, language, FLOW, '8-edit-form');
    await suppliers.save.click();
    await suppliers.notice.filter({ hasText: suppliers.t.updated('Padaria Pão Quente') }).waitFor();
    const [stored] = (await list('&search=padaria')).data;
    expect(stored).toMatchObject({
      name: 'Padaria Pão Quente',
      corporateName: 'Padaria Pão Quente Eireli',
      email: 'compras@paoquente.example',
      phone: null,
      active: false,
    });
    await expect.poll(() => suppliers.rows.first().textContent()).toContain(suppliers.t.isInactive);
  });

  it('deletes the supplier after asking', async () => {
    const [stored] = (await list('&search=padaria')).data;
    await suppliers.deleteButton('Padaria Pão Quente').click();
    await suppliers.confirm.waitFor();
    expect(await suppliers.confirm.textContent()).toContain(suppliers.t.deleteDescription('Padaria Pão Quente'));
    await checkpoint(page, language, FLOW, '9-delete-question');
    await suppliers.confirm.getByRole('button', { name: suppliers.t.deleteConfirm, exact: true }).click();
    await suppliers.notice.filter({ hasText: suppliers.t.deleted('Padaria Pão Quente') }).waitFor();
    expect(await suppliers.confirm.count()).toBe(0);
    await page.getByText(suppliers.t.noMatchTitle('padaria')).waitFor();
    expect((await apiCall(server, 'GET', `/suppliers/${stored?.id}`, undefined, tenant.cookie)).status).toBe(404);
    expect((await list()).total).toBe(25);
    await checkpoint(page, language, FLOW, '10-deleted');
  });
});
