// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as clientModule from '../src/api/client';
import { I18nProvider, type Locale } from '../src/i18n';

type ClientModule = typeof clientModule;
const get = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<ClientModule>()), api: { GET: get, POST: post, PATCH: vi.fn(), DELETE: vi.fn() } }));

const { TenantsSection } = await import('../src/pages/tenants/TenantsSection');

const ACTIVE = '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60';
const CLOSED = '9b2e41c0-5d1a-4c7e-8f3b-2a6d9e0c4b71';
const DUE = '2026-12-26T12:00:00.000Z';

const answer = (status: number, body: unknown) => ({
  ...(status < 300 ? { data: body } : { error: body }),
  response: new Response(JSON.stringify(body), { status, headers: { 'Content-Type': status < 300 ? 'application/json' : 'application/problem+json' } }),
});
const view = (id: string, name: string, closed: boolean) => ({
  id,
  name,
  brandName: null,
  document: null,
  address: null,
  phone: null,
  logoUrl: null,
  plan: 'STARTER',
  mfaPolicy: 'OFF',
  stockLowThresholdDays: null,
  ...(closed ? { status: 'CLOSED', deletionDueAt: DUE } : {}),
});

function renderSection(locale: Locale) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider locale={locale}>
        <TenantsSection />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  get.mockImplementation((path: string) =>
    path === '/tenants'
      ? Promise.resolve(answer(200, [view(ACTIVE, 'loja-ativa', false), view(CLOSED, 'loja-fechada', true)]))
      : Promise.reject(new Error(`unexpected GET ${path}`)),
  );
});
afterEach(cleanup);

describe("the platform's tenants", () => {
  it('shows a closed tenant with its deletion date, and offers Close to an active one and Reopen to a closed one', async () => {
    renderSection('en');
    const closedRow = (await screen.findByRole('cell', { name: 'loja-fechada' })).closest('tr') as HTMLElement;
    expect(
      within(closedRow).getByRole('cell', {
        name: `Closed: deleted on ${new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(DUE))}`,
      }),
    ).toBeTruthy();
    expect(within(closedRow).getByRole('button', { name: 'Reopen the company loja-fechada' })).toBeTruthy();
    const activeRow = screen.getByRole('cell', { name: 'loja-ativa' }).closest('tr') as HTMLElement;
    expect(within(activeRow).getByRole('cell', { name: 'Active' })).toBeTruthy();
    expect(within(activeRow).queryByRole('button', { name: /Reopen/ })).toBeNull();
  });

  it('closes a tenant only once the dialog is confirmed, then reads the list again', async () => {
    post.mockResolvedValue(answer(200, { id: ACTIVE, name: 'loja-ativa', status: 'CLOSED', closedAt: '2026-11-26T12:00:00.000Z', deletionDueAt: DUE }));
    renderSection('pt-BR');
    fireEvent.click(await screen.findByRole('button', { name: 'Encerrar a empresa loja-ativa' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Encerrar a empresa loja-ativa?' });
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encerrar' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/tenants/{id}/close', { params: { path: { id: ACTIVE } } }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(get.mock.calls.filter(([path]) => path === '/tenants')).toHaveLength(2);
  });
});
