import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CLAIM_MS, deliver, dispatch, nextRetryDelay, ping, retryAfterSeconds, retryNow, runDue } from '../../lib/webhooks/delivery';
import { RETRY_SCHEDULE_SECONDS, type WebhookDelivery } from '../../lib/webhooks/model';
import { createPinnedFetch } from '../../lib/webhooks/pinned-fetch';
import { vetTarget, type Resolver } from '../../lib/webhooks/ssrf';
import { event, START, TENANT, world } from '../support/webhook-world';

/**
 * Delivery outcomes (lib/webhooks/delivery) with a fake network, clock and store: what each
 * answer leads to, what is recorded, when the next attempt is due.
 */

let w: ReturnType<typeof world>;
beforeEach(() => {
  w = world();
});

describe('deliver', () => {
  it('a 2xx succeeds: one signed POST of the thin event, the attempt recorded with its status, latency and answer', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => {
      w.advance(120);
      return new Response('thanks', { status: 200 });
    });
    const sent = event();
    const delivery = await deliver(sent, target, secrets, w.deps);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.nextAttemptAt).toBeNull();
    expect(delivery.attempts).toEqual([{ at: new Date(START).toISOString(), statusCode: 200, latencyMs: 120, response: 'thanks' }]);
    expect(w.stored(delivery.id)).toEqual(delivery);
    expect(w.checked).toEqual([target.url]);
    const [request] = w.sent;
    expect(request?.headers['webhook-id']).toBe(sent.id);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body ?? '')).toEqual({ type: sent.type, timestamp: sent.timestamp, data: sent.data });
    // The attempt's own time, in seconds (the next test verifies a signature made at real time: the package's verifier checks the timestamp against the real clock).
    expect(request?.headers['webhook-timestamp']).toBe(String(START / 1000));
  });

  it('the signature verifies with the endpoint secret', async () => {
    const real = world();
    real.deps.now = () => Date.now();
    const { endpoint: target, secrets } = real.register();
    await deliver(event(), target, secrets, real.deps);
    const [request] = real.sent;
    expect(() => new Webhook(secrets.current).verify(request?.body ?? '', request?.headers ?? {})).not.toThrow();
  });

  it('keeps only the first 1 KB of the answer', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('x'.repeat(5000), { status: 200 }));
    const delivery = await deliver(event(), target, secrets, w.deps);
    expect(delivery.attempts[0]?.response).toHaveLength(1024);
  });

  it('a 410 disables the endpoint at once (gone) and the delivery has failed, with no retry', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('gone', { status: 410 }));
    const delivery = await deliver(event(), target, secrets, w.deps);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(w.endpoints.get(target.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
  });

  it('a 500 is tried again after the schedule first step (5 s)', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('boom', { status: 500 }));
    const delivery = await deliver(event(), target, secrets, w.deps);
    expect(delivery).toMatchObject({ status: 'pending', nextAttemptAt: new Date(START + 5_000).toISOString() });
    expect(delivery.attempts[0]).toMatchObject({ statusCode: 500, response: 'boom' });
  });

  it('no answer (timeout, refused connection) is recorded without a status code and tried again', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    const timedOut = await deliver(event(), target, secrets, w.deps);
    expect(timedOut.attempts[0]).toMatchObject({ statusCode: null, response: 'No answer within 10000 ms' });
    expect(timedOut.status).toBe('pending');
    w.answer(() => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })));
    const refused = await deliver(event(), target, secrets, w.deps);
    expect(refused.attempts[0]).toMatchObject({ statusCode: null, response: 'Connection failed: ECONNREFUSED' });
  });

  it('a target the guard refuses is not sent to, recorded as such and tried again later', async () => {
    const { endpoint: target, secrets } = w.register();
    w.refuse('resolves to a private address');
    const delivery = await deliver(event(), target, secrets, w.deps);
    expect(w.sent).toHaveLength(0);
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, response: 'Not sent: resolves to a private address' });
    expect(delivery.status).toBe('pending');
  });
});

