import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../lib/routes';
import { call, newTenantWithAdmin, type Account } from './api';

/**
 * Property tests over HTTP: whatever a client sends to any route (arbitrary JSON bodies,
 * query strings, path ids, cookies, content types), the answer is never a 5xx, and every
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
  fc.dictionary(fc.constantFrom('name', 'email', 'password', 'document', 'plan', 'sku', 'quantity', 'type', 'status', 'tenantId', 'settings', 'phone', 'productId', 'unitCost', 'occurredAt', 'token', 'newPassword', 'search'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 }),
);
const rawBody = fc.oneof(jsonBody.map((value) => JSON.stringify(value)), fc.string({ maxLength: 200 }), fc.constant(''));
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', '');
const pathId = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 40 }).map((value) => encodeURIComponent(value)), fc.constant('00000000-0000-0000-0000-000000000000'));
const query = fc.dictionary(fc.constantFrom('page', 'limit', 'search', 'days', 'x'), fc.oneof(fc.string({ maxLength: 30 }), fc.integer().map(String), fc.double().map(String)), { maxKeys: 3 });
const cookieKind = fc.constantFrom('session', 'none', 'garbage');
const garbageCookie = fc.string({ maxLength: 300 }).map((value) => value.replace(/[;\r\n]/g, ''));

describe.each(routeList().map((route) => [`${route.method} ${route.path}`, route] as const))('%s', (_name, route) => {
  it('never answers 5xx, and every error is a problem document', async () => {
    await fc.assert(
      fc.asyncProperty(rawBody, contentType, pathId, query, cookieKind, garbageCookie, async (body, type, id, params, kind, garbage) => {
        const path = route.path.replace(/\{[^}]+\}/g, id);
        const search = new URLSearchParams(params).toString();
        const cookies = kind === 'session' ? account.cookies : kind === 'garbage' ? { accessToken: garbage, refreshToken: garbage } : undefined;
        const response = await call(route.method, `${path}${search ? `?${search}` : ''}`, {
          rawBody: route.method === 'GET' ? undefined : body,
          headers: type && route.method !== 'GET' ? { 'content-type': type } : {},
          cookies,
        });
        expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
        if (response.status >= 400) {
          expect(response.headers.get('content-type')).toBe('application/problem+json');
          expect(response.body).toEqual(
            expect.objectContaining({ type: expect.any(String), title: expect.any(String), status: response.status, detail: expect.any(String), requestId: expect.any(String) }),
          );
        }
      }),
      { numRuns: RUNS },
    );
  });
});
