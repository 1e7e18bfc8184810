import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDelivery, listDeliveries } from '../../lib/webhooks/deliveries-repository';
import { getEndpoint } from '../../lib/webhooks/repository';
import type { EventType } from '../../lib/domain/events';
import { runDue } from '../../lib/webhooks/delivery';
import { storeDeliveryDeps } from '../../lib/webhooks/deps';
import type { WebhookDelivery, WebhookEndpoint, WebhookSecrets } from '../../lib/webhooks/model';
import { call, newTenantWithAdmin, outboxFor, useLocalStoreInProcess, type Account } from './api';

/**
 * The webhooks' engine of `npm start` (local/webhooks.ts): a change's event goes through the
 * table's stream to a receiver on 127.0.0.1, signed, within 2 s of the change's answer; a
 * failed attempt is retried (the retries run here in process with a clock 6 s ahead, against
 * the same store, instead of waiting); a 410 disables the endpoint.
 *
 * Endpoints are registered over HTTP (POST /webhook-endpoints answers the secret once), each to
 * a receiver of its own.
 */

interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver that answers from a queue of statuses (200 when it is empty), after `slow` ms when
 * asked, and keeps what it got and how many requests it held at once at most.
 */
function receiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const waiting: (() => void)[] = [];
  const holding = { now: 0, most: 0, ms: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    holding.now += 1;
    holding.most = Math.max(holding.most, holding.now);
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ at: Date.now(), headers: request.headers, body: Buffer.concat(chunks).toString() });
      const status = statuses.shift() ?? 200;
      for (const wake of waiting.splice(0)) wake();
      setTimeout(() => {
        holding.now -= 1;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(`answer ${status}`);
      }, holding.ms);
    });
  });
  return {
    received,
    answer: (...next: number[]) => statuses.push(...next),
    slow: (ms: number) => (holding.ms = ms),
    /** The most requests it was answering at one time. */
    mostAtOnce: () => holding.most,
    start: () =>
      new Promise<string>((resolveStart) =>
        server.listen(0, '127.0.0.1', () => resolveStart(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`)),
      ),
    stop: () =>
      new Promise<void>((resolveStop) => {
        server.close(() => resolveStop());
        server.closeAllConnections();
      }),
    /** Resolves once `count` requests came, or rejects after `ms`. */
    until: async (count: number, ms: number) => {
      const deadline = Date.now() + ms;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver got ${received.length} request(s), not ${count}, within ${ms} ms`);
        await new Promise<void>((wake) => {
          const timer = setTimeout(wake, left);
          waiting.push(() => {
            clearTimeout(timer);
            wake();
          });
        });
      }
    },
  };
}

/**
 * Each test has a receiver of its own, so that a retry a test leaves scheduled (the engine's
 * timers keep running) cannot take the answer another test queued. They stop after the file.
 */
const receivers: ReturnType<typeof receiver>[] = [];
async function newReceiver() {
  const hook = receiver();
  receivers.push(hook);
  return { ...hook, url: await hook.start() };
}

beforeAll(() => useLocalStoreInProcess());
afterAll(() => Promise.all(receivers.map((hook) => hook.stop())));

/** An endpoint registered as an administrator does (POST /webhook-endpoints), with the secret it answers once. */
async function register(admin: Account, events: EventType[], target: string): Promise<{ endpoint: WebhookEndpoint; secrets: Pick<WebhookSecrets, 'current'> }> {
  const created = await call<WebhookEndpoint & { secret: string }>('POST', '/webhook-endpoints', { cookies: admin.cookies, body: { url: target, events } });
  if (created.status !== 201) throw new Error(`endpoint registration failed: ${created.status} ${JSON.stringify(created.body)}`);
  const { secret, ...endpoint } = created.body;
  return { endpoint: endpoint, secrets: { current: secret } };
}

async function stockedProduct(admin: Account) {
  const warehouse = await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Centro' } });
  const product = await call<{ id: string }>('POST', '/inventory/products', { cookies: admin.cookies, body: { sku: 'CAFE-500', name: 'Café 500 g' } });
  return { warehouseId: warehouse.body.id, productId: product.body.id };
}

/** The endpoint's deliveries once `done` holds for them (the engine records an attempt just after the receiver answers). */
async function deliveriesOf(admin: Account, endpointId: string, done: (deliveries: WebhookDelivery[]) => boolean): Promise<WebhookDelivery[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const deliveries = await listDeliveries(admin.tenantId, endpointId, 10);
    if (done(deliveries) || Date.now() > deadline) return deliveries;
    await new Promise((wake) => setTimeout(wake, 50));
  }
}

/**
 * How long a test waits for a delivery it only needs to have happened: the stream's poll and a
 * worker under the bundle suite's load take seconds, and the wait ends when the request comes.
 * (The first test's 2 s is the latency npm start promises, and stays.)
 */
