// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as clientModule from '../src/api/client';
import type { Product } from '../src/api/inventory';
import { I18nProvider, type Locale } from '../src/i18n';

type ClientModule = typeof clientModule;

const get = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<ClientModule>()), api: { GET: get, POST: post } }));

const { TransferForm } = await import('../src/pages/inventory/TransferForm');
const { StockHistory } = await import('../src/pages/inventory/StockHistory');

const PRODUCT = {
  id: '11111111-1111-4111-8111-111111111111',
  sku: 'CAFE-500',
  name: 'Café',
  unit: 'UN',
  status: 'ACTIVE',
} as Product;
const CENTRAL = { id: '22222222-2222-4222-8222-222222222222', name: 'Central', companyId: null, createdAt: '2026-11-20T10:00:00.000Z' };
const LOJA = { id: '33333333-3333-4333-8333-333333333333', name: 'Loja', companyId: null, createdAt: '2026-11-20T10:00:00.000Z' };

const json = (status: number, body: unknown) => ({
  ...(status < 300 ? { data: body } : { error: body }),
  response: new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
});
const balance = (quantity: number) => ({ quantity, averageCost: 10, lastCost: 10 });
const movements = (quantity: number) => ({
  items: [{ id: 'm1', type: 'IN', quantity, unitCost: 10, createdAt: '2026-11-20T10:00:00.000Z', balance: { quantity, averageCost: 10 } }],
  nextCursor: null,
});
const notEnough = {
  type: 'https://problems.backoffice.dev/conflict',
  title: 'Conflict',
  status: 409,
  detail: 'Not enough stock: 2.000 on hand, 3.000 requested',
};
const transfer = {
  id: '44444444-4444-4444-8444-444444444444',
  productId: PRODUCT.id,
  fromWarehouseId: CENTRAL.id,
  toWarehouseId: LOJA.id,
  fromCompanyId: null,
  toCompanyId: null,
  quantity: 2,
  value: 20,
  costMethod: 'WEIGHTED_AVERAGE',
  note: null,
  occurredAt: '2026-11-20T11:00:00.000Z',
  createdAt: '2026-11-20T11:00:00.000Z',
  from: { movementId: 'a', balance: balance(0) },
  to: { movementId: 'b', balance: balance(2) },
};

function renderForm(locale: Locale) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider locale={locale}>
        <TransferForm product={PRODUCT} warehouses={[CENTRAL, LOJA]} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

type Sent = { params: { header: { 'Idempotency-Key': string } }; body: unknown };
const sent = () => (post.mock.calls as [string, Sent][]).map(([, options]) => ({ key: options.params.header['Idempotency-Key'], body: options.body }));

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  get.mockResolvedValue(json(200, movements(2)));
});
afterEach(cleanup);

describe('the transfer form', () => {
  it('shows the source’s balance, explains a want of stock beside the quantity, and keeps its Idempotency-Key for the retry', async () => {
    post.mockResolvedValueOnce(json(409, notEnough)).mockResolvedValueOnce(json(201, transfer));
    renderForm('pt-BR');
    fireEvent.change(screen.getByRole('combobox', { name: 'Depósito de origem' }), { target: { value: CENTRAL.id } });
    await screen.findByText('Em estoque aqui: 2');
    fireEvent.change(screen.getByRole('combobox', { name: 'Depósito de destino' }), { target: { value: LOJA.id } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantidade a transferir' }), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Transferir' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Nada foi transferido: o depósito de origem não tem estoque suficiente.');
    const quantity = screen.getByRole('textbox', { name: 'Quantidade a transferir' });
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Central tem 2 em estoque e foram pedidos 3: transfira no máximo 2.')).toBeTruthy();

    fireEvent.change(quantity, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Transferir' }));
    await screen.findByText('Transferidos 2 UN de Central para Loja.');
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('R$ 20,00, ao custo médio da origem');
    expect(status.textContent).toContain('Saldo em Central0 · custo médio R$ 10,00');
    expect(status.textContent).toContain('Saldo em Loja2 · custo médio R$ 10,00');

    const [refused, retried] = sent();
    expect(refused?.body).toEqual({ productId: PRODUCT.id, fromWarehouseId: CENTRAL.id, toWarehouseId: LOJA.id, quantity: 3 });
    expect(retried?.key).toBe(refused?.key);
    expect(retried?.body).toEqual({ productId: PRODUCT.id, fromWarehouseId: CENTRAL.id, toWarehouseId: LOJA.id, quantity: 2 });
  });

  it('sends nothing for the same warehouse on both sides or a fraction of a whole unit, and says why beside each field', async () => {
    renderForm('en');
    fireEvent.change(screen.getByRole('combobox', { name: 'From warehouse' }), { target: { value: CENTRAL.id } });
    fireEvent.change(screen.getByRole('combobox', { name: 'To warehouse' }), { target: { value: CENTRAL.id } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity to transfer' }), { target: { value: '1.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    await screen.findByText('Choose a warehouse other than the source');
    expect(screen.getByText('This product is counted in UN: whole quantities only')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
  });

  it('shows the server’s message beside its field', async () => {
    post.mockResolvedValueOnce(
      json(400, {
        ...notEnough,
        status: 400,
        title: 'Invalid request',
        detail: 'note: too long',
        errors: [{ field: 'note', message: 'must be at most 500 characters' }],
      }),
    );
    renderForm('en');
    fireEvent.change(screen.getByRole('combobox', { name: 'From warehouse' }), { target: { value: CENTRAL.id } });
    fireEvent.change(screen.getByRole('combobox', { name: 'To warehouse' }), { target: { value: LOJA.id } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity to transfer' }), { target: { value: '1' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Note' }), { target: { value: 'x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    await screen.findByText('must be at most 500 characters');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Note' }).getAttribute('aria-invalid')).toBe('true'));
  });
});

describe('the stock history of a transfer', () => {
  it('names the other warehouse on each side: “para Loja” on the way out, “de Central” on the way in', async () => {
    const side = (type: string, warehouseId: string, counterpartWarehouseId: string, quantity: number) => ({
      id: `${type}-id`,
      productId: PRODUCT.id,
      warehouseId,
      type,
      quantity: 4,
      unitCost: null,
      transferId: transfer.id,
      counterpartWarehouseId,
      occurredAt: '2026-11-20T11:00:00.000Z',
      createdAt: '2026-11-20T11:00:00.000Z',
      balance: { quantity, averageCost: 10 },
    });
    get.mockResolvedValue(json(200, { items: [side('TRANSFER_IN', LOJA.id, CENTRAL.id, 4), side('TRANSFER_OUT', CENTRAL.id, LOJA.id, 6)], nextCursor: null }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <I18nProvider locale="pt-BR">
          <StockHistory productId={PRODUCT.id} warehouses={[CENTRAL, LOJA]} />
        </I18nProvider>
      </QueryClientProvider>,
    );
    const table = await screen.findByRole('table', { name: 'Movimentações do produto, da mais recente para a mais antiga' });
    const types = Array.from(table.querySelectorAll('tbody tr'), (row) => row.querySelectorAll('td')[1]?.textContent);
    expect(types).toEqual(['Transferência, entrada de Central', 'Transferência, saída para Loja']);
    const filter = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Tipo' });
    expect(Array.from(filter.options, (option) => option.value)).toEqual(['', 'IN', 'OUT', 'SALE', 'ADJUSTMENT', 'TRANSFER_OUT', 'TRANSFER_IN']);
  });
});
