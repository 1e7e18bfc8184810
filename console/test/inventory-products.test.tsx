// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as clientModule from '../src/api/client';
import { I18nProvider } from '../src/i18n';

type ClientModule = typeof clientModule;
const get = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<ClientModule>()), api: { GET: get, POST: vi.fn() } }));

const { Products } = await import('../src/pages/inventory/Products');

const answer = (body: unknown) => ({
  data: body,
  response: new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }),
});
const product = (sku: string) => ({ id: `id-${sku}`, sku, name: `Product ${sku}`, createdAt: '2026-11-20T10:00:00.000Z' });

type Call = [string, { params: { query: Record<string, unknown> }; signal: AbortSignal }];
/** The product list's reads (the category filter reads the categories too). */
const calls = () => (get.mock.calls as Call[]).filter(([path]) => path === '/inventory/products');

beforeEach(() => {
  get.mockReset();
});
afterEach(cleanup);

describe('the product search', () => {
  it('asks once the typing pauses (~300 ms), and cancels a search overtaken by a newer one', async () => {
    get.mockImplementation((path: string, { params, signal }: Call[1]) => {
      if (path === '/inventory/categories') return Promise.resolve(answer([]));
      const search = params.query.search as string | undefined;
      if (search === 'caf') return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
      return Promise.resolve(answer(search ? [product('CAFE-500')] : [product('CAFE-500'), product('CHA-100')]));
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <I18nProvider locale="en">
          <Products />
        </I18nProvider>
      </QueryClientProvider>,
    );
    await screen.findByRole('link', { name: 'CHA-100' });
    const search = screen.getByRole('searchbox', { name: 'Search products' });
    for (const text of ['c', 'ca', 'caf']) fireEvent.change(search, { target: { value: text } });
    await waitFor(() => expect(calls().map(([, options]) => options.params.query.search)).toEqual([undefined, 'caf']));
    const stale = calls()[1]?.[1].signal;
    fireEvent.change(search, { target: { value: 'cafe' } });
    await waitFor(() => expect(screen.queryByRole('link', { name: 'CHA-100' })).toBeNull());
    expect(calls().map(([, options]) => options.params.query)).toEqual([{ limit: 20 }, { limit: 20, search: 'caf' }, { limit: 20, search: 'cafe' }]);
    expect(stale?.aborted).toBe(true);
    expect(screen.getByRole('link', { name: 'CAFE-500' }).getAttribute('href')).toBe('/inventory/products/id-CAFE-500');
  });
});
