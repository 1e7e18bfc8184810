import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  checkpoint,
  mailedLink,
  PASSWORD,
  signInCookie,
  closeBrowser,
  createTenant,
  LANGUAGES,
  newContext,
  resetScreenshots,
  startConsole,
  type ConsoleServer,
  type Tenant,
} from './harness';
import { CompaniesPage } from './pages/companies-page';
import { SignInPage } from './pages/sign-in-page';

/**
 * Companies: the empty list, a company created through the form (masked CNPJ and CEP, the
 * server's message for a wrong check digit), edited, and moved through an allowed status
 * transition, with the API asked what it holds after each step.
 */
const FLOW = 'companies';

interface Company {
  id: string;
  name: string;
  document: string;
  status: string;
  email: string | null;
  address: { street: string; number: string; city: string; state: string; zipCode: string } | null;
  taxRegime: string;
  costMethod: string;
}

/** Company documents are unique across the service: one (valid) CNPJ per language, an alphanumeric one in Portuguese. */
const DOCUMENT = {
  'pt-BR': { raw: '12ABC34501DE35', typed: '12abc34501de35', masked: '12.ABC.345/01DE-35' },
  en: { raw: '11222333000181', typed: '11222333000181', masked: '11.222.333/0001-81' },
} as const;
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
/** The same with a wrong last check digit. */
const wrongDigit = (raw: string) => `${raw.slice(0, 13)}${(Number(raw.slice(13)) + 1) % 10}`;

let server: ConsoleServer;

beforeAll(async () => {
  resetScreenshots(FLOW);
  server = await startConsole();
});

afterAll(async () => {
  await closeBrowser();
  await server?.stop();
});

