import { connect } from 'node:net';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGateway,
  createGatewayServer,
  MAX_HEAD_BYTES,
  MAX_URL_LENGTH,
  NODE_MAX_HEADER_SIZE,
  type AuthorizerHandler,
  type ProxyHandler,
} from '../../local/gateway';
import type { Route } from '../../lib/routes';
import { allowedOrigin, apiUrl, newTenantWithAdmin, problem, randomLoopback, uniqueEmail, type Account } from './api';

/**
 * The emulator answers whatever a client sends as API Gateway would: oversized requests (414,
 * 431), malformed percent-encodings (400), client-chosen names that are also JavaScript's
 * (`constructor`, `__proto__`), bodies that are not UTF-8. Raw requests go through `net`, since
 * fetch and node:http normalize or refuse some of them.
 */

interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** One complete HTTP/1.1 response from the start of `data`, or undefined while incomplete. */
function parseResponse(data: Buffer): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  let rest = data.subarray(end + 4);
  let content: Buffer;
  if (headers.get('transfer-encoding')?.toLowerCase() === 'chunked') {
    const parts: Buffer[] = [];
    for (;;) {
      const lineEnd = rest.indexOf('\r\n');
      if (lineEnd < 0) return undefined;
      const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
      if (rest.length < lineEnd + 2 + size + 2) return undefined;
      if (size === 0) break;
      parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
      rest = rest.subarray(lineEnd + 2 + size + 2);
    }
    content = Buffer.concat(parts);
  } else {
    const length = Number(headers.get('content-length') ?? 0);
    if (rest.length < length) return undefined;
    content = rest.subarray(0, length);
  }
  const text = content.toString('utf8');
  const type = headers.get('content-type') ?? '';
  return { status: Number(statusLine.split(' ')[1]), headers, text, body: text && type.includes('json') ? (JSON.parse(text) as unknown) : undefined };
}

/** Sends bytes as they are to `base` and reads one response (the connection is closed after it). */
function rawHttp(base: string, request: Buffer | string): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  return new Promise((resolveResponse, reject) => {
    const chunks: Buffer[] = [];
    let closed = false;
    let settled = false;
    // From a random loopback address, as every other test's call: per-IP limits are not shared by accident.
    const socket = connect({ port: Number(port), host: hostname, localAddress: randomLoopback() });
    const settle = (error?: Error) => {
      if (settled) return;
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed) {
        settled = true;
        socket.destroy();
        resolveResponse(parsed);
      } else if (error || closed) {
        settled = true;
        socket.destroy();
        reject(error ?? new Error(`incomplete response: ${Buffer.concat(chunks).toString('latin1').slice(0, 300)}`));
      }
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      settle();
    });
    // The server may close while a huge request is still being written: what it answered counts.
    socket.on('error', (error) => settle(error));
    socket.on('close', () => {
      closed = true;
      settle();
    });
    socket.write(request);
  });
}

interface RequestSpec {
  method?: string;
  target: string;
  headers?: [string, string][];
  body?: Buffer | string;
  origin?: string;
}

/** The bytes of one request, with Host, Origin, Content-Length and `Connection: close`. */
function requestBytes({ method = 'GET', target, headers = [], body, origin }: RequestSpec): Buffer {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [
    `${method} ${target} HTTP/1.1`,
    'Host: 127.0.0.1',
    ...(origin ? [`Origin: ${origin}`] : []),
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  if (payload) lines.push(`Content-Length: ${payload.length}`);
  lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload ?? Buffer.alloc(0)]);
}

const send = (base: string, spec: RequestSpec) => rawHttp(base, requestBytes(spec));

/** A problem document with the gateway's headers: problem+json, no-store and CORS for `origin`. */
function expectGatewayProblem(response: RawResponse, status: number, type: string, origin: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('access-control-allow-origin')).toBe(origin);
  expect(response.headers.get('access-control-allow-credentials')).toBe('true');
  expect(response.body).toEqual(problem(status, type));
  expect((response.body as { requestId: string }).requestId).toBe(response.headers.get('x-amzn-requestid'));
}

