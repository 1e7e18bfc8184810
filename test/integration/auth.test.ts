import { randomUUID } from 'node:crypto';
import { decodeJwt, importJWK, SignJWT, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { settings } from '../../lib/settings';
import { allowedOrigin, call, cookiesFrom, localSigningJwk, newTenantWithAdmin, problem, signUp, uniqueEmail } from './api';

const PASSWORD = 'correct horse battery';

/** A token signed with the local API's real key, with the claims given. */
async function mintAccessToken(claims: Record<string, unknown>, expiresAt: number): Promise<string> {
  const jwk = localSigningJwk();
  const key = await importJWK(jwk as JWK, 'ES256');
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid })
    .setIssuer('http://localhost/backoffice')
    .setAudience('backoffice-api')
    .setIssuedAt(expiresAt - settings.accessTokenSeconds)
    .setExpirationTime(expiresAt)
    .sign(key);
}

describe('POST /auth/register', () => {
  it("creates the base account with the sign-up's invitation token, answers the user and sets both cookies", async () => {
    const email = uniqueEmail('Ana');
    const { tenantId, token } = await signUp(email);
    const response = await call('POST', '/auth/register', {
      body: { name: '  Ana Souza  ', email: email.toUpperCase(), password: PASSWORD, tenantId, invitationToken: token },
      headers: { origin: allowedOrigin() },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user: { id: expect.any(String), name: 'Ana Souza', email: email.toLowerCase(), tenantId } });
    expect(response.setCookies).toEqual([
      expect.stringMatching(
        new RegExp(`^accessToken=[\\w-]+\\.[\\w-]+\\.[\\w-]+; Max-Age=${settings.accessTokenSeconds}; Path=/; HttpOnly; Secure; SameSite=Strict$`),
      ),
      expect.stringMatching(/^refreshToken=[\w-]+\.[\w-]+\.[\w-]+; Path=\/auth; HttpOnly; Secure; SameSite=Strict$/),
    ]);
    const claims = decodeJwt(cookiesFrom(response).accessToken ?? '');
    expect(claims).toEqual(
      expect.objectContaining({ sub: (response.body.user as { id: string }).id, tenantId, sessionId: expect.any(String), jti: expect.any(String) }),
    );
    // The base account administers the tenant.
    const users = await call<{ role: string }[]>('GET', '/users', { cookies: cookiesFrom(response) });
    expect(users.body.map((user) => user.role)).toEqual(['ADMIN']);
  });

  it('answers 409 when the e-mail of a valid invitation got an account elsewhere first', async () => {
    const email = uniqueEmail();
    const first = await signUp(email);
    const second = await signUp(email);
    expect(
      (await call('POST', '/auth/register', { body: { name: 'First', email, password: PASSWORD, tenantId: first.tenantId, invitationToken: first.token } }))
        .status,
    ).toBe(200);
    const response = await call('POST', '/auth/register', {
      body: { name: 'Second', email, password: PASSWORD, tenantId: second.tenantId, invitationToken: second.token },
    });
    expect(response.status).toBe(409);
    expect(response.setCookies).toEqual([]);
    expect(response.body).toEqual(problem(409, 'conflict'));
  });

  it('answers 404 for an unknown tenant', async () => {
    const response = await call('POST', '/auth/register', {
      body: { name: 'X', email: uniqueEmail(), password: PASSWORD, tenantId: randomUUID(), invitationToken: 'any' },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(problem(404, 'not-found'));
  });

  it("answers 403 to another e-mail presenting the base account's token, and 200 to its own address", async () => {
    const { tenantId, token } = await signUp('owner@example.com');
    const response = await call('POST', '/auth/register', { body: { name: 'X', email: uniqueEmail(), password: PASSWORD, tenantId, invitationToken: token } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(problem(403, 'forbidden'));

    const owner = await call('POST', '/auth/register', {
      body: { name: 'Owner', email: 'OWNER@example.com', password: PASSWORD, tenantId, invitationToken: token },
    });
    expect(owner.status).toBe(200);
  });

  it('answers 403 for a second account without an invitation', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('POST', '/auth/register', { body: { name: 'Y', email: uniqueEmail(), password: PASSWORD, tenantId: admin.tenantId } });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(problem(403, 'forbidden'));
  });

  it.each([
    ['a short password', { password: 'short' }, 'password'],
    ['a password over 128 characters', { password: 'x'.repeat(129) }, 'password'],
    ['an invalid e-mail', { email: 'nope' }, 'email'],
    ['a tenant id that is not a UUID', { tenantId: 'abc' }, 'tenantId'],
    ['a blank name', { name: '   ' }, 'name'],
    ['an unknown field', { role: 'ADMIN' }, 'role'],
  ])('answers 400 for %s', async (_case, override, field) => {
    const body = { name: 'Valid', email: uniqueEmail(), password: PASSWORD, tenantId: randomUUID(), invitationToken: 'token', ...override };
    const response = await call('POST', '/auth/register', { body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) }));
  });

  it('gives exactly one 200 for 20 parallel registrations with one invitation', async () => {
    const email = uniqueEmail('race');
    const { tenantId, token } = await signUp(email);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call('POST', '/auth/register', { body: { name: `R${index}`, email, password: PASSWORD, tenantId, invitationToken: token } }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => status === 200 || status === 409 || status === 403)).toBe(true);
  });

  it('does not treat two passwords sharing their first 72 bytes as the same', async () => {
    const email = uniqueEmail('long');
    const { tenantId, token } = await signUp(email);
    const prefix = 'p'.repeat(72);
    await call('POST', '/auth/register', { body: { name: 'Long', email, password: `${prefix}-one`, tenantId, invitationToken: token } });
    const wrong = await call('POST', '/auth/login', { body: { email, password: `${prefix}-two` } });
    const right = await call('POST', '/auth/login', { body: { email, password: `${prefix}-one` } });
    expect(wrong.status).toBe(401);
    expect(right.status).toBe(200);
  });
});