describe.each(LANGUAGES)('companies (%s)', (language) => {
  let context: BrowserContext;
  let page: Page;
  let tenant: Tenant;
  let companies: CompaniesPage;
  const document = DOCUMENT[language];
  const stored = async () => (await apiCall<Company[]>(server, 'GET', '/companies', undefined, tenant.cookie)).body;

  beforeAll(async () => {
    tenant = await createTenant(server, language === 'en' ? 'Companies-en' : 'Companies-pt');
    context = await newContext(language);
    page = await context.newPage();
    companies = new CompaniesPage(page, language, server.consoleUrl);
    const signIn = new SignInPage(page, language, server.consoleUrl);
    await signIn.open('/companies');
    await signIn.signIn(tenant.adminEmail, tenant.password);
    await companies.signOutButton.waitFor();
    await companies.openCompanies();
  });
  afterAll(async () => {
    await context?.close();
  });

  it('creates a company: CNPJ and CEP masked as typed, the server’s message for a wrong check digit', async () => {
    await page.getByText(companies.t.emptyTitle).waitFor();
    await checkpoint(page, language, FLOW, '1-empty');

    await companies.newCompany.click();
    await companies.dialog.waitFor();
    await companies.field('name').fill('Loja Centro');
    const wrong = wrongDigit(document.raw);
    await companies.field('document').pressSequentially(wrong.toLowerCase());
    expect(await companies.field('document').inputValue()).toBe(`${document.masked.slice(0, -1)}${wrong.slice(-1)}`);
    await companies.field('email').fill('fiscal@example.com');
    await companies.field('zipCode').pressSequentially('01310100');
    expect(await companies.field('zipCode').inputValue()).toBe('01310-100');
    await companies.field('state').selectOption('SP');
    await companies.field('street').fill('Avenida Paulista');
    await companies.field('number').fill('1000');
    await companies.field('city').fill('São Paulo');
    await checkpoint(page, language, FLOW, '2-create-form');

    const refused = await apiCall<{ errors: { field: string; message: string }[] }>(
      server,
      'POST',
      '/companies',
      { name: 'x', document: wrong },
      tenant.cookie,
    );
    expect(refused.status).toBe(400);
    const message = refused.body.errors.find((error) => error.field === 'document')?.message;
    expect(message).toBeTruthy();
    await companies.save.click();
    await expect.poll(() => companies.fieldError('document')).toBe(message);
    await checkpoint(page, language, FLOW, '3-invalid-document');
    expect(await stored()).toEqual([]);

    // The connection drops on the first try; the retry carries the form's same Idempotency-Key.
    const keys: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/companies') keys.push(request.headers()['idempotency-key'] ?? '');
    });
    await page.route('**/companies', (route) => (route.request().method() === 'POST' ? route.abort('failed') : route.fallback()), { times: 1 });
    await companies.field('document').fill(document.typed);
    expect(await companies.field('document').inputValue()).toBe(document.masked);
    await companies.save.click();
    await companies.dialog.getByRole('alert').filter({ hasText: companies.common.offline }).waitFor();
    expect(await stored()).toEqual([]);
    await companies.save.click();
    await companies.notice.filter({ hasText: companies.t.created('Loja Centro') }).waitFor();
    // The refused try, the dropped one and the one that succeeded: one key, kept while the form was open.
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    await expect.poll(() => companies.row('Loja Centro').count()).toBe(1);
    expect(await companies.row('Loja Centro').textContent()).toContain(document.masked);
    const [company, ...others] = await stored();
    expect(others).toEqual([]);
    expect(company).toMatchObject({
      name: 'Loja Centro',
      document: document.raw,
      status: 'ACTIVE',
      email: 'fiscal@example.com',
      taxRegime: 'SIMPLES_NACIONAL',
    });
    expect(company?.address).toMatchObject({ street: 'Avenida Paulista', number: '1000', city: 'São Paulo', state: 'SP' });
    expect(company?.address?.zipCode.replace('-', '')).toBe('01310100');
    await checkpoint(page, language, FLOW, '4-created');
  });

  it('edits the company: name, tax regime, and the e-mail cleared', async () => {
    await companies.editButton('Loja Centro').click();
    await companies.dialog.waitFor();
    expect(await companies.field('document').inputValue()).toBe(document.masked);
    expect(await companies.field('zipCode').inputValue()).toBe('01310-100');
    await companies.field('name').fill('Loja Centro Sul');
    await companies.field('email').fill('');
    await companies.field('taxRegime').selectOption('LUCRO_PRESUMIDO');
    await checkpoint(page, language, FLOW, '5-edit-form');
    await companies.save.click();
    await companies.notice.filter({ hasText: companies.t.updated('Loja Centro Sul') }).waitFor();
    const [company] = await stored();
    expect(company).toMatchObject({
      name: 'Loja Centro Sul',
      document: document.raw,
      email: null,
      taxRegime: 'LUCRO_PRESUMIDO',
      costMethod: 'WEIGHTED_AVERAGE',
    });
    expect(company?.address).toMatchObject({ street: 'Avenida Paulista', city: 'São Paulo' });
    await expect.poll(() => companies.row('Loja Centro Sul').textContent()).toContain(companies.t.taxRegimeName('LUCRO_PRESUMIDO'));
  });

  it('suspends the company, offering only the transitions the API allows, then reactivates it', async () => {
    await companies.statusButton('Loja Centro Sul').click();
    await companies.dialog.waitFor();
    const offered = await companies.newStatus.locator('option').allTextContents();
    expect(offered).toEqual(['DISABLED', 'SUSPENDED', 'BLOCKED'].map((status) => companies.t.statusName(status as 'DISABLED')));
    await companies.newStatus.selectOption('SUSPENDED');
    await checkpoint(page, language, FLOW, '6-status-form');
    await companies.applyStatus.click();
    await companies.notice.filter({ hasText: companies.t.statusChanged('Loja Centro Sul', companies.t.statusName('SUSPENDED')) }).waitFor();
    expect((await stored())[0]?.status).toBe('SUSPENDED');
    await expect.poll(() => companies.row('Loja Centro Sul').textContent()).toContain(companies.t.statusName('SUSPENDED'));

    // From SUSPENDED the API allows only ACTIVE.
    await companies.statusButton('Loja Centro Sul').click();
    await companies.dialog.waitFor();
    expect(await companies.newStatus.locator('option').allTextContents()).toEqual([companies.t.statusName('ACTIVE')]);
    await checkpoint(page, language, FLOW, '7-status-suspended');
    await companies.applyStatus.click();
    await companies.notice.filter({ hasText: companies.t.statusChanged('Loja Centro Sul', companies.t.statusName('ACTIVE')) }).waitFor();
    expect((await stored())[0]?.status).toBe('ACTIVE');
  });

  it('shows a member the API’s reason when the status change is refused', async () => {
    const email = `member-${language.toLowerCase()}-${Date.now().toString(36)}@example.com`;
    expect((await apiCall(server, 'POST', '/auth/invitations', { email }, tenant.cookie)).status).toBe(201);
    const link = mailedLink(server.dataDir, email, 'register');
    const registered = await apiCall(server, 'POST', '/auth/register', {
      name: 'Beto Membro',
      email,
      password: PASSWORD,
      tenantId: link.searchParams.get('tenantId'),
      invitationToken: link.searchParams.get('token'),
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const [company] = await stored();
    const refused = await apiCall<{ detail: string }>(
      server,
      'PATCH',
      `/companies/${company?.id}/status`,
      { status: 'DISABLED' },
      await signInCookie(server, email, PASSWORD),
    );
    expect(refused.status).toBe(403);

    const memberContext = await newContext(language);
    try {
      const memberPage = await memberContext.newPage();
      const member = new CompaniesPage(memberPage, language, server.consoleUrl);
      const signIn = new SignInPage(memberPage, language, server.consoleUrl);
      await signIn.open('/companies');
      await signIn.signIn(email, PASSWORD);
      await member.signOutButton.waitFor();
      await member.openCompanies();
      await member.statusButton('Loja Centro Sul').click();
      await member.newStatus.selectOption('DISABLED');
      await member.applyStatus.click();
      await expect.poll(() => member.dialog.getByRole('alert').textContent()).toContain(refused.body.detail);
      await checkpoint(memberPage, language, FLOW, '8-member-refused');
      expect((await stored())[0]?.status).toBe('ACTIVE');
    } finally {
      await memberContext.close();
    }
  });

  it('pages through the companies with the Link header’s cursors, oldest first', async () => {
    const base = language === 'en' ? 300000000 : 200000000;
    for (let index = 1; index <= 20; index += 1) {
      const created = await apiCall(
        server,
        'POST',
        '/companies',
        { name: `Filial ${String(index).padStart(2, '0')}`, document: cpf(String(base + index * 13)) },
        tenant.cookie,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    await companies.openCompanies();
    await expect.poll(() => companies.rows.count()).toBe(20);
    expect(await companies.rows.first().locator('td').first().textContent()).toBe('Loja Centro Sul');
    const pager = page.getByRole('navigation', { name: companies.t.pager });
    expect(await pager.textContent()).toContain(companies.common.page(1));
    await checkpoint(page, language, FLOW, '9-list');
    await pager.getByRole('button', { name: companies.common.nextPage }).click();
    await expect.poll(() => companies.rows.allTextContents()).toEqual([expect.stringContaining('Filial 20')]);
    expect(await pager.textContent()).toContain(companies.common.page(2));
    expect(await pager.getByRole('button', { name: companies.common.nextPage }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: companies.common.previousPage }).click();
    await expect.poll(() => companies.rows.count()).toBe(20);
    expect(await companies.rows.first().locator('td').first().textContent()).toBe('Loja Centro Sul');
  });
});