const ODD_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const ODD_QUERY = ODD_NAMES.map((name, index) => `${name}=${index}`).join('&');
const ODD_HEADERS = ODD_NAMES.map((name, index): [string, string] => [name, `h${index}`]);
const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]);

describe('the API Gateway emulator in process, with recording handlers', () => {
  const ORIGIN = 'https://app.example.com';
  const routes: (Route & { id: string })[] = [
    { id: 'open', method: 'POST', path: '/things/{id}', handler: 'x', auth: 'public', table: { actions: [] }, summary: '' },
    { id: 'guarded', method: 'GET', path: '/guarded/{id}', handler: 'x', auth: 'protected', table: { actions: [] }, summary: '' },
  ];
  let server: Server;
  let base: string;
  let lastEvent: APIGatewayProxyEvent | undefined;
  let lastAuthorizerEvent: APIGatewayRequestAuthorizerEvent | undefined;
  let handlerCalls = 0;
  let reply: () => unknown = () => ({ statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' });

  const handler: ProxyHandler = async (event) => {
    handlerCalls += 1;
    lastEvent = event;
    return reply() as APIGatewayProxyResult;
  };
  const authorizer: AuthorizerHandler = async (event) => {
    lastAuthorizerEvent = event;
    return {
      principalId: 'user-1',
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
      context: { tenantId: 't-1' },
    };
  };

  beforeAll(async () => {
    const gateway = createGateway({ routes, loadHandler: async () => handler, loadAuthorizer: async () => authorizer, allowedOrigins: [ORIGIN] });
    server = createGatewayServer(gateway, { allowedOrigins: [ORIGIN] });
    await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolveClose) => server.close(() => resolveClose())));

  it('passes header, query and path names such as constructor and __proto__ as plain names', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    const response = await send(base, { method: 'POST', target: `/things/constructor?${ODD_QUERY}&constructor=again`, headers: ODD_HEADERS });
    expect(response.status).toBe(200);
    const event = lastEvent as APIGatewayProxyEvent;
    for (const [index, name] of ODD_NAMES.entries()) {
      expect(Object.hasOwn(event.headers, name), name).toBe(true);
      expect(Object.getOwnPropertyDescriptor(event.headers, name)?.value).toBe(`h${index}`);
      expect(Object.getOwnPropertyDescriptor(event.multiValueHeaders, name)?.value).toEqual([`h${index}`]);
      if (name !== 'constructor') expect(Object.getOwnPropertyDescriptor(event.queryStringParameters, name)?.value).toBe(String(index));
    }
    expect(Object.getOwnPropertyDescriptor(event.queryStringParameters, 'constructor')?.value).toBe('again');
    expect(Object.getOwnPropertyDescriptor(event.multiValueQueryStringParameters, 'constructor')?.value).toEqual(['0', 'again']);
    expect(event.pathParameters).toEqual({ id: 'constructor' });
  });

  it('gives the authorizer the same plain names, a __proto__ cookie included', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    const response = await send(base, {
      target: `/guarded/1?${ODD_QUERY}`,
      headers: [...ODD_HEADERS, ['Cookie', '__proto__=x; constructor=y; accessToken=abc']],
    });
    expect(response.status).toBe(200);
    const event = lastAuthorizerEvent as APIGatewayRequestAuthorizerEvent;
    expect(Object.getOwnPropertyDescriptor(event.headers, '__proto__')?.value).toBe('h1');
    expect(Object.getOwnPropertyDescriptor(event.queryStringParameters, 'toString')?.value).toBe('2');
    expect(lastEvent?.requestContext.authorizer).toEqual({ principalId: 'user-1', tenantId: 't-1' });
  });

  it('passes a body that is not UTF-8 base64-encoded, and a UTF-8 body as text', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    await send(base, { method: 'POST', target: '/things/1', headers: [['Content-Type', 'application/json']], body: INVALID_UTF8 });
    expect(lastEvent).toEqual(expect.objectContaining({ body: INVALID_UTF8.toString('base64'), isBase64Encoded: true }));

    const text = '\uFEFF{"name":"São Paulo ✓ 𝄞"}';
    await send(base, { method: 'POST', target: '/things/1', headers: [['Content-Type', 'application/json']], body: text });
    expect(lastEvent).toEqual(expect.objectContaining({ body: text, isBase64Encoded: false }));

    await send(base, { method: 'POST', target: '/things/1' });
    expect(lastEvent).toEqual(expect.objectContaining({ body: null, isBase64Encoded: false }));
  });

  it.each([
    ['a bad escape in a path parameter', 'POST', '/things/%ZZ'],
    ['a truncated escape in a path parameter', 'POST', '/things/%E0%A4%A'],
    ['escapes that are not UTF-8 in a path parameter', 'POST', '/things/%FF'],
    ['a bad escape on no route at all', 'GET', '/nowhere/%ZZ'],
    ['a bad escape in a fixed path', 'POST', '/things%ZZ/1'],
  ])('answers %s with a 400 problem without invoking the function', async (_name, method, target) => {
    handlerCalls = 0;
    const response = await send(base, { method, target });
    expectGatewayProblem(response, 400, 'bad-request', ORIGIN);
    expect(handlerCalls).toBe(0);
  });

  it('decodes well-formed escapes and `+` in the query as before', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    await send(base, { method: 'POST', target: '/things/a%2Fb%20c?q=a+b%26c&empty&=v&&x=%E2%9C%93' });
    expect(lastEvent?.pathParameters).toEqual({ id: 'a/b c' });
    expect({ ...lastEvent?.queryStringParameters }).toEqual({ q: 'a b&c', empty: '', '': 'v', x: '✓' });
  });

  it('passes a malformed escape in the query as typed, and escapes that are not UTF-8 as U+FFFD', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    const response = await send(base, { method: 'POST', target: '/things/1?a=%ZZ&b=100%&%E0%A4%A=1&c=%FF' });
    expect(response.status).toBe(200);
    expect({ ...lastEvent?.queryStringParameters }).toEqual({ a: '%ZZ', b: '100%', '\uFFFD%A': '1', c: '\uFFFD' });
  });

  it('answers a URL over API Gateway’s 10240 characters with 414, and one under it as usual', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    const path = '/things/1?q=';
    expectGatewayProblem(await send(base, { method: 'POST', target: `${path}${'a'.repeat(MAX_URL_LENGTH + 1 - path.length)}` }), 414, 'uri-too-long', ORIGIN);
    expect((await send(base, { method: 'POST', target: `${path}${'a'.repeat(8_000)}` })).status).toBe(200);
  });

  it('answers 414 when the method ARN behind the authorizer is over 1600 bytes', async () => {
    expectGatewayProblem(await send(base, { target: `/guarded/${'a'.repeat(1_600)}`, headers: [['Cookie', 'accessToken=abc']] }), 414, 'uri-too-long', ORIGIN);
    expect((await send(base, { target: `/guarded/${'a'.repeat(1_400)}`, headers: [['Cookie', 'accessToken=abc']] })).status).toBe(200);
  });

  it('answers a request line and headers over 10240 bytes with 431, and under it as usual', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    const over = await send(base, { method: 'POST', target: '/things/1', headers: [['X-Padding', 'p'.repeat(MAX_HEAD_BYTES)]] });
    expectGatewayProblem(over, 431, 'request-header-fields-too-large', ORIGIN);
    // Several headers count together.
    const spread = await send(base, {
      method: 'POST',
      target: '/things/1',
      headers: Array.from({ length: 6 }, (_, index): [string, string] => [`X-Part-${index}`, 'p'.repeat(2_000)]),
    });
    expect(spread.status).toBe(431);
    expect((await send(base, { method: 'POST', target: '/things/1', headers: [['X-Padding', 'p'.repeat(9_000)]] })).status).toBe(200);
  });

  it('answers a head beyond Node’s own limit with a 431 problem written on the socket', async () => {
    const huge = await send(base, { method: 'POST', target: '/things/1', headers: [['X-Padding', 'p'.repeat(NODE_MAX_HEADER_SIZE + 1024)]] });
    expectGatewayProblem(huge, 431, 'request-header-fields-too-large', ORIGIN);
    expect(huge.headers.get('connection')).toBe('close');
    // Beyond Node's limit the parser cannot tell the URL from the headers.
    const longUrl = await send(base, { method: 'POST', target: `/things/1?q=${'a'.repeat(NODE_MAX_HEADER_SIZE + 1024)}` });
    expectGatewayProblem(longUrl, 431, 'request-header-fields-too-large', ORIGIN);
  });

  it('answers what is not HTTP with a 400 problem', async () => {
    const response = await rawHttp(base, 'GET /things/1 HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n');
    expectGatewayProblem(response, 400, 'bad-request', ORIGIN);
    expect(response.headers.get('connection')).toBe('close');
  });

  it('keeps serving after all of these', async () => {
    reply = () => ({ statusCode: 200, body: '' });
    expect((await send(base, { method: 'POST', target: '/things/1' })).status).toBe(200);
  });

  it('answers a function result API Gateway cannot send with 500, leaking none of its headers', async () => {
    for (const bad of [
      { statusCode: 1000, body: '' },
      { statusCode: 200, body: { not: 'a string' } },
      { statusCode: 200, headers: { 'X-Leak': 'yes', 'Bad Name': 'x' }, body: '' },
    ]) {
      reply = () => bad;
      const response = await send(base, { method: 'POST', target: '/things/1' });
      expectGatewayProblem(response, 500, 'internal', ORIGIN);
      expect(response.headers.get('x-leak')).toBeNull();
    }
  });
});