describe('POST /auth/login', () => {
  it('answers the user and sets both cookies; rememberMe makes the refresh cookie persistent', async () => {
    const admin = await newTenantWithAdmin();
    const plain = await call('POST', '/auth/login', { body: { email: admin.email, password: admin.password } });
    const remembered = await call('POST', '/auth/login', { body: { email: admin.email.toUpperCase(), password: admin.password, rememberMe: true } });

    for (const response of [plain, remembered]) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ user: { id: admin.userId, name: 'Admin', email: admin.email, tenantId: admin.tenantId } });
    }
    expect(plain.setCookies[1]).toMatch(/^refreshToken=[^;]+; Path=\/auth; HttpOnly; Secure; SameSite=Strict$/);
    // Max-Age is what is left of the session: the rememberMe lifetime, less the seconds since login.
    const rememberedMaxAge = /^refreshToken=[^;]+; Max-Age=(\d+); Path=\/auth; HttpOnly; Secure; SameSite=Strict$/.exec(remembered.setCookies[1] ?? '')?.[1];
    expect(Number(rememberedMaxAge)).toBeGreaterThanOrEqual(settings.rememberMeSeconds - 10);
    expect(Number(rememberedMaxAge)).toBeLessThanOrEqual(settings.rememberMeSeconds);
  });

  it('answers an unknown e-mail and a wrong password with the same 401', async () => {
    const admin = await newTenantWithAdmin();
    const unknown = await call('POST', '/auth/login', { body: { email: uniqueEmail('ghost'), password: admin.password } });
    const wrong = await call('POST', '/auth/login', { body: { email: admin.email, password: 'wrong password' } });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const { requestId: _a, ...unknownBody } = unknown.body;
    const { requestId: _b, ...wrongBody } = wrong.body;
    expect(unknownBody).toEqual(wrongBody);
    expect(unknown.setCookies).toEqual([]);
  });

  it('answers 400 for a missing password', async () => {
    const response = await call('POST', '/auth/login', { body: { email: uniqueEmail() } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'password', message: expect.any(String) }] }));
  });
});