describe('DNS rebinding', () => {
  it('the POST goes to the address the guard checked: a second DNS answer (the metadata service) is never asked for', async () => {
    const received: { headers: IncomingHttpHeaders; body: string; localAddress: string | undefined }[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString(), localAddress: request.socket.localAddress });
        response.writeHead(200).end('y'.repeat(5000));
      });
    });
    await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', () => resolveListen()));
    try {
      const port = (server.address() as AddressInfo).port;
      // Loopback to the check (allowed, as in npm start), 169.254.169.254 to any later question.
      const asked: string[] = [];
      const hostile: Resolver = (hostname) => {
        asked.push(hostname);
        return Promise.resolve([{ address: asked.length === 1 ? '127.0.0.1' : '169.254.169.254', family: 4 }]);
      };
      w.deps.checkTarget = (url) => vetTarget(url, { allowLoopback: true, resolve: hostile });
      w.deps.fetch = createPinnedFetch();
      // The real clock: the receiver's verifier checks the signature's timestamp against it.
      w.deps.now = () => Date.now();
      // A .test name no resolver answers: the connection reaches the receiver only through the vetted address.
      const { endpoint: target, secrets } = w.register({ url: `http://hooks.rebind.test:${port}/in` });
      const sent = event();
      const delivery = await deliver(sent, target, secrets, w.deps);
      expect(delivery.status).toBe('succeeded');
      expect(delivery.attempts[0]).toMatchObject({ statusCode: 200 });
      expect(delivery.attempts[0]?.response).toHaveLength(1024);
      expect(asked).toEqual(['hooks.rebind.test']);
      expect(received).toHaveLength(1);
      expect(received[0]?.localAddress).toBe('127.0.0.1');
      expect(received[0]?.headers.host).toBe(`hooks.rebind.test:${port}`);
      expect(received[0]?.headers['webhook-id']).toBe(sent.id);
      expect(() => new Webhook(secrets.current).verify(received[0]?.body ?? '', received[0]?.headers as Record<string, string>)).not.toThrow();
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    }
  });
});

describe('retries', () => {
  it('follow the schedule, check the target before each attempt, and fail after the last step', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(...Array.from({ length: 20 }, () => () => new Response('no', { status: 503 })));
    const first = await deliver(event(), target, secrets, w.deps);
    let delivery = first;
    for (const step of RETRY_SCHEDULE_SECONDS) {
      expect(Date.parse(delivery.nextAttemptAt ?? '') - w.now()).toBe(step * 1000);
      // Not yet due a millisecond before.
      w.advance(step * 1000 - 1);
      expect(await runDue(w.deps)).toEqual([]);
      w.advance(1);
      const [next] = await runDue(w.deps);
      delivery = next as WebhookDelivery;
    }
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    expect(delivery.attempts).toHaveLength(RETRY_SCHEDULE_SECONDS.length + 1);
    expect(w.checked).toHaveLength(RETRY_SCHEDULE_SECONDS.length + 1);
    // The same webhook-id on every attempt, a fresh timestamp on each.
    expect(new Set(w.sent.map((one) => one.headers['webhook-id'])).size).toBe(1);
    expect(new Set(w.sent.map((one) => one.headers['webhook-timestamp'])).size).toBe(w.sent.length);
    w.advance(365 * 24 * 3600 * 1000);
    expect(await runDue(w.deps)).toEqual([]);
    // The last step failed more than 3 days after the first failure: the endpoint is disabled, once.
    expect(w.disabled).toEqual([{ id: target.id, reason: 'failing' }]);
  });

  it("an endpoint's failing time starts with its first failure, is cleared by a success, and only 3 days of failures disable it", async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('', { status: 500 }));
    await deliver(event(), target, secrets, w.deps);
    expect(w.endpoints.get(target.id)?.failingSince).toBe(new Date(START).toISOString());
    // Another failure 2 days later: still failing since the first, still enabled.
    w.advance(2 * 24 * 3600 * 1000);
    w.answer(() => new Response('', { status: 500 }));
    await deliver(event(), { ...target, failingSince: new Date(START).toISOString() }, secrets, w.deps);
    expect(w.endpoints.get(target.id)).toMatchObject({ enabled: true, failingSince: new Date(START).toISOString() });
    // A success clears it; a failure 3 days after the first one then starts over instead of disabling.
    const healthy = await deliver(event(), { ...target, failingSince: new Date(START).toISOString() }, secrets, w.deps);
    expect(healthy.status).toBe('succeeded');
    expect(w.endpoints.get(target.id)?.failingSince).toBeNull();
    w.advance(24 * 3600 * 1000);
    w.answer(() => new Response('', { status: 500 }));
    await deliver(event(), { ...target, failingSince: null }, secrets, w.deps);
    expect(w.endpoints.get(target.id)).toMatchObject({ enabled: true, failingSince: new Date(w.now()).toISOString() });
    expect(w.disabled).toEqual([]);
  });

  it('a success on a retry ends the delivery', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(
      () => new Response('', { status: 502 }),
      () => new Response('ok', { status: 202 }),
    );
    const first = await deliver(event(), target, secrets, w.deps);
    w.advance(5_000);
    const [second] = await runDue(w.deps);
    expect(second).toMatchObject({ id: first.id, status: 'succeeded', nextAttemptAt: null });
    expect(second?.attempts.map((one) => one.statusCode)).toEqual([502, 202]);
  });

  it('honour Retry-After: never sooner than it says, never later than the last step', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('', { status: 429, headers: { 'retry-after': '120' } }));
    const later = await deliver(event(), target, secrets, w.deps);
    expect(Date.parse(later.nextAttemptAt ?? '') - START).toBe(120_000);
    w.answer(() => new Response('', { status: 503, headers: { 'retry-after': '1' } }));
    const scheduleWins = await deliver(event(), target, secrets, w.deps);
    expect(Date.parse(scheduleWins.nextAttemptAt ?? '') - START).toBe(5_000);
    w.answer(() => new Response('', { status: 503, headers: { 'retry-after': String(30 * 24 * 3600) } }));
    const capped = await deliver(event(), target, secrets, w.deps);
    expect(Date.parse(capped.nextAttemptAt ?? '') - START).toBe(86_400_000);
    w.answer(() => new Response('', { status: 503, headers: { 'retry-after': new Date(START + 600_000).toUTCString() } }));
    const dated = await deliver(event(), target, secrets, w.deps);
    expect(Date.parse(dated.nextAttemptAt ?? '') - START).toBe(600_000);
  });

  it('a delivery whose endpoint was disabled since is closed as failed without an attempt', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('', { status: 500 }));
    const first = await deliver(event(), target, secrets, w.deps);
    await w.deps.endpoints.disableEndpoint(TENANT, target.id, 'manual');
    w.advance(5_000);
    const [closed] = await runDue(w.deps);
    expect(closed).toMatchObject({ id: first.id, status: 'failed', nextAttemptAt: null });
    expect(closed?.attempts).toHaveLength(1);
    expect(w.sent).toHaveLength(1);
  });

  it('a delivery whose first attempt never finished (its process died) is retried once its claim has passed, and once only', async () => {
    const { endpoint: target, secrets } = w.register();
    // The first attempt's answer never comes: its claim stays.
    w.answer(() => new Promise<Response>(() => undefined));
    void deliver(event(), target, secrets, w.deps);
    await Promise.resolve();
    w.answer();
    expect(await runDue(w.deps)).toEqual([]);
    w.advance(CLAIM_MS);
    const [both, again] = await Promise.all([runDue(w.deps), runDue(w.deps)]);
    expect([...(both ?? []), ...(again ?? [])]).toHaveLength(1);
    expect(both?.[0] ?? again?.[0]).toMatchObject({ status: 'succeeded' });
  });
});

