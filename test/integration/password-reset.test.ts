import { describe, expect, it } from 'vitest';
import { call, linkParameter, login, newTenantWithAdmin, outboxFor, problem, randomLoopback, uniqueEmail } from './api';

const NEW_PASSWORD = 'a brand new passphrase';

async function requestReset(email: string, ip = randomLoopback()) {
  return call('POST', '/auth/forgot-password', { body: { email }, ip });
}

function latestToken(email: string): string {
  const messages = outboxFor(email).filter((message) => message.subject === 'Reset your password');
  const token = messages.length ? linkParameter(messages[messages.length - 1] as (typeof messages)[number], 'token') : null;
  if (!token) throw new Error(`no reset mail for ${email}`);
  return token;
}

describe('POST /auth/forgot-password', () => {
  it('answers the same 200 for a known and an unknown address, and mails only the known one', async () => {
    const admin = await newTenantWithAdmin();
    const ghost = uniqueEmail('ghost');
    const known = await requestReset(admin.email);
    const unknown = await requestReset(ghost);

    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ message: expect.any(String) });
    expect(unknown.body).toEqual(known.body);
    expect(outboxFor(ghost)).toEqual([]);
    // The newest message: the sign-up's invitation came before it.
    const mail = outboxFor(admin.email).at(-1);
    expect(mail).toEqual({ to: admin.email, subject: 'Reset your password', text: expect.any(String), html: expect.any(String), sentAt: expect.any(String) });
    expect(mail?.text).toMatch(/^https?:\/\/\S+\/reset-password\?token=[\w-]{43}$/m);
  });

  it('answers 429 with Retry-After on the 4th request in an hour from one IP', async () => {
    const ip = randomLoopback();
    const responses = await Promise.all(Array.from({ length: 20 }, () => requestReset(uniqueEmail(), ip)));
    expect(responses.filter((response) => response.status === 200)).toHaveLength(3);
    const limited = responses.filter((response) => response.status === 429);
    expect(limited).toHaveLength(17);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(limited[0]?.body).toEqual(problem(429, 'rate-limited'));
  });

  it('answers 400 for an invalid e-mail', async () => {
    const response = await requestReset('nope');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'email', message: expect.any(String) }] }));
  });
});

describe('POST /auth/reset-password', () => {
  it('sets the new password, signs out every session, and sends a notification', async () => {
    const admin = await newTenantWithAdmin();
    const other = await login(admin.email, admin.password);
    await requestReset(admin.email);

    const response = await call('POST', '/auth/reset-password', { body: { token: latestToken(admin.email), newPassword: NEW_PASSWORD } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.any(String) });

    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(401);
    expect((await call('GET', '/auth/me', { cookies: other.cookies })).status).toBe(401);
    expect((await call('POST', '/auth/refresh', { cookies: admin.cookies })).status).toBe(401);
    expect((await login(admin.email, admin.password)).response.status).toBe(401);
    const fresh = await login(admin.email, NEW_PASSWORD);
    expect(fresh.response.status).toBe(200);
    const sessions = await call<unknown[]>('GET', '/auth/sessions', { cookies: fresh.cookies });
    expect(sessions.body).toHaveLength(1);
    expect(outboxFor(admin.email).map((message) => message.subject)).toEqual([
      'You are invited to the back-office',
      'Reset your password',
      'Your password was changed',
    ]);
  });

  it('uses a token once: of two concurrent uses one wins, and a later use is a 400', async () => {
    const admin = await newTenantWithAdmin();
    await requestReset(admin.email);
    const token = latestToken(admin.email);
    const [a, b] = await Promise.all([
      call('POST', '/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } }),
      call('POST', '/auth/reset-password', { body: { token, newPassword: 'another new passphrase' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
    const again = await call('POST', '/auth/reset-password', { body: { token, newPassword: 'third new passphrase' } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual(problem(400, 'validation', { errors: [{ field: 'token', message: expect.any(String) }] }));
  });

  it('invalidates an older token when a newer one is requested', async () => {
    const admin = await newTenantWithAdmin();
    await requestReset(admin.email);
    const older = latestToken(admin.email);
    await requestReset(admin.email);
    const newer = latestToken(admin.email);
    expect(newer).not.toBe(older);

    expect((await call('POST', '/auth/reset-password', { body: { token: older, newPassword: NEW_PASSWORD } })).status).toBe(400);
    expect((await call('POST', '/auth/reset-password', { body: { token: newer, newPassword: NEW_PASSWORD } })).status).toBe(200);
  });

  it('answers 400 for an unknown token and for a new password that breaks the policy, changing nothing', async () => {
    const admin = await newTenantWithAdmin();
    await requestReset(admin.email);
    const unknown = await call('POST', '/auth/reset-password', { body: { token: 'x'.repeat(43), newPassword: NEW_PASSWORD } });
    expect(unknown.status).toBe(400);
    const weak = await call('POST', '/auth/reset-password', { body: { token: latestToken(admin.email), newPassword: 'short' } });
    expect(weak.status).toBe(400);
    expect(weak.body).toEqual(problem(400, 'validation', { errors: [{ field: 'newPassword', message: expect.any(String) }] }));
    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(200);
    expect((await login(admin.email, admin.password)).response.status).toBe(200);
  });
});
