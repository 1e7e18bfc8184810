import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD_ATTEMPTS } from '../../lib/routes';
import {
  allowedOrigin,
  call,
  clearOfWindowEnd,
  cookiesFrom,
  invitationTokenFor,
  login,
  newTenantWithAdmin,
  problem,
  randomLoopback,
  uniqueEmail,
  uniqueName,
} from './api';

describe('login failure limit', () => {
  // Counted in 15-minute fixed windows: no burst may straddle a window's end.
  beforeEach(() => clearOfWindowEnd(PASSWORD_ATTEMPTS.windowSeconds));

  it('lets at most 5 of 20 parallel wrong attempts for one e-mail and IP through as 401; the rest get 429', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/auth/login', { body: { email: admin.email, password: 'wrong password' }, ip })),
    );
    expect(responses.filter((response) => response.status === 401)).toHaveLength(5);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(15);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeLessThanOrEqual(900);

    // Blocked even with the right password, from that IP; another IP is not affected.
    const right = await call('POST', '/auth/login', { body: { email: admin.email, password: admin.password }, ip });
    expect(right.status).toBe(429);
    expect(right.setCookies).toEqual([]);
    expect((await login(admin.email, admin.password, { ip: randomLoopback() })).response.status).toBe(200);
  });

  it('does not count successful logins', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    for (let attempt = 0; attempt < 7; attempt += 1) {
      expect((await login(admin.email, admin.password, { ip })).response.status).toBe(200);
    }
  });
});

describe('POST /tenants limit', () => {
  it('creates at most 10 tenants an hour from one IP, also under 20 parallel requests', async () => {
    await clearOfWindowEnd(3600);
    const ip = randomLoopback();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/tenants', { body: { name: uniqueName('burst'), plan: 'STARTER' }, ip })),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(10);
    expect(responses.filter((response) => response.status === 429)).toHaveLength(10);
  });
});

describe('CSRF', () => {
  it.each([
    ['POST', '/auth/login'],
    ['POST', '/auth/refresh'],
    ['POST', '/auth/logout'],
    ['POST', '/auth/register'],
    ['POST', '/auth/forgot-password'],
  ])('refuses %s %s from a foreign origin or a cross-site fetch with 403', async (method, path) => {
    const admin = await newTenantWithAdmin();
    const body = path === '/auth/login' ? { email: admin.email, password: admin.password } : { email: admin.email };
    const foreign = await call(method, path, { cookies: admin.cookies, body, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.setCookies).toEqual([]);
    expect(foreign.body).toEqual(problem(403, 'forbidden'));
    const crossSite = await call(method, path, { cookies: admin.cookies, body, headers: { 'sec-fetch-site': 'cross-site', origin: allowedOrigin() } });
    expect(crossSite.status).toBe(403);
    // Nothing changed: the session still works.
    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(200);
  });

  it('accepts same-site requests from the allowed origin', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('POST', '/auth/login', {
      body: { email: admin.email, password: admin.password },
      headers: { origin: allowedOrigin(), 'sec-fetch-site': 'same-site' },
    });
    expect(response.status).toBe(200);
  });
});

describe('token hardening over HTTP', () => {
  async function tokenFor(admin: Awaited<ReturnType<typeof newTenantWithAdmin>>) {
    return admin.cookies.accessToken ?? '';
  }

  it('refuses alg none, a foreign key with the same kid, and an HMAC token, with 401', async () => {
    const admin = await newTenantWithAdmin();
    const real = await tokenFor(admin);
    const { kid } = decodeProtectedHeader(real);
    const [, payload] = real.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid })).toString('base64url')}.${payload}.`;

    const { privateKey } = await generateKeyPair('ES256');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const foreign = await new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: kid ?? '' }).sign(privateKey);
    const hmacKey = await exportJWK((await generateKeyPair('ES256', { extractable: true })).publicKey);
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: kid ?? '' })
      .sign(new TextEncoder().encode(JSON.stringify(hmacKey)));

    for (const [name, token] of Object.entries({ none, foreign, hmac })) {
      const response = await call('GET', '/auth/me', { cookies: { accessToken: token } });
      expect(response.status, name).toBe(401);
      expect(response.body, name).toEqual(problem(401, 'unauthorized'));
    }
  });

  it('never answers 5xx to arbitrary cookie values', async () => {
    const values = ['', '.', '..', 'a.b.c', '%', 'eyJ.eyJ.x', 'x'.repeat(4000), '{"alg":"none"}', Buffer.from('\u0000\u0001').toString('base64')];
    for (const value of values) {
      const me = await call('GET', '/auth/me', { cookies: { accessToken: value } });
      expect(me.status, value).toBe(401);
      const refresh = await call('POST', '/auth/refresh', { cookies: { refreshToken: value } });
      expect(refresh.status, value).toBe(401);
    }
  });
});

describe('tenant isolation', () => {
  it('gives a user of tenant A nothing of tenant B on any route', async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const bSessions = await call<{ id: string }[]>('GET', '/auth/sessions', { cookies: b.cookies });

    const me = await call('GET', '/auth/me', { cookies: a.cookies });
    expect(me.body).toEqual(expect.objectContaining({ tenantId: a.tenantId }));

    const listA = await call<{ id: string }[]>('GET', '/auth/sessions', { cookies: a.cookies });
    expect(listA.body.map((session) => session.id)).not.toContain(bSessions.body[0]?.id);
    expect((await call('POST', `/auth/sessions/${bSessions.body[0]?.id}/revoke`, { cookies: a.cookies })).status).toBe(404);
    expect((await call('PATCH', `/tenants/${b.tenantId}`, { cookies: a.cookies, body: { brandName: 'x' } })).status).toBe(404);
    expect((await call('GET', '/tenants', { cookies: a.cookies })).status).toBe(403);

    // An invitation made by A only opens A, even with its token.
    const email = uniqueEmail();
    await call('POST', '/auth/invitations', { cookies: a.cookies, body: { email } });
    const invitationToken = invitationTokenFor(email);
    expect(invitationToken).toEqual(expect.any(String));
    expect(
      (await call('POST', '/auth/register', { body: { name: 'Z', email, password: 'password 1234', tenantId: b.tenantId, invitationToken } })).status,
    ).toBe(403);

    // B is untouched.
    expect((await call('GET', '/auth/me', { cookies: b.cookies })).status).toBe(200);
  });

  it("refuses a token whose tenantId claim was swapped for another tenant's (signature breaks)", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const [header, payload, signature] = (a.cookies.accessToken ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as Record<string, unknown>;
    const swapped = Buffer.from(JSON.stringify({ ...claims, tenantId: b.tenantId })).toString('base64url');
    const response = await call('GET', '/auth/me', { cookies: { accessToken: `${header}.${swapped}.${signature}` } });
    expect(response.status).toBe(401);
  });

  it('keeps cookies of a logged-out session dead on every protected route', async () => {
    const admin = await newTenantWithAdmin();
    const cookies = { ...admin.cookies };
    await call('POST', '/auth/logout', { cookies });
    for (const [method, path] of [
      ['GET', '/auth/me'],
      ['GET', '/auth/sessions'],
      ['GET', '/tenants'],
      ['PATCH', `/tenants/${admin.tenantId}`],
      ['POST', `/auth/sessions/${randomUUID()}/revoke`],
      ['POST', '/auth/invitations'],
    ] as const) {
      const response = await call(method, path, { cookies, body: method === 'GET' ? undefined : { email: uniqueEmail() } });
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect(cookiesFrom(await call('POST', '/auth/refresh', { cookies }))).toEqual({});
  });
});
