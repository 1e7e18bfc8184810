import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { storeDeliveryDeps } from '../../lib/webhooks/deps';
import { createPinnedFetch, pinnedLookup, type PinnedInit } from '../../lib/webhooks/pinned-fetch';
import { vetTarget, type Resolver, type VettedTarget } from '../../lib/webhooks/ssrf';

/**
 * The pinned POST of webhook deliveries (lib/webhooks/pinned-fetch) against receivers on this
 * host's loopback: it connects to the address the guard vetted and asks DNS nothing more (the
 * host names below end in .test, which no resolver answers, so a connection that resolved the
 * name again would fail), names the host in Host and SNI, verifies the certificate for the name,
 * answers like fetch (a body stream, 3xx not followed, aborts with the signal's reason).
 */

/** A self-signed certificate (its own CA) for hooks.rebind.test, valid 2020 to 2120: test material only. */
const CERTIFICATE = `-----BEGIN CERTIFICATE-----
MIIBbTCCAROgAwIBAgIUQw+6v0mgf/ItlY8ezquUdwZ+CEMwCgYIKoZIzj0EAwIw
HDEaMBgGA1UEAwwRaG9va3MucmViaW5kLnRlc3QwIBcNMjAwMTAxMDAwMDAwWhgP
MjEyMDAxMDEwMDAwMDBaMBwxGjAYBgNVBAMMEWhvb2tzLnJlYmluZC50ZXN0MFkw
EwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEv4879AE/nw+qcRhZsxZaovNJ3Cbg7muk
3e/FLg8hwLxQUknKu1zNG8YEhx4sIZXO3L9hRN8A2s9RMaT25/oXaaMxMC8wHAYD
VR0RBBUwE4IRaG9va3MucmViaW5kLnRlc3QwDwYDVR0TAQH/BAUwAwEB/zAKBggq
hkjOPQQDAgNIADBFAiEAgslm/GmVyrk0RBVfjM5OyCMU9T5JTh1FOrvkGX46u/cC
IDX3POuPh/2bX7CQl+L8KsECCjYZepRc6P+g4GvB0W9r
-----END CERTIFICATE-----
`;
const PRIVATE_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgINytW5rEW3DuyqNV
uZQIJg0rGM7wmIcXqwG/1Hxy1IShRANCAAS/jzv0AT+fD6pxGFmzFlqi80ncJuDu
a6Td78UuDyHAvFBSScq7XM0bxgSHHiwhlc7cv2FE3wDaz1ExpPbn+hdp
-----END PRIVATE KEY-----
`;

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
  /** The address the connection reached. */
  localAddress: string | undefined;
  /** The TLS server name the client sent (https only). */
  servername: string | false | null | undefined;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolveClose) => {
          server.closeAllConnections();
          server.close(() => resolveClose());
        }),
    ),
  );
});

/** A receiver on `host` that keeps what it got and answers with `handle` (200 "ok" by default). */
async function receiver(options: { host?: string; tls?: boolean; handle?: Handler } = {}) {
  const received: Received[] = [];
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        localAddress: request.socket.localAddress,
        servername: (request.socket as TLSSocket).servername,
      });
      if (options.handle) options.handle(request, response);
      else response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  };
  const server: Server = options.tls ? createTlsServer({ cert: CERTIFICATE, key: PRIVATE_KEY }, listener) : createServer(listener);
  servers.push(server);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolveListen) => server.listen(0, host, () => resolveListen()));
  return { received, port: (server.address() as AddressInfo).port };
}

/** A resolver that answers `answers` in turn (the last again once they run out) and counts the questions. */
function rebinding(...answers: string[][]) {
  const asked: string[] = [];
  const resolve: Resolver = (hostname) => {
    const answer = answers[Math.min(asked.length, answers.length - 1)] ?? [];
    asked.push(hostname);
    return Promise.resolve(answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { asked, resolve };
}

const init = (overrides: Partial<PinnedInit> = {}): PinnedInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
  body: '{"type":"ping"}',
  redirect: 'manual',
  signal: AbortSignal.timeout(5000),
  ...overrides,
});

const pinned = (hostname: string, ...addresses: string[]): VettedTarget => ({
  href: `http://${hostname}/`,
  hostname,
  addresses: addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
});

