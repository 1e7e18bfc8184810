// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as clientModule from '../src/api/client';
import { I18nProvider, type Locale } from '../src/i18n';
import { webhookMessages } from '../src/pages/webhooks/webhook-messages';

type ClientModule = typeof clientModule;
const get = vi.hoisted(() => vi.fn());
const post = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<ClientModule>()), api: { GET: get, POST: post, PATCH: vi.fn(), DELETE: vi.fn() } }));

const { WebhooksSection } = await import('../src/pages/webhooks/WebhooksSection');

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  ...(status < 300 ? { data: body } : { error: body }),
  response: new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status < 300 ? 'application/json' : 'application/problem+json', ...headers },
  }),
});

const ENDPOINT = {
  id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60',
  url: 'https://erp.example.com/hooks',
  description: 'ERP',
  events: ['supplier.created'],
  enabled: false,
  disabledReason: 'gone',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};
const SECRET = 'whsec_c2VjcmV0LXNob3duLW9uY2UtaW4tdGhlLXRlc3Q=';
const delivery = (id: string, status: string, attempts: { statusCode: number | null; response: string }[]) => ({
  id,
  endpointId: ENDPOINT.id,
  eventId: `event-${id}`,
  eventType: 'supplier.created',
  status,
  attempts: attempts.map((attempt, index) => ({ at: `2026-11-20T10:0${index}:00.000Z`, latencyMs: 1234, ...attempt })),
  nextAttemptAt: status === 'pending' ? '2026-11-20T10:30:00.000Z' : null,
  createdAt: '2026-11-20T10:00:00.000Z',
});

function renderSection(locale: Locale) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <I18nProvider locale={locale}>
        <WebhooksSection />
      </I18nProvider>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  get.mockReset();
  post.mockReset();
});
afterEach(cleanup);

describe('registering an endpoint', () => {
  it.each(['pt-BR', 'en'] as const)('checks the form, shows the server’s word under the URL, then the secret once (%s)', async (locale) => {
    const t = webhookMessages[locale];
    let listed: unknown[] = [];
    get.mockImplementation(() => Promise.resolve(answer(200, listed)));
    renderSection(locale);
    await screen.findByText(t.noEndpoints);

    fireEvent.click(screen.getByRole('button', { name: t.newEndpoint }));
    const dialog = await screen.findByRole('dialog', { name: t.createTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: t.create }));
    expect(within(dialog).getByText(t.pickOne)).toBeTruthy();
    expect(within(dialog).getByRole('textbox', { name: t.url }).getAttribute('aria-invalid')).toBe('true');
    expect(post).not.toHaveBeenCalled();

    post.mockResolvedValueOnce(
      answer(400, {
        type: 'https://problems.backoffice.dev/validation',
        title: 'Invalid input',
        status: 400,
        detail: 'The request is invalid',
        errors: [{ field: 'url', message: 'must reach a public address' }],
        requestId: 'r1',
      }),
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: t.url }), { target: { value: 'https://10.0.0.1/hooks' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: `${t.eventName('supplier.created')} (supplier.created)` }));
    fireEvent.click(within(dialog).getByRole('button', { name: t.create }));
    await within(dialog).findByText('must reach a public address');
    const url = within(dialog).getByRole('textbox', { name: t.url });
    expect(url.getAttribute('aria-describedby')).toContain(`${url.id}-error`);
    expect(post).toHaveBeenLastCalledWith('/webhook-endpoints', { body: { url: 'https://10.0.0.1/hooks', events: ['supplier.created'] } });

    post.mockResolvedValueOnce(answer(201, { ...ENDPOINT, enabled: true, disabledReason: null, secret: SECRET, previousSecretExpiresAt: null }));
    fireEvent.change(url, { target: { value: 'https://erp.example.com/hooks' } });
    listed = [{ ...ENDPOINT, enabled: true, disabledReason: null }];
    fireEvent.click(within(dialog).getByRole('button', { name: t.create }));
    const shown = await screen.findByRole('alertdialog', { name: t.createdTitle });
    expect(within(shown).getByRole<HTMLInputElement>('textbox', { name: t.secretField }).value).toBe(SECRET);
    fireEvent.click(within(shown).getByRole('button', { name: t.secretDone }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await screen.findByText(ENDPOINT.url);
    expect(document.body.innerHTML).not.toContain(SECRET);
  });
});