describe('one delivery per event and endpoint', () => {
  it('the same event handled twice (a stream record or a message read again) makes one delivery and one POST', async () => {
    const { endpoint: target, secrets } = w.register();
    const once = event();
    const [first, second] = await Promise.all([deliver(once, target, secrets, w.deps), deliver(once, target, secrets, w.deps)]);
    expect(w.items.size).toBe(1);
    expect(w.sent).toHaveLength(1);
    expect(second?.id).toBe(first?.id);
    const [succeeded] = [first, second].filter((one) => one?.status === 'succeeded');
    expect(succeeded?.attempts).toHaveLength(1);
  });

  it('a delivery stored by a process that died before its attempt is attempted when its event is handled again after the claim', async () => {
    const { endpoint: target, secrets } = w.register();
    const once = event();
    w.answer(() => new Promise<Response>(() => undefined));
    void deliver(once, target, secrets, w.deps);
    await Promise.resolve();
    w.answer();
    // Handled again within the claim: left alone, not sent twice.
    expect((await deliver(once, target, secrets, w.deps)).attempts).toEqual([]);
    w.advance(CLAIM_MS);
    expect(await deliver(once, target, secrets, w.deps)).toMatchObject({ status: 'succeeded', attempts: [{ statusCode: 200 }] });
    expect(w.items.size).toBe(1);
  });
});