/** What a call rejected with. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('it resolved'),
    (error: unknown) => error as Error & { cause?: { code?: string } },
  );

describe('the pinned fetch', () => {
  it('POSTs to the vetted address, naming the URL host in Host, with the body and headers given', async () => {
    const { received, port } = await receiver();
    const response = await createPinnedFetch()(`http://hooks.rebind.test:${port}/in?tenant=1`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain');
    expect(await response.text()).toBe('ok');
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', url: '/in?tenant=1', body: '{"type":"ping"}', localAddress: '127.0.0.1' });
    expect(request?.headers).toMatchObject({
      host: `hooks.rebind.test:${port}`,
      'content-type': 'application/json',
      'webhook-id': 'msg_1',
      'content-length': '15',
    });
    // A Host given by the caller does not override the URL's.
    await createPinnedFetch()(
      `http://hooks.rebind.test:${port}/in`,
      init({ headers: { Host: 'metadata.internal' }, target: pinned('hooks.rebind.test', '127.0.0.1') }),
    );
    expect(received[1]?.headers.host).toBe(`hooks.rebind.test:${port}`);
  });

  it('cannot be sent elsewhere by a second DNS answer: the name is resolved once, by the guard, and the connection goes to that answer', async () => {
    const { received, port } = await receiver();
    // A hostile DNS server: loopback (allowed here, as in npm start) to the check, the metadata service afterwards.
    const dns = rebinding(['127.0.0.1'], ['169.254.169.254']);
    const vet = (url: string) => vetTarget(url, { allowLoopback: true, resolve: dns.resolve });
    const url = `http://hooks.rebind.test:${port}/in`;
    const target = await vet(url);
    expect(target).toEqual({ href: url, hostname: 'hooks.rebind.test', addresses: [{ address: '127.0.0.1', family: 4 }] });
    const response = await createPinnedFetch({ vet })(url, init({ target }));
    expect(response.status).toBe(200);
    expect(dns.asked).toEqual(['hooks.rebind.test']);
    expect(received.map((one) => one.localAddress)).toEqual(['127.0.0.1']);
    // Given no target, it vets the URL itself first: still one question, still the answer checked.
    const again = rebinding(['127.0.0.1'], ['169.254.169.254']);
    const alone = await createPinnedFetch({ vet: (one) => vetTarget(one, { allowLoopback: true, resolve: again.resolve }) })(url, init());
    expect(alone.status).toBe(200);
    expect(again.asked).toEqual(['hooks.rebind.test']);
    expect(received).toHaveLength(2);
  });

  it('its lookup answers only the vetted addresses of the vetted host, whatever DNS would say now', async () => {
    const dns = rebinding(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'], ['169.254.169.254']);
    const target = await vetTarget('https://hooks.example.com/in', { allowLoopback: false, resolve: dns.resolve });
    const lookup = pinnedLookup(target);
    const ask = (hostname: string, options: { all?: boolean; family?: number }) =>
      new Promise<unknown>((resolveAsk) => {
        lookup(hostname, options, (error, address, family) => resolveAsk(error ? { error: (error as { code?: string }).code } : { address, family }));
      });
    expect(await ask('hooks.example.com', { all: true })).toEqual({
      address: [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    });
    expect(await ask('hooks.example.com', {})).toEqual({ address: '93.184.215.14', family: 4 });
    expect(await ask('hooks.example.com', { family: 6 })).toEqual({ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 });
    expect(await ask('metadata.example.com', {})).toEqual({ error: 'ENOTFOUND' });
    expect(dns.asked).toEqual(['hooks.example.com']);
  });

  it('is what deliveries use as deployed and in npm start (storeDeliveryDeps): the guard answers the target, the fetch connects to it', async () => {
    const deps = storeDeliveryDeps();
    await expect(deps.checkTarget('https://93.184.215.14/in')).resolves.toEqual({
      href: 'https://93.184.215.14/in',
      hostname: '93.184.215.14',
      addresses: [{ address: '93.184.215.14', family: 4 }],
    });
    const { received, port } = await receiver();
    // The global fetch would resolve this .test name, and fail.
    const response = await deps.fetch(`http://hooks.rebind.test:${port}/in`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') }));
    expect(response.status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it('refuses a target vetted for another host', async () => {
    const error = await rejection(createPinnedFetch()('http://hooks.rebind.test:1/in', init({ target: pinned('elsewhere.rebind.test', '127.0.0.1') })));
    expect(error.message).toBe('the target was vetted for elsewhere.rebind.test, not hooks.rebind.test');
  });

  it('over https: SNI is the host name, and the certificate is verified for the name, not the pinned address', async () => {
    const { received, port } = await receiver({ tls: true });
    const fetchTls = createPinnedFetch({ ca: CERTIFICATE });
    const response = await fetchTls(`https://hooks.rebind.test:${port}/in`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') }));
    expect(response.status).toBe(200);
    expect(received[0]).toMatchObject({ servername: 'hooks.rebind.test', localAddress: '127.0.0.1' });
    expect(received[0]?.headers.host).toBe(`hooks.rebind.test:${port}`);
    // The same server under a name its certificate does not hold: refused, as fetch refuses it.
    const wrongName = await rejection(fetchTls(`https://other.rebind.test:${port}/in`, init({ target: pinned('other.rebind.test', '127.0.0.1') })));
    expect(wrongName).toBeInstanceOf(TypeError);
    expect(wrongName.cause?.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    // And a certificate no trusted CA signed: Node's roots only.
    const untrusted = await rejection(createPinnedFetch()(`https://hooks.rebind.test:${port}/in`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') })));
    expect(untrusted.cause?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(received).toHaveLength(1);
  });

  it('answers a 3xx as it came, without following it', async () => {
    const elsewhere = await receiver();
    const { received, port } = await receiver({
      handle: (_request, response) => response.writeHead(302, { location: `http://127.0.0.1:${elsewhere.port}/metadata` }).end('moved'),
    });
    const response = await createPinnedFetch()(`http://hooks.rebind.test:${port}/in`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') }));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`http://127.0.0.1:${elsewhere.port}/metadata`);
    expect(await response.text()).toBe('moved');
    expect(received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });

  it('takes an IPv6 literal without any DNS question, the Host bracketed', async () => {
    const { received, port } = await receiver({ host: '::1' });
    const dns = rebinding(['169.254.169.254']);
    const url = `http://[::1]:${port}/in`;
    const target = await vetTarget(url, { allowLoopback: true, resolve: dns.resolve });
    expect(target.addresses).toEqual([{ address: '::1', family: 6 }]);
    const response = await createPinnedFetch()(url, init({ target }));
    expect(response.status).toBe(200);
    expect(dns.asked).toEqual([]);
    expect(received[0]).toMatchObject({ localAddress: '::1' });
    expect(received[0]?.headers.host).toBe(`[::1]:${port}`);
  });

  it('streams the body, so a reader can stop after the first bytes; a 204 has none', async () => {
    const { port } = await receiver({ handle: (_request, response) => response.writeHead(200).end('x'.repeat(100_000)) });
    const response = await createPinnedFetch()(`http://hooks.rebind.test:${port}/in`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') }));
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(first?.done).toBe(false);
    expect(first?.value?.byteLength).toBeGreaterThan(0);
    await reader?.cancel();
    const empty = await receiver({ handle: (_request, answer) => answer.writeHead(204, { 'retry-after': '30' }).end() });
    const none = await createPinnedFetch()(`http://hooks.rebind.test:${empty.port}/in`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') }));
    expect(none.status).toBe(204);
    expect(none.body).toBeNull();
    expect(none.headers.get('retry-after')).toBe('30');
  });

  it('gives up with the signal: a TimeoutError from AbortSignal.timeout, before the answer or during its body', async () => {
    const silent = await receiver({ handle: () => undefined });
    const url = `http://hooks.rebind.test:${silent.port}/in`;
    const target = pinned('hooks.rebind.test', '127.0.0.1');
    const timedOut = await rejection(createPinnedFetch()(url, init({ target, signal: AbortSignal.timeout(50) })));
    expect(timedOut.name).toBe('TimeoutError');
    const halfway = await receiver({ handle: (_request, response) => response.writeHead(200).write('partial') });
    const response = await createPinnedFetch()(`http://hooks.rebind.test:${halfway.port}/in`, init({ target, signal: AbortSignal.timeout(100) }));
    expect(response.status).toBe(200);
    const readAll = await rejection(response.text());
    expect(readAll.name).toBe('TimeoutError');
    const controller = new AbortController();
    const pending = createPinnedFetch()(url, init({ target, signal: controller.signal }));
    controller.abort();
    expect((await rejection(pending)).name).toBe('AbortError');
    expect((await rejection(createPinnedFetch()(url, init({ target, signal: AbortSignal.abort() })))).name).toBe('AbortError');
  });

  it('a refused connection fails as fetch fails: TypeError, its code in cause', async () => {
    const { port } = await receiver();
    await new Promise<void>((resolveClose) => {
      const server = servers.pop() as Server;
      server.close(() => resolveClose());
    });
    const error = await rejection(createPinnedFetch()(`http://hooks.rebind.test:${port}/in`, init({ target: pinned('hooks.rebind.test', '127.0.0.1') })));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('fetch failed');
    expect(error.cause?.code).toBe('ECONNREFUSED');
  });
});
