import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../lib/routes';
import { call, newTenantWithAdmin, type Account } from './api';

/**
 * Property tests over HTTP: whatever a client sends to any route (arbitrary JSON bodies,
 * query strings, path ids, cookies, content types, and the hostile kinds of each: deep
 * nesting, prototype keys, control and bidi characters, lone surrogates, bytes that are not
 * UTF-8, odd percent-encodings, prototype names as query and header names), the answer is
 * never a 5xx, and every
 * error carries the problem fields. The responses are also checked against the OpenAPI
 * document by the client (test/integration/api.ts).
 */
let account: Account;
beforeAll(async () => {
  account = await newTenantWithAdmin();
});

const RUNS = Number(process.env.PROPERTY_RUNS ?? 40);

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(
    fc.constantFrom(
      'name',
      'email',
      'password',
      'document',
      'plan',
      'sku',
      'quantity',
      'type',
      'status',
      'tenantId',
      'settings',
      'phone',
      'productId',
      'unitCost',
      'occurredAt',
      'token',
      'newPassword',
      'search',
    ),
    fc.jsonValue({ maxDepth: 2 }),
    { maxKeys: 6 },
  ),
);
/** Characters a text field must refuse, among ordinary ones (an emoji is a surrogate pair). */
const hostileChar = fc.constantFrom(
  'a',
  'ç',
  ' ',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ud800',
  '\udfff',
  '\ufffd',
  '\u{1F600}',
  '"',
  '\\',
);
const hostileText = fc.string({ unit: hostileChar, maxLength: 20 });
const fieldName = fc.constantFrom('name', 'email', 'corporateName', 'document', 'plan', 'sku', 'brandName', 'settings', 'address', 'quantity');
const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'prototype', '\\u005f_proto__');
/** JSON text that only a hostile client writes: deep nesting, prototype keys, duplicate keys. */
const hostileJson = fc.oneof(
  fc
    .tuple(fc.integer({ min: 20, max: 4000 }), fc.constantFrom('[', '{"a":'))
    .map(([levels, open]) => `{"settings":${open.repeat(levels)}1${(open === '[' ? ']' : '}').repeat(levels)}}`),
  fc
    .tuple(fieldName, prototypeKey, fc.jsonValue({ maxDepth: 1 }))
    .map(([field, key, value]) => `{"${field}":{"x":{"${key}":${JSON.stringify(value)}}},"${key}":1}`),
  fc.tuple(fieldName, hostileText, hostileText).map(([field, first, second]) => `{"${field}":${JSON.stringify(first)},"${field}":${JSON.stringify(second)}}`),
  fc.dictionary(fieldName, hostileText, { maxKeys: 4 }).map((value) => JSON.stringify(value)),
);
const rawBody = fc.oneof(
  jsonBody.map((value) => JSON.stringify(value)),
  hostileJson,
  fc.string({ maxLength: 200 }),
  fc.constant(''),
  // Bytes that are not UTF-8 inside an otherwise valid body.
  fc
    .uint8Array({ minLength: 1, maxLength: 8 })
    .map((bytes) => Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes.map((byte) => byte | 0x80)), Buffer.from('"}')])),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  '',
);
/** Percent-encodings a URL parser may choke on: truncated, not hex, overlong, NUL, encoded slashes. */
const oddEscape = fc.constantFrom('%', '%Z', '%ZZ', '%E0%A4%A', '%C0%AF', '%00', '%2F', '%2e%2e', '%FF%FE', '%ED%A0%80');
const pathId = fc.oneof(
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 40 }).map((value) => encodeURIComponent(value)),
  fc.constant('00000000-0000-0000-0000-000000000000'),
  fc.tuple(fc.string({ maxLength: 8 }).map(encodeURIComponent), oddEscape).map(([text, escape]) => `${text}${escape}`),
);
const queryName = fc.constantFrom('page', 'limit', 'search', 'days', 'x', 'constructor', '__proto__', 'toString', 'hasOwnProperty');
const queryValue = fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.double().map(String), hostileText);
/** A raw query string: encoded pairs, prototype names, odd escapes. */
const query = fc.oneof(
  fc.array(fc.tuple(queryName, queryValue), { maxLength: 3 }).map((pairs) => new URLSearchParams(pairs).toString()),
  fc.tuple(queryName, oddEscape).map(([name, escape]) => `${name}=${escape}`),
);
/** Header names that are prototype property names: ordinary names to a gateway. */
const oddHeaders = fc.subarray(['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty']).map((names) => {
  const headers: Record<string, string> = {};
  for (const name of names) Object.defineProperty(headers, name, { value: 'x', enumerable: true, writable: true, configurable: true });
  return headers;
});
const cookieKind = fc.constantFrom('session', 'none', 'garbage');
const garbageCookie = fc.string({ maxLength: 300 }).map((value) => value.replace(/[;\r\n]/g, ''));

describe.each(routeList().map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  it('never answers 5xx, and every error is a problem document', async () => {
    await fc.assert(
      fc.asyncProperty(
        rawBody,
        contentType,
        pathId,
        query,
        cookieKind,
        garbageCookie,
        oddHeaders,
        async (body, type, id, search, kind, garbage, extraHeaders) => {
          const path = route.path.replace(/\{[^}]+\}/g, id);
          const cookies = kind === 'session' ? account.cookies : kind === 'garbage' ? { accessToken: garbage, refreshToken: garbage } : undefined;
          const response = await call(route.method, `${path}${search ? `?${search}` : ''}`, {
            rawBody: route.method === 'GET' ? undefined : body,
            headers: { ...extraHeaders, ...(type && route.method !== 'GET' ? { 'content-type': type } : {}) },
            cookies,
          });
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          if (response.status >= 400) {
            expect(response.headers.get('content-type')).toBe('application/problem+json');
            expect(response.body).toEqual(
              expect.objectContaining({
                type: expect.any(String),
                title: expect.any(String),
                status: response.status,
                detail: expect.any(String),
                requestId: expect.any(String),
              }),
            );
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