describe("an administrator's retry and ping", () => {
  it('retryNow sends a finished delivery once more; a failure leaves it failed, with no schedule', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('', { status: 200 }));
    const done = await deliver(event(), target, secrets, w.deps);
    w.answer(() => new Response('', { status: 500 }));
    const again = await retryNow(done, target, secrets, w.deps);
    expect(again).toMatchObject({ id: done.id, status: 'failed', nextAttemptAt: null });
    expect(again?.attempts.map((one) => one.statusCode)).toEqual([200, 500]);
    // Read before that retry: the state moved on, so a second retry from it is refused.
    expect(await retryNow(done, target, secrets, w.deps)).toBeUndefined();
    expect(w.sent).toHaveLength(2);
  });

  it('retryNow of a pending delivery keeps its schedule after a failure', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(
      () => new Response('', { status: 500 }),
      () => new Response('', { status: 503 }),
    );
    const pending = await deliver(event(), target, secrets, w.deps);
    const again = await retryNow(pending, target, secrets, w.deps);
    expect(again).toMatchObject({ status: 'pending' });
    expect(Date.parse(again?.nextAttemptAt ?? '') - w.now()).toBe(RETRY_SCHEDULE_SECONDS[1] * 1000);
  });

  it('retryNow is refused while an attempt holds the delivery, and allowed once that lease ended (its process died)', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('', { status: 500 }));
    const pending = await deliver(event(), target, secrets, w.deps);
    let answerFirst: (response: Response) => void = () => undefined;
    w.answer(() => new Promise<Response>((resolve) => (answerFirst = resolve)));
    const first = retryNow(pending, target, secrets, w.deps);
    await vi.waitFor(() => expect(w.sent).toHaveLength(2));
    // Read while the first retry is sending: its lease is the item's, so this one sends nothing.
    const during = (await w.deps.deliveries.getDelivery(pending))?.delivery as typeof pending;
    expect(await retryNow(during, target, secrets, w.deps)).toBeUndefined();
    expect(w.sent).toHaveLength(2);
    answerFirst(new Response('', { status: 200 }));
    expect(await first).toMatchObject({ status: 'succeeded', attempts: [{ statusCode: 500 }, { statusCode: 200 }] });

    // A lease whose attempt never recorded (the process died) no longer holds once it ends.
    w.answer(() => new Promise<Response>(() => undefined));
    const stuck = (await w.deps.deliveries.getDelivery(pending))?.delivery as typeof pending;
    void retryNow(stuck, target, secrets, w.deps);
    await vi.waitFor(() => expect(w.sent).toHaveLength(3));
    const held = (await w.deps.deliveries.getDelivery(pending))?.delivery as typeof pending;
    expect(await retryNow(held, target, secrets, w.deps)).toBeUndefined();
    w.advance(CLAIM_MS + 1);
    expect(await retryNow(held, target, secrets, w.deps)).toMatchObject({
      status: 'succeeded',
      attempts: [{ statusCode: 500 }, { statusCode: 200 }, { statusCode: 200 }],
    });
  });

  it('a ping is one attempt: no retry after a failure, and a 410 does not disable the endpoint', async () => {
    const { endpoint: target, secrets } = w.register();
    w.answer(() => new Response('', { status: 410 }));
    const sent = await ping(
      { id: randomUUID(), type: 'ping', timestamp: new Date(w.now()).toISOString(), data: { id: target.id, tenantId: TENANT } },
      target,
      secrets,
      w.deps,
    );
    expect(sent).toMatchObject({ eventType: 'ping', status: 'failed', nextAttemptAt: null, attempts: [{ statusCode: 410 }] });
    expect(w.endpoints.get(target.id)).toMatchObject({ enabled: true, failingSince: null });
    expect(JSON.parse(w.sent[0]?.body ?? '')).toEqual({ type: 'ping', timestamp: new Date(START).toISOString(), data: { id: target.id, tenantId: TENANT } });
  });
});

describe('dispatch', () => {
  it('delivers to each enabled endpoint of the tenant subscribed to the type, and to no other', async () => {
    const subscribed = w.register();
    const alsoSubscribed = w.register({ events: ['company.created', 'stock_movement.created'] });
    w.register({ events: ['company.created'] });
    w.register({ enabled: false, disabledReason: 'manual' });
    w.register({ tenantId: randomUUID() });
    const deliveries = await dispatch(event(), w.deps);
    expect(deliveries.map((one) => one.endpointId).sort()).toEqual([subscribed.endpoint.id, alsoSubscribed.endpoint.id].sort());
    expect(deliveries.every((one) => one.status === 'succeeded')).toBe(true);
    expect(w.sent).toHaveLength(2);
  });
});

describe('retry delays', () => {
  it('Retry-After in seconds or as a date; unreadable ones are ignored', () => {
    expect(retryAfterSeconds('30', START)).toBe(30);
    expect(retryAfterSeconds(new Date(START + 90_000).toUTCString(), START)).toBe(90);
    expect(retryAfterSeconds(new Date(START - 90_000).toUTCString(), START)).toBe(0);
    expect(retryAfterSeconds('soon', START)).toBeUndefined();
    expect(retryAfterSeconds(null, START)).toBeUndefined();
  });

  it('after the schedule last step, none', () => {
    expect(nextRetryDelay(1, undefined)).toBe(5);
    expect(nextRetryDelay(RETRY_SCHEDULE_SECONDS.length, undefined)).toBe(86_400);
    expect(nextRetryDelay(RETRY_SCHEDULE_SECONDS.length + 1, undefined)).toBeUndefined();
  });
});