const DELIVERY_WAIT_MS = 15_000;

describe('webhooks from npm start', () => {
  it('a receiver on 127.0.0.1 gets the signed stock_movement.created within 2 s of the 201, and the delivery is recorded', async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint, secrets } = await register(admin, ['stock_movement.created'], hook.url);
    const { warehouseId, productId } = await stockedProduct(admin);
    const movement = await call<{ id: string }>('POST', '/inventory/movements', {
      cookies: admin.cookies,
      body: { productId, warehouseId, type: 'IN', quantity: 10, unitCost: 5 },
    });
    expect(movement.status).toBe(201);
    const answeredAt = Date.now();
    await hook.until(1, 2000);
    const got = hook.received[0] as Received;
    expect(got.at - answeredAt).toBeLessThan(2000);

    // Signed as Standard Webhooks says, verified with the package a receiver uses.
    const payload = new Webhook(secrets.current).verify(got.body, got.headers as Record<string, string>) as { type: string; data: Record<string, unknown> };
    expect(payload).toMatchObject({
      type: 'stock_movement.created',
      data: { id: movement.body.id, tenantId: admin.tenantId, productId, warehouseId, type: 'IN' },
    });
    const events = await call<{ items: { id: string; type: string }[] }>('GET', '/events?type=stock_movement.created', { cookies: admin.cookies });
    expect(got.headers['webhook-id']).toBe(events.body.items[0]?.id);
    // Only the subscribed type: the warehouse and the product made no delivery.
    expect(hook.received).toHaveLength(1);

    const [delivery] = await deliveriesOf(admin, endpoint.id, (all) => all[0]?.status === 'succeeded');
    expect(delivery).toMatchObject({
      tenantId: admin.tenantId,
      endpointId: endpoint.id,
      eventId: got.headers['webhook-id'],
      eventType: 'stock_movement.created',
      status: 'succeeded',
      nextAttemptAt: null,
    });
    expect(delivery?.attempts).toEqual([
      { at: expect.any(String) as string, statusCode: 200, latencyMs: expect.any(Number) as number, response: 'answer 200' },
    ]);
  });

  it('a receiver that answers 500 twice gets the event again on the schedule (the test moves the clock on), with the same webhook-id', async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint, secrets } = await register(admin, ['warehouse.created'], hook.url);
    hook.answer(500, 500);
    const warehouse = await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Norte' } });
    expect(warehouse.status).toBe(201);
    await hook.until(1, DELIVERY_WAIT_MS);
    const [pending] = await deliveriesOf(admin, endpoint.id, (all) => all[0]?.attempts.length === 1);
    expect(pending).toMatchObject({ status: 'pending', attempts: [{ statusCode: 500, response: 'answer 500' }] });
    expect(Date.parse(pending?.nextAttemptAt ?? '') - Date.parse(pending?.attempts[0]?.at ?? '')).toBeGreaterThanOrEqual(5000);

    // 6 s on: the second attempt (5 s after the first) fails too, and the third is due 5 minutes later.
    let clock = Date.now() + 6000;
    const deps = storeDeliveryDeps({ now: () => clock });
    expect((await runDue(deps)).find((one) => one.id === pending?.id)).toMatchObject({
      status: 'pending',
      attempts: [{ statusCode: 500 }, { statusCode: 500 }],
    });
    const ref = { tenantId: admin.tenantId, endpointId: endpoint.id, createdAt: pending?.createdAt ?? '', id: pending?.id ?? '' };
    const second = (await getDelivery(ref))?.delivery;
    expect(Date.parse(second?.nextAttemptAt ?? '') - clock).toBe(300_000);
    // Not due a minute later; due 5 minutes later, and then it succeeds.
    clock += 60_000;
    expect((await runDue(deps)).find((one) => one.id === pending?.id)).toBeUndefined();
    clock += 241_000;
    expect((await runDue(deps)).find((one) => one.id === pending?.id)).toMatchObject({ status: 'succeeded' });

    const attempts = hook.received;
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((one) => one.headers['webhook-id'])).size).toBe(1);
    // Signed at each attempt's time: the third is 5 minutes ahead of the real clock, past the package's tolerance, so it is checked by its timestamp.
    for (const attempt of attempts.slice(0, 2))
      expect(() => new Webhook(secrets.current).verify(attempt.body, attempt.headers as Record<string, string>)).not.toThrow();
    expect(Number(attempts[2]?.headers['webhook-timestamp'])).toBe(Math.floor(clock / 1000));
    const stored = await getDelivery(ref);
    expect(stored?.delivery.attempts.map((one) => one.statusCode)).toEqual([500, 500, 200]);
    expect(stored?.delivery.nextAttemptAt).toBeNull();
    // A success clears the endpoint's failing time, which the first failure set.
    expect(await getEndpoint(admin.tenantId, endpoint.id)).toMatchObject({ enabled: true, failingSince: null });
  });

  it('a 410 disables the endpoint at once, and its next events are not sent', async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint } = await register(admin, ['warehouse.created'], hook.url);
    hook.answer(410);
    await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Sur' } });
    await hook.until(1, DELIVERY_WAIT_MS);
    await deliveriesOf(admin, endpoint.id, (all) => all[0]?.status === 'failed');
    expect(await getEndpoint(admin.tenantId, endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Este' } });
    await new Promise((wake) => setTimeout(wake, 1000));
    expect(hook.received).toHaveLength(1);
  });
});

