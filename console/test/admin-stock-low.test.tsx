// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_STOCK_LOW_THRESHOLD_DAYS, STOCK_LOW_THRESHOLD_PLACES } from '../../lib/tenants/model';
import type * as clientModule from '../src/api/client';
import { I18nProvider, type Locale } from '../src/i18n';
import { adminMessages } from '../src/pages/settings/messages';
import { readThreshold, STOCK_LOW_MAX_DAYS, STOCK_LOW_PLACES } from '../src/pages/settings/stock-low';

type ClientModule = typeof clientModule;
const get = vi.hoisted(() => vi.fn());
const patch = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<ClientModule>()), api: { GET: get, POST: vi.fn(), PATCH: patch, DELETE: vi.fn() } }));

const { StockLowSection } = await import('../src/pages/settings/StockLowSection');

const TENANT = '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60';

const answer = (status: number, body: unknown) => ({
  ...(status < 300 ? { data: body } : { error: body }),
  response: new Response(JSON.stringify(body), { status, headers: { 'Content-Type': status < 300 ? 'application/json' : 'application/problem+json' } }),
});
const tenantView = (days: number | null) => ({
  id: TENANT,
  name: 'loja',
  brandName: null,
  document: null,
  address: null,
  phone: null,
  logoUrl: null,
  plan: 'STARTER',
  mfaPolicy: 'OFF',
  stockLowThresholdDays: days,
});

/** GET /tenants/{id} answers the tenant with this threshold; any other GET is a test's mistake. */
function serve(days: number | null) {
  get.mockImplementation((path: string, { params }: { params: { path?: { id?: string } } }) => {
    if (path === '/tenants/{id}' && params.path?.id === TENANT) return Promise.resolve(answer(200, tenantView(days)));
    return Promise.reject(new Error(`unexpected GET ${path}`));
  });
}

function renderSection(locale: Locale) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider locale={locale}>
        <StockLowSection tenantId={TENANT} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  get.mockReset();
  patch.mockReset();
});
afterEach(cleanup);

describe('reading what is typed', () => {
  it('has the API’s limits', () => {
    expect(STOCK_LOW_PLACES).toBe(STOCK_LOW_THRESHOLD_PLACES);
    expect(STOCK_LOW_MAX_DAYS).toBe(MAX_STOCK_LOW_THRESHOLD_DAYS);
  });

  it.each([
    ['7,5', 'pt-BR', 7.5],
    ['7.5', 'en', 7.5],
    ['0,01', 'pt-BR', 0.01],
    ['365', 'en', 365],
    ['365,00', 'pt-BR', 365],
    ['  12,25 ', 'pt-BR', 12.25],
    ['', 'pt-BR', null],
    ['   ', 'en', null],
  ] as const)('%j in %s is %j', (input, locale, days) => {
    expect(readThreshold(input, locale)).toEqual({ ok: true, days });
  });

  it.each([
    ['7.5', 'pt-BR', 'invalid'], // the point groups thousands in Portuguese: not a group of three
    ['7,555', 'pt-BR', 'places'],
    ['7.555', 'en', 'places'],
    ['sete', 'pt-BR', 'invalid'],
    ['7,5 dias', 'pt-BR', 'invalid'],
    ['0', 'en', 'range'],
    ['0,00', 'pt-BR', 'range'],
    ['-1', 'en', 'range'],
    ['365,01', 'pt-BR', 'range'],
    ['366', 'en', 'range'],
    ['1.000', 'pt-BR', 'range'],
  ] as const)('%j in %s is refused (%s)', (input, locale, reason) => {
    expect(readThreshold(input, locale)).toEqual({ ok: false, reason });
  });
});

describe('the section', () => {
  it("shows the tenant's value in the Brazilian writing, read with one GET of the tenant", async () => {
    const t = adminMessages['pt-BR'];
    serve(1234.5);
    renderSection('pt-BR');
    await screen.findByText(t.stockLowCurrent('1.234,5'));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: t.stockLowDays }).value).toBe('1.234,5');
    expect(get.mock.calls.map(([path]) => path as string)).toEqual(['/tenants/{id}']);
    expect(screen.getByRole('region', { name: t.stockLowTitle }).textContent).toContain('product.stock_low');
  });

  it('says when it is off, with an empty field', async () => {
    const t = adminMessages.en;
    serve(null);
    renderSection('en');
    await screen.findByText(t.stockLowCurrentOff);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: t.stockLowDays }).value).toBe('');
  });

  it.each(['pt-BR', 'en'] as const)('checks what is typed, shows the server’s word under the field, saves and turns it off (%s)', async (locale) => {
    const t = adminMessages[locale];
    serve(null);
    renderSection(locale);
    await screen.findByText(t.stockLowCurrentOff);
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: t.stockLowDays });
    const submit = screen.getByRole('button', { name: t.saveStockLow });

    fireEvent.change(field, { target: { value: locale === 'pt-BR' ? '7,555' : '7.555' } });
    fireEvent.click(submit);
    expect(screen.getByText(t.stockLowPlaces)).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(patch).not.toHaveBeenCalled();

    patch.mockResolvedValueOnce(
      answer(400, {
        type: 'https://problems.backoffice.dev/validation',
        title: 'Invalid input',
        status: 400,
        detail: 'The request is invalid',
        errors: [{ field: 'stockLowThresholdDays', message: 'must be at most 300' }],
        requestId: 'r1',
      }),
    );
    fireEvent.change(field, { target: { value: '301' } });
    fireEvent.click(submit);
    await screen.findByText('must be at most 300');
    expect(field.getAttribute('aria-describedby')).toContain(`${field.id}-error`);
    expect(patch).toHaveBeenLastCalledWith('/tenants/{id}', { params: { path: { id: TENANT } }, body: { stockLowThresholdDays: 301 } });

    patch.mockResolvedValueOnce(answer(200, tenantView(7.5)));
    fireEvent.change(field, { target: { value: locale === 'pt-BR' ? '7,5' : '7.5' } });
    fireEvent.click(submit);
    const shown = locale === 'pt-BR' ? '7,5' : '7.5';
    await screen.findByText(t.stockLowSaved(shown));
    expect(patch).toHaveBeenLastCalledWith('/tenants/{id}', { params: { path: { id: TENANT } }, body: { stockLowThresholdDays: 7.5 } });
    expect(screen.getByText(t.stockLowCurrent(shown))).toBeTruthy();
    expect(field.value).toBe(shown);
    expect(screen.queryByText('must be at most 300')).toBeNull();

    patch.mockResolvedValueOnce(answer(200, tenantView(null)));
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(submit);
    await screen.findByText(t.stockLowSavedOff);
    expect(patch).toHaveBeenLastCalledWith('/tenants/{id}', { params: { path: { id: TENANT } }, body: { stockLowThresholdDays: null } });
    await waitFor(() => expect(screen.getByText(t.stockLowCurrentOff)).toBeTruthy());
  });
});
