// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as clientModule from '../src/api/client';
import { I18nProvider, type Locale } from '../src/i18n';

type ClientModule = typeof clientModule;
const get = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<ClientModule>()), api: { GET: get } }));
// The chart draws on a canvas happy-dom has not got; the table carries the same data.
vi.mock('../src/pages/dashboard/chart', () => ({
  Chart: class {
    destroy() {}
    update() {}
  },
}));

const { CoverageWidget } = await import('../src/pages/dashboard/CoverageWidget');
const { WarehouseWidget } = await import('../src/pages/dashboard/WarehouseWidget');

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  ...(status < 300 ? { data: body } : { error: body }),
  response: new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }),
});
const item = (sku: string, coverage: number | null) => ({
  productId: `id-${sku}`,
  sku,
  name: `Product ${sku}`,
  availableQuantity: 1234.5,
  averageDailySales: 1,
  estimatedCoverageDays: coverage,
});

function renderWith(locale: Locale, children: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider locale={locale}>{children}</I18nProvider>
    </QueryClientProvider>,
  );
}

type Call = [string, { params?: { query?: Record<string, unknown> }; signal?: AbortSignal }];
const queries = () => (get.mock.calls as Call[]).map(([path, options]) => [path, options.params?.query]);

beforeEach(() => {
  get.mockReset();
});
afterEach(cleanup);

describe('the coverage widget', () => {
  it('reads one page of 50 in the API order, marks what runs out within the horizon with a badge, and follows the Link cursor', async () => {
    get.mockResolvedValueOnce(
      answer(200, [item('A', 3), item('B', 20), item('C', null)], { Link: '</inventory/dashboard/coverage?days=30&limit=50&cursor=NEXT>; rel="next"' }),
    );
    get.mockResolvedValueOnce(answer(200, [item('D', null)]));
    renderWith('en', <CoverageWidget />);
    const table = await screen.findByRole('table', { name: /last 30 days; marked: running out within 14 days/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => [row.className, row.textContent])).toEqual([
      ['highlight', 'AProduct A1,234.513Runs out within 14 days'],
      ['', 'BProduct B1,234.5120OK'],
      ['', 'CProduct C1,234.51—No sales'],
    ]);
    expect(queries()).toEqual([['/inventory/dashboard/coverage', { days: 30, limit: 50 }]]);
    expect((get.mock.calls[0] as Call)[1].signal).toBeInstanceOf(AbortSignal);

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('Product D');
    expect(queries()[1]).toEqual(['/inventory/dashboard/coverage', { days: 30, limit: 50, cursor: 'NEXT' }]);
  });

  it('changes the highlighting with the horizon, without asking the API again', async () => {
    get.mockResolvedValueOnce(answer(200, [item('A', 3), item('B', 20)]));
    renderWith('en', <CoverageWidget />);
    await screen.findByText('Product B');
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Highlight what runs out within (days)' }), { target: { value: '30' } });
    const table = await screen.findByRole('table', { name: /within 30 days/ });
    expect(within(table).getAllByText('Runs out within 30 days')).toHaveLength(2);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('reads another period when one is chosen or typed and applied', async () => {
    get.mockResolvedValue(answer(200, [item('A', 3)]));
    renderWith('pt-BR', <CoverageWidget />);
    await screen.findByText('Product A');
    fireEvent.click(screen.getByRole('radio', { name: '7 dias' }));
    await waitFor(() => expect(queries().at(-1)).toEqual(['/inventory/dashboard/coverage', { days: 7, limit: 50 }]));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Número de dias (1 a 365)' }), { target: { value: '45' } });
    expect(queries()).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Aplicar' }));
    await waitFor(() => expect(queries().at(-1)).toEqual(['/inventory/dashboard/coverage', { days: 45, limit: 50 }]));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Número de dias (1 a 365)' }), { target: { value: '400' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aplicar' }));
    await screen.findByText('Digite um número inteiro de 1 a 365.');
    expect(queries()).toHaveLength(3);
  });

  it('says how long to wait when the API limits the periods off the daily index (429 Retry-After)', async () => {
    get.mockResolvedValueOnce(
      answer(
        429,
        { type: 'https://problems.backoffice.dev/rate-limited', title: 'Too Many Requests', status: 429, detail: 'Too many coverage reads' },
        { 'Retry-After': '1200' },
      ),
    );
    renderWith('en', <CoverageWidget />);
    expect((await screen.findByRole('alert')).textContent).toContain('Try again in 1200 s.');
  });

  it("says which day the sales figures are of while the day's precomputation has not completed, in both languages, and nothing once current", async () => {
    const stale = { 'Coverage-Stale': 'true', 'Coverage-Figures-Date': '2026-11-28' };
    get.mockResolvedValueOnce(answer(200, [item('A', 3)], stale));
    renderWith('pt-BR', <CoverageWidget />);
    const notice = await screen.findByText('Vendas de 28/11/2026: as de hoje ainda estão sendo calculadas. O estoque disponível está atualizado.');
    expect(notice.getAttribute('role')).toBe('status');
    cleanup();

    get.mockResolvedValueOnce(answer(200, [item('A', 3)], stale));
    renderWith('en', <CoverageWidget />);
    expect(await screen.findByText('Sales figures of 28/11/2026: today’s are still being computed. Available stock is up to date.')).toBeTruthy();
    cleanup();

    get.mockResolvedValueOnce(answer(200, [item('A', 3)], { 'Coverage-Stale': 'false', 'Coverage-Figures-Date': '2026-11-29' }));
    renderWith('en', <CoverageWidget />);
    await screen.findByText('Product A');
    expect(screen.queryByText(/Sales figures of/)).toBeNull();
  });

  it('with no products, says to create one in Inventory, with a link', async () => {
    get.mockResolvedValueOnce(answer(200, []));
    renderWith('pt-BR', <CoverageWidget />);
    await screen.findByText('Nenhum produto ainda');
    expect(screen.getByRole('link', { name: 'Ir para Estoque' }).getAttribute('href')).toBe('/inventory');
  });
});

describe('the stock by warehouse widget', () => {
  it('shows quantities and money exactly, in one query', async () => {
    get.mockResolvedValueOnce(
      answer(200, [{ warehouseId: 'w1', warehouseName: 'Depósito Centro', totalItems: 1234.5, totalProducts: 3, totalValue: 1234.56 }]),
    );
    renderWith('pt-BR', <WarehouseWidget />);
    const table = await screen.findByRole('table', { name: 'Totais e valor do estoque em cada depósito' });
    expect(within(table).getAllByRole('row')[1]?.textContent).toBe('Depósito Centro1.234,53R$ 1.234,56');
    expect(screen.getByRole('img', { name: /valor do estoque por depósito/ })).toBeTruthy();
    expect(queries()).toEqual([['/inventory/dashboard/by-warehouse', undefined]]);
  });
});