describe('GET /webhook-endpoints/{id}/deliveries', () => {
  it("lists an endpoint's deliveries newest first with their attempts, filters by status and event type, pages, and keeps tenants apart", async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint } = await register(admin, ['warehouse.created', 'product.created'], hook.url);
    await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Oeste' } });
    await hook.until(1, DELIVERY_WAIT_MS);
    hook.answer(500);
    await call('POST', '/inventory/products', { cookies: admin.cookies, body: { sku: 'CHA-100', name: 'Chá 100 g' } });
    await hook.until(2, DELIVERY_WAIT_MS);
    await deliveriesOf(admin, endpoint.id, (all) => all.length === 2 && all.every((one) => one.attempts.length === 1));

    const path = `/webhook-endpoints/${endpoint.id}/deliveries`;
    const all = await call<WebhookDelivery[]>('GET', path, { cookies: admin.cookies });
    expect(all.status).toBe(200);
    expect(all.body.map((one) => [one.eventType, one.status])).toEqual([
      ['product.created', 'pending'],
      ['warehouse.created', 'succeeded'],
    ]);
    expect(all.body[0]).not.toHaveProperty('tenantId');
    expect(all.body[0]?.attempts[0]).toMatchObject({ statusCode: 500, response: 'answer 500' });

    const pending = await call<WebhookDelivery[]>('GET', `${path}?status=pending`, { cookies: admin.cookies });
    expect(pending.body.map((one) => one.eventType)).toEqual(['product.created']);
    const warehouses = await call<WebhookDelivery[]>('GET', `${path}?eventType=warehouse.created`, { cookies: admin.cookies });
    expect(warehouses.body.map((one) => one.status)).toEqual(['succeeded']);

    const first = await call<WebhookDelivery[]>('GET', `${path}?limit=1`, { cookies: admin.cookies });
    expect(first.body).toHaveLength(1);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBeDefined();
    const second = await call<WebhookDelivery[]>('GET', next?.replace(/^https?:\/\/[^/]+/, '') ?? '', { cookies: admin.cookies });
    expect(second.body.map((one) => one.eventType)).toEqual(['warehouse.created']);
    expect(second.headers.get('link')).toBeNull();

    const other = await newTenantWithAdmin();
    expect((await call('GET', path, { cookies: other.cookies })).status).toBe(404);
    expect((await call('GET', `/webhook-endpoints/${randomUUID()}/deliveries`, { cookies: admin.cookies })).status).toBe(404);
  });
});