describe('session lifecycle: me, refresh, logout', () => {
  it('reads /auth/me with the access cookie', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('GET', '/auth/me', { cookies: { accessToken: admin.cookies.accessToken ?? '' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: admin.userId, name: 'Admin', email: admin.email, tenantId: admin.tenantId });
  });

  it('rotates both tokens on every refresh', async () => {
    const admin = await newTenantWithAdmin();
    const refreshed = await call('POST', '/auth/refresh', { cookies: { refreshToken: admin.cookies.refreshToken ?? '' } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ user: { id: admin.userId, name: 'Admin', email: admin.email, tenantId: admin.tenantId } });
    const next = cookiesFrom(refreshed);
    expect(next.refreshToken).not.toBe(admin.cookies.refreshToken);
    expect(next.accessToken).not.toBe(admin.cookies.accessToken);

    const me = await call('GET', '/auth/me', { cookies: { accessToken: next.accessToken ?? '' } });
    expect(me.status).toBe(200);
    const again = await call('POST', '/auth/refresh', { cookies: { refreshToken: next.refreshToken ?? '' } });
    expect(again.status).toBe(200);
  });

  it('answers 401 to a refresh without the cookie or with an access token in its place', async () => {
    const admin = await newTenantWithAdmin();
    const missing = await call('POST', '/auth/refresh');
    const swapped = await call('POST', '/auth/refresh', { cookies: { refreshToken: admin.cookies.accessToken ?? '' } });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(problem(401, 'unauthorized'));
    expect(swapped.status).toBe(401);
  });

  it('refuses a refresh token used as an access token', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('GET', '/auth/me', { cookies: { accessToken: admin.cookies.refreshToken ?? '' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(problem(401, 'unauthorized'));
  });

  it('logs out: clears both cookies, and both old tokens get 401', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('POST', '/auth/logout', { cookies: admin.cookies, headers: { origin: allowedOrigin() } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.setCookies).toEqual([
      'accessToken=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict',
      'refreshToken=; Max-Age=0; Path=/auth; HttpOnly; Secure; SameSite=Strict',
    ]);

    const me = await call('GET', '/auth/me', { cookies: admin.cookies });
    expect(me.status).toBe(401);
    expect(me.body).toEqual(problem(401, 'unauthorized'));
    const refresh = await call('POST', '/auth/refresh', { cookies: admin.cookies });
    expect(refresh.status).toBe(401);
  });

  it('answers 401 for a missing, garbage, tampered or expired access token', async () => {
    const admin = await newTenantWithAdmin();
    const token = admin.cookies.accessToken ?? '';
    const [header, payload, signature] = token.split('.');
    const claims = decodeJwt(token);
    const forged = Buffer.from(JSON.stringify({ ...claims, tenantId: randomUUID() })).toString('base64url');
    const expired = await mintAccessToken(
      { sub: admin.userId, tenantId: admin.tenantId, sessionId: claims.sessionId, jti: randomUUID() },
      Math.floor(Date.now() / 1000) - 60,
    );

    const cases: Record<string, Record<string, string> | undefined> = {
      'no cookie': undefined,
      'another cookie only': { theme: 'dark' },
      garbage: { accessToken: 'garbage' },
      'tampered payload': { accessToken: `${header}.${forged}.${signature}` },
      'tampered signature': { accessToken: `${header}.${payload}.${(signature ?? '').slice(0, -4)}AAAA` },
      expired: { accessToken: expired },
    };
    for (const [name, cookies] of Object.entries(cases)) {
      const response = await call('GET', '/auth/me', cookies ? { cookies } : {});
      expect(response.status, name).toBe(401);
      expect(response.headers.get('content-type'), name).toBe('application/problem+json');
      expect(response.body, name).toEqual(problem(401, 'unauthorized'));
    }
  });

  it('accepts a freshly minted token for a live session (the expired case above fails on exp alone)', async () => {
    const admin = await newTenantWithAdmin();
    const claims = decodeJwt(admin.cookies.accessToken ?? '');
    const fresh = await mintAccessToken(
      { sub: admin.userId, tenantId: admin.tenantId, sessionId: claims.sessionId, jti: randomUUID() },
      Math.floor(Date.now() / 1000) + 60,
    );
    const response = await call('GET', '/auth/me', { cookies: { accessToken: fresh } });
    expect(response.status).toBe(200);
  });
});