describe('the local API over HTTP', () => {
  let account: Account;
  const cookieHeader = () =>
    Object.entries(account.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  const login = () => JSON.stringify({ email: uniqueEmail('odd'), password: 'not the password at all' });

  beforeAll(async () => {
    account = await newTenantWithAdmin();
  });

  it('answers a too long URL with a 414 problem and the gateway CORS headers', async () => {
    const response = await send(apiUrl(), { target: `/suppliers?search=${'a'.repeat(MAX_URL_LENGTH)}`, origin: allowedOrigin() });
    expectGatewayProblem(response, 414, 'uri-too-long', allowedOrigin());
  });

  it('answers a too large header section with a 431 problem and the gateway CORS headers', async () => {
    const response = await send(apiUrl(), {
      target: '/suppliers',
      headers: [['Cookie', `${cookieHeader()}; padding=${'p'.repeat(MAX_HEAD_BYTES)}`]],
      origin: allowedOrigin(),
    });
    expectGatewayProblem(response, 431, 'request-header-fields-too-large', allowedOrigin());
  });

  it('answers a header section beyond Node’s limit with a 431 problem too', async () => {
    const response = await send(apiUrl(), { target: '/suppliers', headers: [['X-Padding', 'p'.repeat(NODE_MAX_HEADER_SIZE * 2)]], origin: allowedOrigin() });
    expectGatewayProblem(response, 431, 'request-header-fields-too-large', allowedOrigin());
  });

  it.each([
    ['PATCH', '/companies/%ZZ'],
    ['PATCH', '/suppliers/%E0%A4%A'],
    ['POST', '/auth/sessions/%FF/revoke'],
    ['GET', '/companies/%ZZ'],
    ['GET', '/suppliers%ZZ'],
    ['GET', '/docs/%ZZ'],
  ])('answers %s %s (a malformed percent-encoding in the path) with a 400 problem', async (method, target) => {
    const response = await send(apiUrl(), { method, target, headers: [['Cookie', cookieHeader()]], origin: allowedOrigin() });
    expectGatewayProblem(response, 400, 'bad-request', allowedOrigin());
  });

  it.each(['/suppliers?search=%E0%A4%A', '/suppliers?search=%ZZ', '/suppliers?search=100%', '/auth/me?x=%ZZ', '/companies?%FF=1'])(
    'leaves a malformed escape in the query (%s) to the route: never a 5xx',
    async (target) => {
      const response = await send(apiUrl(), { target, headers: [['Cookie', cookieHeader()]], origin: allowedOrigin() });
      expect(response.status, response.text).toBeLessThan(500);
      if (response.status >= 400) {
        expect(response.headers.get('content-type')).toBe('application/problem+json');
        expect(response.body).toEqual(expect.objectContaining({ status: response.status, requestId: expect.any(String) }));
      }
    },
  );

  it('treats constructor, __proto__ and toString as plain names on a public route', async () => {
    for (const [target, headers] of [
      [`/auth/login?${ODD_QUERY}`, []],
      ['/auth/login', ODD_HEADERS],
      [`/auth/login?${ODD_QUERY}`, ODD_HEADERS],
    ] as const) {
      const response = await send(apiUrl(), {
        method: 'POST',
        target,
        headers: [['Content-Type', 'application/json'], ...headers],
        body: login(),
        origin: allowedOrigin(),
      });
      expect(response.status, `${target} ${response.text}`).toBe(401);
      expect(response.body).toEqual(problem(401, 'unauthorized'));
    }
  });

  it('treats them as plain names on a protected route without a cookie: 401', async () => {
    const response = await send(apiUrl(), { target: `/auth/me?${ODD_QUERY}`, headers: ODD_HEADERS, origin: allowedOrigin() });
    expectGatewayProblem(response, 401, 'unauthorized', allowedOrigin());
  });

  it('treats them as plain names on a protected route with the session cookie: 200', async () => {
    const response = await send(apiUrl(), {
      target: `/auth/me?${ODD_QUERY}`,
      headers: [...ODD_HEADERS, ['Cookie', `__proto__=x; constructor=y; toString=z; ${cookieHeader()}`]],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual(expect.objectContaining({ id: account.userId, tenantId: account.tenantId }));

    // A route that validates its query names an unknown parameter: a 400, never a 500.
    const listed = await send(apiUrl(), { target: `/suppliers?${ODD_QUERY}`, headers: [['Cookie', cookieHeader()]] });
    expect(listed.status, listed.text).toBe(400);
  });

  it('answers a cookie named __proto__ alone as no session: 401', async () => {
    for (const cookie of ['__proto__=x', '__proto__', 'constructor=1; toString=2; accessToken', `accessToken=${'x'.repeat(10)}; __proto__=y`]) {
      const response = await send(apiUrl(), { target: '/auth/me', headers: [['Cookie', cookie]], origin: allowedOrigin() });
      expectGatewayProblem(response, 401, 'unauthorized', allowedOrigin());
    }
  });

  it('answers a file under /docs/ that is not the renderer’s with the gateway’s 404 problem', async () => {
    for (const target of ['/docs/package.json', '/docs/constructor', '/docs/__proto__', '/docs/toString']) {
      expectGatewayProblem(await send(apiUrl(), { target, origin: allowedOrigin() }), 404, 'not-found', allowedOrigin());
    }
  });

  it('answers a body that is not UTF-8 with a 400 problem from the function (it arrives base64-encoded)', async () => {
    for (const [method, target, cookie] of [
      ['POST', '/auth/login', ''],
      ['POST', '/tenants', ''],
      ['POST', '/suppliers', cookieHeader()],
    ] as const) {
      const response = await send(apiUrl(), {
        method,
        target,
        headers: [['Content-Type', 'application/json'], ...(cookie ? ([['Cookie', cookie]] as [string, string][]) : [])],
        body: INVALID_UTF8,
      });
      expect({ target, status: response.status, body: JSON.parse(response.text) as unknown }).toEqual({
        target,
        status: 400,
        body: expect.objectContaining({ type: 'https://problems.backoffice.dev/bad-request', status: 400, detail: 'The request body is not valid UTF-8' }),
      });
    }
  });
});
