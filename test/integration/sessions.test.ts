import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { settings } from '../../lib/settings';
import { call, cookiesFrom, login, newTenantWithAdmin, problem, randomLoopback } from './api';

describe('GET /auth/sessions', () => {
  it("lists the caller's active sessions newest first, with the current one marked", async () => {
    const admin = await newTenantWithAdmin();
    const second = await login(admin.email, admin.password, { ip: '127.9.9.9' });
    const response = await call<Record<string, unknown>[]>('GET', '/auth/sessions', {
      cookies: second.cookies,
      headers: { 'user-agent': 'IntegrationBrowser/1.0' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: expect.any(String),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        lastActiveAt: expect.any(String),
        expiresAt: expect.any(String),
        ipAddress: '127.9.9.9',
        userAgent: expect.any(String),
        current: true,
      },
      {
        id: expect.any(String),
        createdAt: expect.any(String),
        lastActiveAt: expect.any(String),
        expiresAt: expect.any(String),
        ipAddress: expect.any(String),
        userAgent: expect.any(String),
        current: false,
      },
    ]);
    const [newest, oldest] = response.body as { createdAt: string; expiresAt: string }[];
    expect((newest?.createdAt ?? '') >= (oldest?.createdAt ?? '')).toBe(true);
    // The session lifetime without rememberMe.
    expect(Date.parse(newest?.expiresAt ?? '') - Date.parse(newest?.createdAt ?? '')).toBe(settings.refreshTokenSeconds * 1000);
  });

  it('does not list revoked or logged-out sessions', async () => {
    const admin = await newTenantWithAdmin();
    const other = await login(admin.email, admin.password);
    await call('POST', '/auth/logout', { cookies: other.cookies });
    const response = await call<{ current: boolean }[]>('GET', '/auth/sessions', { cookies: admin.cookies });
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    expect(response.body[0]?.current).toBe(true);
  });

  it('answers 429 with Retry-After after 10 requests a minute by one user', async () => {
    // The limit counts per clock minute: a burst that crossed a minute's end was counted in
    // two windows, so it is sent again (by a new user) until one falls within one minute.
    let responses: Awaited<ReturnType<typeof call>>[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const admin = await newTenantWithAdmin();
      const minute = Math.floor(Date.now() / 60_000);
      responses = await Promise.all(Array.from({ length: 20 }, () => call('GET', '/auth/sessions', { cookies: admin.cookies, ip: randomLoopback() })));
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(10);
    for (const response of limited) {
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(response.body).toEqual(problem(429, 'rate-limited'));
    }
  });
});

describe('POST /auth/sessions/{id}/revoke', () => {
  it('revokes another session of the caller; it gets 401 on its very next request', async () => {
    const admin = await newTenantWithAdmin();
    const laptop = await login(admin.email, admin.password);
    const sessions = await call<{ id: string; current: boolean }[]>('GET', '/auth/sessions', { cookies: admin.cookies });
    const laptopSession = sessions.body.find((session) => !session.current);

    const response = await call('POST', `/auth/sessions/${laptopSession?.id}/revoke`, { cookies: admin.cookies });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });
    expect(response.setCookies).toEqual([]);

    const me = await call('GET', '/auth/me', { cookies: laptop.cookies });
    expect(me.status).toBe(401);
    const refresh = await call('POST', '/auth/refresh', { cookies: laptop.cookies });
    expect(refresh.status).toBe(401);
    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(200);
  });

  it('revoking the current session clears its cookies', async () => {
    const admin = await newTenantWithAdmin();
    const sessions = await call<{ id: string; current: boolean }[]>('GET', '/auth/sessions', { cookies: admin.cookies });
    const current = sessions.body.find((session) => session.current);
    const response = await call('POST', `/auth/sessions/${current?.id}/revoke`, { cookies: admin.cookies });
    expect(response.status).toBe(200);
    expect(response.setCookies).toEqual([
      'accessToken=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict',
      'refreshToken=; Max-Age=0; Path=/auth; HttpOnly; Secure; SameSite=Strict',
    ]);
    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(401);
  });

  it("answers 404 for another user's session, an unknown id and an already revoked one", async () => {
    const alice = await newTenantWithAdmin();
    const bob = await newTenantWithAdmin();
    const bobSessions = await call<{ id: string }[]>('GET', '/auth/sessions', { cookies: bob.cookies });
    const bobSession = bobSessions.body[0]?.id ?? '';

    const foreign = await call('POST', `/auth/sessions/${bobSession}/revoke`, { cookies: alice.cookies });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(problem(404, 'not-found'));
    expect((await call('GET', '/auth/me', { cookies: bob.cookies })).status).toBe(200);

    const unknown = await call('POST', '/auth/sessions/00000000-0000-4000-8000-000000000000/revoke', { cookies: alice.cookies });
    expect(unknown.status).toBe(404);

    const extra = await login(alice.email, alice.password);
    const list = await call<{ id: string; current: boolean }[]>('GET', '/auth/sessions', { cookies: extra.cookies });
    const other = list.body.find((session) => !session.current)?.id ?? '';
    expect((await call('POST', `/auth/sessions/${other}/revoke`, { cookies: extra.cookies })).status).toBe(200);
    expect((await call('POST', `/auth/sessions/${other}/revoke`, { cookies: extra.cookies })).status).toBe(404);
  });

  it('answers 400 for an id that is not a UUID', async () => {
    const admin = await newTenantWithAdmin();
    const response = await call('POST', '/auth/sessions/123/revoke', { cookies: admin.cookies });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'id', message: expect.any(String) }] }));
  });
});

