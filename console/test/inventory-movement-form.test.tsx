// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as clientModule from '../src/api/client';
import { I18nProvider, type Locale } from '../src/i18n';

type ClientModule = typeof clientModule;

const post = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<ClientModule>()), api: { POST: post } }));

const { MovementForm } = await import('../src/pages/inventory/MovementForm');

const PRODUCT = '11111111-1111-4111-8111-111111111111';
const WAREHOUSE = { id: '22222222-2222-4222-8222-222222222222', name: 'Depósito Centro' };

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  ...(status < 300 ? { data: body } : { error: body }),
  response: new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } }),
});
const movement = (type: string) => ({
  id: crypto.randomUUID(),
  productId: PRODUCT,
  warehouseId: WAREHOUSE.id,
  type,
  quantity: 2,
  unitCost: null,
  occurredAt: new Date().toISOString(),
  createdAt: new Date().toISOString(),
  balance: { quantity: 1, averageCost: 1 },
});
const notEnough = { type: 'https://problems.backoffice.dev/conflict', title: 'Conflict', status: 409, detail: 'Not enough stock: 1 on hand, 2 requested' };

function renderForm(locale: Locale, status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE') {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider locale={locale}>
        <MovementForm productId={PRODUCT} status={status} warehouses={[WAREHOUSE]} />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

/** The Idempotency-Key and body of each POST the form sent. */
type Sent = { params: { header: { 'Idempotency-Key': string } }; body: unknown };
const sent = () => (post.mock.calls as [string, Sent][]).map(([, options]) => ({ key: options.params.header['Idempotency-Key'], body: options.body }));

beforeEach(() => {
  post.mockReset();
});
afterEach(cleanup);

describe('the movement form', () => {
  it('is named in English as the product promises: Quantity and Record movement', () => {
    renderForm('en');
    expect(screen.getByRole('textbox', { name: 'Quantity' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Record movement' })).toBeTruthy();
  });

  it('shows the unit cost for IN and ADJUSTMENT, hides it for OUT and SALE', () => {
    renderForm('en');
    const type = screen.getByRole('combobox', { name: 'Type' });
    expect(screen.queryByRole('textbox', { name: 'Unit cost' })).toBeTruthy();
    for (const [value, shown] of [
      ['OUT', false],
      ['SALE', false],
      ['ADJUSTMENT', true],
      ['IN', true],
    ] as const) {
      fireEvent.change(type, { target: { value } });
      expect(Boolean(screen.queryByRole('textbox', { name: 'Unit cost' })), value).toBe(shown);
    }
  });

  it('keeps one Idempotency-Key across a failed submit and its retry, and a new one after success', async () => {
    post
      .mockResolvedValueOnce(json(409, notEnough))
      .mockResolvedValueOnce(json(201, movement('SALE')))
      .mockResolvedValueOnce(json(201, movement('SALE')));
    renderForm('pt-BR');
    fireEvent.change(screen.getByRole('combobox', { name: 'Tipo' }), { target: { value: 'SALE' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantidade' }), { target: { value: '1.234,5' } });
    const submit = screen.getByRole('button', { name: 'Registrar movimentação' });

    fireEvent.click(submit);
    await screen.findByText(notEnough.detail);
    fireEvent.click(submit);
    await screen.findByText('Movimentação SALE registrada; saldo e histórico atualizados.');
    // The second click of a double click after success sends nothing.
    fireEvent.click(submit);
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantidade' }), { target: { value: '2' } });
    fireEvent.click(submit);
    await waitFor(() => expect(post).toHaveBeenCalledTimes(3));

    const [failed, retried, next] = sent();
    expect(failed?.body).toEqual({ productId: PRODUCT, warehouseId: WAREHOUSE.id, type: 'SALE', quantity: 1234.5 });
    expect(retried).toEqual(failed);
    expect(next?.key).not.toBe(failed?.key);
    expect(next?.body).toEqual({ productId: PRODUCT, warehouseId: WAREHOUSE.id, type: 'SALE', quantity: 2 });
  });

  it('sends one request for a double click while the first is on its way', async () => {
    let answer: (value: unknown) => void = () => undefined;
    post.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    renderForm('en');
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity' }), { target: { value: '1,234.5' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Unit cost' }), { target: { value: '10.25' } });
    const submit = screen.getByRole('button', { name: 'Record movement' });
    fireEvent.click(submit);
    fireEvent.click(submit);
    answer(json(201, movement('IN')));
    await screen.findByText('IN movement recorded; balances and history refreshed.');
    const key: unknown = expect.any(String);
    expect(sent()).toEqual([{ key, body: { productId: PRODUCT, warehouseId: WAREHOUSE.id, type: 'IN', quantity: 1234.5, unitCost: 10.25 } }]);
  });

  it('shows its own errors without sending, and the server’s per field', async () => {
    post.mockResolvedValueOnce(
      json(400, {
        ...notEnough,
        status: 400,
        title: 'Invalid request',
        detail: 'quantity: too big',
        errors: [{ field: 'quantity', message: 'must be at most 1000000000' }],
      }),
    );
    renderForm('en');
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity' }), { target: { value: '1.2345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Record movement' }));
    await screen.findByText('At most 3 decimal places');
    expect(screen.getByText('Required')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity' }), { target: { value: '5' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Unit cost' }), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Record movement' }));
    await screen.findByText('must be at most 1000000000');
  });

  it('warns that an inactive product takes no IN or SALE, and offers only OUT and ADJUSTMENT', async () => {
    post.mockResolvedValueOnce(json(201, movement('OUT')));
    renderForm('en', 'INACTIVE');
    expect(screen.getByText(/This product is inactive: it takes no IN or SALE movements\./)).toBeTruthy();
    const type = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Type' });
    expect(Array.from(type.options, (option) => option.value)).toEqual(['OUT', 'ADJUSTMENT']);
    expect(type.value).toBe('OUT');
    expect(document.getElementById(type.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Inactive product: OUT or ADJUSTMENT only.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity' }), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Record movement' }));
    await screen.findByText('OUT movement recorded; balances and history refreshed.');
    expect(sent().map(({ body }) => body)).toEqual([{ productId: PRODUCT, warehouseId: WAREHOUSE.id, type: 'OUT', quantity: 2 }]);
  });

  it('says nothing of it for an active product, which takes every type', () => {
    renderForm('pt-BR');
    expect(screen.queryByText(/Este produto está inativo/)).toBeNull();
    const type = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Tipo' });
    expect(Array.from(type.options, (option) => option.value)).toEqual(['IN', 'OUT', 'SALE', 'ADJUSTMENT']);
  });
});