describe('the delivery log', () => {
  it('shows each attempt, loads more by the cursor and filters by status', async () => {
    const t = webhookMessages.en;
    get.mockImplementation((path: string, { params }: { params: { query?: Record<string, unknown> } }) => {
      if (path === '/webhook-endpoints') return Promise.resolve(answer(200, [ENDPOINT]));
      const query = params.query ?? {};
      if (query.status === 'failed') return Promise.resolve(answer(200, []));
      if (query.cursor === 'c2') return Promise.resolve(answer(200, [delivery('d2', 'failed', [{ statusCode: 500, response: 'boom' }])]));
      return Promise.resolve(
        answer(
          200,
          [
            delivery('d1', 'succeeded', [
              { statusCode: null, response: 'connect ECONNREFUSED' },
              { statusCode: 200, response: 'ok thanks' },
            ]),
          ],
          { Link: '</webhook-endpoints/x/deliveries?limit=20&cursor=c2>; rel="next"' },
        ),
      );
    });
    renderSection('en');
    await screen.findByText(t.stateName('gone'));
    fireEvent.click(screen.getByRole('button', { name: t.showDeliveries(ENDPOINT.url) }));
    const log = await screen.findByRole('region', { name: t.logTitle(ENDPOINT.url) });
    await within(log).findByText('ok thanks');
    const items = within(log)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items[0]).toContain(`${t.noAnswer}, 1,234 ms`);
    expect(items[0]).toContain('connect ECONNREFUSED');
    expect(items[1]).toContain('HTTP 200, 1,234 ms');
    expect(within(within(log).getByRole('table')).getByText(t.statusName('succeeded'))).toBeTruthy();

    fireEvent.click(within(log).getByRole('button', { name: t.loadMore }));
    await within(log).findByText('boom');
    expect(within(log).getByText('ok thanks')).toBeTruthy();
    expect(within(log).queryByRole('button', { name: t.loadMore })).toBeNull();
    const deliveryCalls = () =>
      (get.mock.calls as [string, { params: { path: { id: string }; query: Record<string, unknown> } }][])
        .filter(([path]) => path !== '/webhook-endpoints')
        .map(([, options]) => options.params);
    expect(deliveryCalls()).toEqual([
      { path: { id: ENDPOINT.id }, query: { limit: 20 } },
      { path: { id: ENDPOINT.id }, query: { limit: 20, cursor: 'c2' } },
    ]);

    // Retry: the delivery sent again now, what came back said, the log read again.
    post.mockResolvedValueOnce(
      answer(
        200,
        delivery('d2', 'succeeded', [
          { statusCode: 500, response: 'boom' },
          { statusCode: 204, response: '' },
        ]),
      ),
    );
    fireEvent.click(within(log).getByRole('button', { name: t.retryDelivery(t.eventName('supplier.created'), 'd2') }));
    await waitFor(() => expect(within(log).getByText(t.retried(t.eventName('supplier.created'), 'HTTP 204, 1,234 ms'))).toBeTruthy());
    expect(post).toHaveBeenLastCalledWith('/webhook-deliveries/{id}/retry', { params: { path: { id: 'd2' } } });

    fireEvent.change(within(log).getByRole('combobox', { name: t.status }), { target: { value: 'failed' } });
    await within(log).findByText(t.noDeliveries);
    expect(deliveryCalls().at(-1)).toEqual({ path: { id: ENDPOINT.id }, query: { limit: 20, status: 'failed' } });
  });
});

describe('a test event', () => {
  it.each(['pt-BR', 'en'] as const)('is sent from the endpoint’s row, and what came back is said (%s)', async (locale) => {
    const t = webhookMessages[locale];
    get.mockImplementation(() => Promise.resolve(answer(200, [ENDPOINT])));
    post.mockResolvedValueOnce(answer(200, { ...delivery('p1', 'failed', [{ statusCode: null, response: 'connect ECONNREFUSED' }]), eventType: 'ping' }));
    renderSection(locale);
    fireEvent.click(await screen.findByRole('button', { name: t.sendTestTo(ENDPOINT.url) }));
    const latency = locale === 'en' ? '1,234 ms' : '1.234 ms';
    await waitFor(() => expect(screen.getByText(t.testSent(ENDPOINT.url, `${t.noAnswer}, ${latency}`))).toBeTruthy());
    expect(post).toHaveBeenLastCalledWith('/webhook-endpoints/{id}/test', { params: { path: { id: ENDPOINT.id } } });
  });
});