describe('refresh rotation and reuse detection', () => {
  it('has a single winner among 20 parallel refreshes with one token; the session survives', async () => {
    const admin = await newTenantWithAdmin();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/auth/refresh', { cookies: { refreshToken: admin.cookies.refreshToken ?? '' } })),
    );
    const winners = responses.filter((response) => response.status === 200);
    expect(winners).toHaveLength(1);
    expect(responses.filter((response) => response.status === 401)).toHaveLength(19);
    const winner = cookiesFrom(winners[0] as (typeof responses)[number]);
    expect((await call('GET', '/auth/me', { cookies: { accessToken: winner.accessToken ?? '' } })).status).toBe(200);
    expect((await call('POST', '/auth/refresh', { cookies: { refreshToken: winner.refreshToken ?? '' } })).status).toBe(200);
  });

  it('treats a refresh token rotated out two generations ago as reuse and revokes the whole session', async () => {
    const admin = await newTenantWithAdmin();
    const first = admin.cookies.refreshToken ?? '';
    const second = cookiesFrom(await call('POST', '/auth/refresh', { cookies: { refreshToken: first } }));
    const third = cookiesFrom(await call('POST', '/auth/refresh', { cookies: { refreshToken: second.refreshToken ?? '' } }));
    expect((await call('GET', '/auth/me', { cookies: { accessToken: third.accessToken ?? '' } })).status).toBe(200);

    const replay = await call('POST', '/auth/refresh', { cookies: { refreshToken: first } });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(problem(401, 'unauthorized'));

    expect((await call('GET', '/auth/me', { cookies: { accessToken: third.accessToken ?? '' } })).status).toBe(401);
    expect((await call('POST', '/auth/refresh', { cookies: { refreshToken: third.refreshToken ?? '' } })).status).toBe(401);
  });

  it('answers a just-rotated token inside the grace period with 401 but keeps the session', async () => {
    const admin = await newTenantWithAdmin();
    const next = cookiesFrom(await call('POST', '/auth/refresh', { cookies: { refreshToken: admin.cookies.refreshToken ?? '' } }));
    const late = await call('POST', '/auth/refresh', { cookies: { refreshToken: admin.cookies.refreshToken ?? '' } });
    expect(late.status).toBe(401);
    expect((await call('GET', '/auth/me', { cookies: { accessToken: next.accessToken ?? '' } })).status).toBe(200);
  });
});

describe('POST /auth/sessions/revoke-others', () => {
  it('ends every other session of the caller at its next request; the current one goes on', async () => {
    const admin = await newTenantWithAdmin();
    const others = [await login(admin.email, admin.password), await login(admin.email, admin.password)];
    const current = await login(admin.email, admin.password);
    const stranger = await newTenantWithAdmin();

    const answer = await call('POST', '/auth/sessions/revoke-others', { cookies: current.cookies });
    expect(answer).toEqual(expect.objectContaining({ status: 200, body: { revoked: 3 } }));
    for (const other of [...others, { cookies: admin.cookies }]) {
      expect((await call('GET', '/auth/me', { cookies: other.cookies })).status).toBe(401);
    }
    expect((await call('GET', '/auth/me', { cookies: current.cookies })).status).toBe(200);
    expect((await call<{ current: boolean }[]>('GET', '/auth/sessions', { cookies: current.cookies })).body.map((session) => session.current)).toEqual([true]);
    // Another user's sessions are not the caller's.
    expect((await call('GET', '/auth/me', { cookies: stranger.cookies })).status).toBe(200);
    // Nothing left to end.
    expect((await call('POST', '/auth/sessions/revoke-others', { cookies: current.cookies })).body).toEqual({ revoked: 0 });
  });

  it('is never held back by the list: a thief polling GET /auth/sessions leaves the revocations their own 10 a minute', async () => {
    let statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const admin = await newTenantWithAdmin();
      const thief = await login(admin.email, admin.password);
      const minute = Math.floor(Date.now() / 60_000);
      statuses = [];
      // The list's counter is spent, and more.
      for (let index = 0; index < 12; index += 1) statuses.push((await call('GET', '/auth/sessions', { cookies: admin.cookies })).status);
      const stolen = String(decodeJwt(thief.cookies.accessToken ?? '').sessionId);
      statuses.push((await call('POST', `/auth/sessions/${stolen}/revoke`, { cookies: admin.cookies })).status);
      statuses.push((await call('POST', '/auth/sessions/revoke-others', { cookies: admin.cookies })).status);
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 200), 429, 429, 200, 200]);
  });

  it('counts each revocation route apart, 10 a minute per user', async () => {
    let statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const admin = await newTenantWithAdmin();
      const minute = Math.floor(Date.now() / 60_000);
      statuses = [];
      for (let index = 0; index < 11; index += 1) statuses.push((await call('POST', '/auth/sessions/revoke-others', { cookies: admin.cookies })).status);
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 200), 429]);
  });
});
