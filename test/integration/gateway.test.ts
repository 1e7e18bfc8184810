import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type AuthorizerHandler, type ProxyHandler } from '../../local/gateway';
import type { Route } from '../../lib/routes';
import { allowedOrigin, call, problem } from './api';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/rest-api-proxy-event.json', import.meta.url), 'utf8')) as Record<string, unknown>;

type Shape = string | { [key: string]: Shape };
/** Keys and value types, recursively (null stays 'null'); arrays by their element type. */
function shapeOf(value: unknown, depth = 0): Shape {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array<${value.length ? (shapeOf(value[0], depth + 1) as string) : 'empty'}>`;
  if (typeof value === 'object' && depth < 3) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => key !== '_comment')
        .map(([key, inner]) => [key, shapeOf(inner, depth + 1)]),
    );
  }
  return typeof value === 'object' ? 'object' : typeof value;
}

describe('the API Gateway emulator, in process with recording handlers', () => {
  const routes: (Route & { id: string })[] = [
    { id: 'open', method: 'POST', path: '/things/{id}', handler: 'x', auth: 'public', table: { actions: [] }, summary: '' },
    { id: 'guarded', method: 'GET', path: '/guarded', handler: 'x', auth: 'protected', table: { actions: [] }, summary: '' },
  ];
  let server: Server;
  let base: string;
  let lastEvent: APIGatewayProxyEvent | undefined;
  let lastAuthorizerEvent: APIGatewayRequestAuthorizerEvent | undefined;
  let authorizerCalls = 0;
  let authorizerMode: 'allow' | 'deny' | 'unauthorized' | 'crash' = 'allow';

  const handler: ProxyHandler = async (event) => {
    lastEvent = event;
    return {
      statusCode: 200,
      multiValueHeaders: { 'Set-Cookie': ['a=1; Path=/', 'b=2; Path=/'] },
      headers: { 'Content-Type': 'application/json' },
      body: '{"ok":true}',
    };
  };
  const authorizer: AuthorizerHandler = async (event) => {
    authorizerCalls += 1;
    lastAuthorizerEvent = event;
    if (authorizerMode === 'unauthorized') throw new Error('Unauthorized');
    if (authorizerMode === 'crash') throw new Error('store down');
    return {
      principalId: 'user-1',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: authorizerMode === 'deny' ? 'Deny' : 'Allow', Resource: event.methodArn }],
      },
      context: { tenantId: 't-1', count: 3, admin: true },
    };
  };

  beforeAll(async () => {
    server = createServer(
      createGateway({ routes, loadHandler: async () => handler, loadAuthorizer: async () => authorizer, allowedOrigins: ['https://app.example.com'] }),
    );
    await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolveClose) => server.close(() => resolveClose())));

  it('builds a proxy event with the documented payload 1.0 shape', async () => {
    authorizerMode = 'allow';
    await fetch(`${base}/things/abc%20def?x=1&x=2&y=3`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Multi': 'one' }, body: '{"a":1}' });
    const event = lastEvent as unknown as Record<string, unknown>;
    const documented = shapeOf(fixture) as Record<string, Shape>;
    const actual = shapeOf(event) as Record<string, Shape>;

    expect(Object.keys(actual).sort()).toEqual(Object.keys(documented).sort());
    const {
      requestContext: documentedContext,
      pathParameters: _p,
      headers: _h,
      multiValueHeaders: _m,
      queryStringParameters: _q,
      multiValueQueryStringParameters: _mq,
      ...documentedTop
    } = documented;
    const {
      requestContext: actualContext,
      pathParameters: _ap,
      headers: _ah,
      multiValueHeaders: _am,
      queryStringParameters: _aq,
      multiValueQueryStringParameters: _amq,
      ...actualTop
    } = actual;
    expect(actualTop).toEqual(documentedTop);
    const { authorizer: _da, identity: documentedIdentity, ...documentedRest } = documentedContext as Record<string, Shape>;
    const { authorizer: _aa, identity: actualIdentity, ...actualRest } = actualContext as Record<string, Shape>;
    expect(actualRest).toEqual(documentedRest);
    expect(actualIdentity).toEqual(expect.objectContaining(documentedIdentity as Record<string, Shape>));

    expect(lastEvent).toEqual(
      expect.objectContaining({
        resource: '/things/{id}',
        path: '/things/abc%20def',
        httpMethod: 'POST',
        pathParameters: { id: 'abc def' },
        queryStringParameters: { x: '2', y: '3' },
        multiValueQueryStringParameters: { x: ['1', '2'], y: ['3'] },
        body: '{"a":1}',
        isBase64Encoded: false,
        stageVariables: null,
      }),
    );
    expect(lastEvent?.headers['X-Multi']).toBe('one');
    expect(lastEvent?.multiValueHeaders['X-Multi']).toEqual(['one']);
    expect(lastEvent?.requestContext.identity.sourceIp).toBe('127.0.0.1');
    expect(lastEvent?.requestContext.resourcePath).toBe('/things/{id}');
  });

  it('writes multiValueHeaders Set-Cookie as several headers', async () => {
    const response = await fetch(`${base}/things/1`, { method: 'POST' });
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('invokes the authorizer without a Cookie header too (no identity source: a cookie or an API key), and answers its refusal as 401', async () => {
    authorizerCalls = 0;
    authorizerMode = 'unauthorized';
    const response = await fetch(`${base}/guarded`, { headers: { origin: 'https://app.example.com' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(await response.json()).toEqual(problem(401, 'unauthorized'));
    expect(authorizerCalls).toBe(1);
    authorizerMode = 'allow';
  });

  it('invokes the REQUEST authorizer and passes its context as strings', async () => {
    authorizerMode = 'allow';
    const response = await fetch(`${base}/guarded?q=1`, { headers: { Cookie: 'accessToken=abc' } });
    expect(response.status).toBe(200);
    expect(lastAuthorizerEvent).toEqual(
      expect.objectContaining({
        type: 'REQUEST',
        methodArn: expect.stringMatching(/^arn:aws:execute-api:[\w-]+:\d{12}:[\w-]+\/[\w-]+\/GET\/guarded$/),
        resource: '/guarded',
        httpMethod: 'GET',
        queryStringParameters: { q: '1' },
        headers: expect.objectContaining({ Cookie: 'accessToken=abc' }),
      }),
    );
    expect(lastEvent?.requestContext.authorizer).toEqual({ principalId: 'user-1', tenantId: 't-1', count: '3', admin: 'true' });
  });

  it.each([
    ['unauthorized', 401, 'unauthorized'],
    ['deny', 403, 'forbidden'],
    ['crash', 503, 'unavailable'],
  ] as const)('answers an authorizer outcome of %s with %i', async (mode, status, type) => {
    authorizerMode = mode;
    const response = await fetch(`${base}/guarded`, { headers: { Cookie: 'accessToken=abc' } });
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual(problem(status, type));
  });
});

describe('the local API over HTTP', () => {
  it('answers an unknown route with a 404 problem and CORS headers', async () => {
    const response = await call('GET', '/no/such/route', { headers: { origin: allowedOrigin() } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.headers.get('access-control-allow-origin')).toBe(allowedOrigin());
    expect(response.body).toEqual(problem(404, 'not-found'));
  });

  it('grants CORS on gateway errors to the allowed origin only, never by echoing the caller', async () => {
    const response = await call('GET', '/auth/me', { headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowedOrigin());
    expect(response.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });

  it('answers a known path with an unsupported method with 404', async () => {
    const response = await call('DELETE', '/tenants');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(problem(404, 'not-found'));
  });

  it('answers CORS preflight for an allowed origin with credentials', async () => {
    const response = await fetch(`${(await import('./api')).apiUrl()}/auth/login`, {
      method: 'OPTIONS',
      headers: { origin: allowedOrigin(), 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(allowedOrigin());
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });

  it('gives no CORS grant to an origin that is not allowed', async () => {
    const preflight = await fetch(`${(await import('./api')).apiUrl()}/auth/login`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const response = await call('POST', '/tenants', { body: { name: 'x-y-z', plan: 'STARTER' }, headers: { origin: 'https://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a state-changing request from a foreign Origin with 403 and creates nothing', async () => {
    const name = `csrf-${Date.now()}`;
    const refused = await call('POST', '/tenants', { body: { name, plan: 'STARTER' }, headers: { origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(problem(403, 'forbidden'));
    const crossSite = await call('POST', '/tenants', { body: { name, plan: 'STARTER' }, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    const created = await call('POST', '/tenants', { body: { name, plan: 'STARTER' } });
    expect(created.status).toBe(201);
  });

  it('answers 415 for another content type, 413 over 64 KiB, 400 for malformed JSON', async () => {
    const wrongType = await call('POST', '/tenants', { rawBody: '{"name":"abc","plan":"STARTER"}', headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toEqual(problem(415, 'unsupported-media-type'));

    const oversized = await call('POST', '/tenants', { body: { name: 'big-body', plan: 'STARTER', brandName: 'x'.repeat(70 * 1024) } });
    expect(oversized.status).toBe(413);
    expect(oversized.body).toEqual(problem(413, 'payload-too-large'));

    const malformed = await call('POST', '/tenants', { rawBody: '{"name": "abc",', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(problem(400, 'bad-request'));

    const charset = await call('POST', '/tenants', {
      rawBody: JSON.stringify({ name: `charset-${Date.now()}`, plan: 'STARTER' }),
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    });
    expect(charset.status).toBe(201);
  });

  it('puts the request id of the response in the problem body', async () => {
    const response = await call('GET', '/auth/me');
    expect(response.body).toEqual(problem(401, 'unauthorized', { requestId: response.headers.get('x-amzn-requestid') }));
  });
});