describe('POST /webhook-endpoints/{id}/test and POST /webhook-deliveries/{id}/retry', () => {
  it('a test sends a signed ping now and answers what came back, also to a disabled endpoint, without retries or effect on the endpoint', async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint, secrets } = await register(admin, ['warehouse.created'], hook.url);
    hook.answer(410);
    const tested = await call<WebhookDelivery>('POST', `/webhook-endpoints/${endpoint.id}/test`, { cookies: admin.cookies });
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({
      endpointId: endpoint.id,
      eventType: 'ping',
      status: 'failed',
      nextAttemptAt: null,
      attempts: [{ statusCode: 410, response: 'answer 410' }],
    });
    const got = hook.received[0] as Received;
    expect(new Webhook(secrets.current).verify(got.body, got.headers as Record<string, string>)).toEqual({
      type: 'ping',
      timestamp: expect.any(String) as string,
      data: { id: endpoint.id, tenantId: admin.tenantId },
    });
    // A ping's 410 does not disable; a disabled endpoint can still be tested.
    expect(await getEndpoint(admin.tenantId, endpoint.id)).toMatchObject({ enabled: true, failingSince: null });
    await call('PATCH', `/webhook-endpoints/${endpoint.id}`, { cookies: admin.cookies, body: { enabled: false } });
    const again = await call<WebhookDelivery>('POST', `/webhook-endpoints/${endpoint.id}/test`, { cookies: admin.cookies });
    expect(again.body).toMatchObject({ eventType: 'ping', status: 'succeeded', attempts: [{ statusCode: 200 }] });
    const log = await call<WebhookDelivery[]>('GET', `/webhook-endpoints/${endpoint.id}/deliveries?eventType=ping`, { cookies: admin.cookies });
    expect(log.body.map((one) => one.status)).toEqual(['succeeded', 'failed']);

    const other = await newTenantWithAdmin();
    expect((await call('POST', `/webhook-endpoints/${endpoint.id}/test`, { cookies: other.cookies })).status).toBe(404);
    expect((await call('POST', `/webhook-endpoints/${randomUUID()}/test`, { cookies: admin.cookies })).status).toBe(404);
    expect(hook.received).toHaveLength(2);
  });

  it('a retry sends a delivery again now with the same webhook-id, replays a succeeded one, and is refused for another tenant, a bad id or a disabled endpoint', async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint } = await register(admin, ['warehouse.created'], hook.url);
    hook.answer(500);
    await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Leste' } });
    await hook.until(1, DELIVERY_WAIT_MS);
    const [pending] = await deliveriesOf(admin, endpoint.id, (all) => all[0]?.attempts.length === 1);
    const path = `/webhook-deliveries/${pending?.id ?? ''}/retry`;

    const retried = await call<WebhookDelivery>('POST', path, { cookies: admin.cookies });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: pending?.id, status: 'succeeded', nextAttemptAt: null });
    expect(retried.body.attempts.map((one) => one.statusCode)).toEqual([500, 200]);
    const replayed = await call<WebhookDelivery>('POST', path, { cookies: admin.cookies });
    expect(replayed.body.attempts.map((one) => one.statusCode)).toEqual([500, 200, 200]);
    const sent = hook.received;
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((one) => one.headers['webhook-id'])).size).toBe(1);

    const other = await newTenantWithAdmin();
    expect((await call('POST', path, { cookies: other.cookies })).status).toBe(404);
    const bad = await call<{ errors: unknown }>('POST', '/webhook-deliveries/not-a-delivery/retry', { cookies: admin.cookies });
    expect(bad.status).toBe(400);
    await call('PATCH', `/webhook-endpoints/${endpoint.id}`, { cookies: admin.cookies, body: { enabled: false } });
    const disabled = await call<{ detail: string }>('POST', path, { cookies: admin.cookies });
    expect(disabled.status).toBe(409);
    expect(disabled.body.detail).toBe('The endpoint is disabled: enable it first, or send it a test event');
    expect(hook.received).toHaveLength(3);
  });

  it('20 retries of one delivery at once: one attempt at a time reaches the receiver, and each answered 200 is one recorded attempt, the others 409', async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint } = await register(admin, ['warehouse.created'], hook.url);
    hook.answer(500);
    await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Centro-Oeste' } });
    await hook.until(1, DELIVERY_WAIT_MS);
    const [pending] = await deliveriesOf(admin, endpoint.id, (all) => all[0]?.attempts.length === 1);
    hook.slow(500);

    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call<{ detail?: string }>('POST', `/webhook-deliveries/${pending?.id ?? ''}/retry`, { cookies: admin.cookies })),
    );
    const sent = answers.filter((one) => one.status === 200);
    const refused = answers.filter((one) => one.status === 409);
    expect(sent.length + refused.length).toBe(20);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const one of refused) expect(one.body.detail).toBe('Another attempt of this delivery is under way; read its log and try again');
    expect(hook.mostAtOnce()).toBe(1);
    expect(hook.received).toHaveLength(1 + sent.length);
    const [stored] = await listDeliveries(admin.tenantId, endpoint.id, 1);
    expect(stored?.attempts.map((one) => one.statusCode)).toEqual([500, ...sent.map(() => 200)]);
  });

  it("a retry answered 410 disables the endpoint and tells the tenant's administrators by e-mail", async () => {
    const admin = await newTenantWithAdmin();
    const hook = await newReceiver();
    const { endpoint } = await register(admin, ['warehouse.created'], hook.url);
    hook.answer(500);
    await call('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name: 'Sul' } });
    await hook.until(1, DELIVERY_WAIT_MS);
    const [pending] = await deliveriesOf(admin, endpoint.id, (all) => all[0]?.attempts.length === 1);
    hook.answer(410);
    const gone = await call<WebhookDelivery>('POST', `/webhook-deliveries/${pending?.id ?? ''}/retry`, { cookies: admin.cookies });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ status: 'failed', nextAttemptAt: null, attempts: [{ statusCode: 500 }, { statusCode: 410 }] });
    expect(await getEndpoint(admin.tenantId, endpoint.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    const mails = outboxFor(admin.email).filter((mail) => mail.subject === 'A webhook endpoint was disabled');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(hook.url);
    expect(mails[0]?.text).toContain('410 Gone');
  });
});
