import { describe, expect, it } from 'vitest';
import { call, cookiesFrom, login, newTenantWithAdmin, outboxFor, problem, randomLoopback } from './api';

/**
 * POST /auth/change-password over HTTP: the current password checked under the
 * login throttle, the registration rules for the new one, every other session ended, the
 * caller going on with fresh cookies, and a notification e-mail.
 */
const NEW_PASSWORD = 'staple battery horse correct';

const change = (cookies: Record<string, string>, body: Record<string, unknown>, ip?: string) =>
  call('POST', '/auth/change-password', { cookies, body, ...(ip ? { ip } : {}) });

describe('POST /auth/change-password', () => {
  it('changes the password, ends every other session, and goes on with fresh cookies', async () => {
    const admin = await newTenantWithAdmin();
    const elsewhere = await login(admin.email, admin.password);

    const answer = await change(admin.cookies, { currentPassword: admin.password, newPassword: NEW_PASSWORD });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ user: { id: admin.userId, name: 'Admin', email: admin.email, tenantId: admin.tenantId } });
    const fresh = cookiesFrom(answer);
    expect(Object.keys(fresh).sort()).toEqual(['accessToken', 'refreshToken']);

    expect((await call('GET', '/auth/me', { cookies: fresh })).status).toBe(200);
    expect((await call('POST', '/auth/refresh', { cookies: fresh })).status).toBe(200);
    // The cookies it was called with, and every other session, end.
    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(401);
    expect((await call('GET', '/auth/me', { cookies: elsewhere.cookies })).status).toBe(401);
    expect((await call('POST', '/auth/refresh', { cookies: elsewhere.cookies })).status).toBe(401);

    expect((await login(admin.email, admin.password)).response.status).toBe(401);
    expect((await login(admin.email, NEW_PASSWORD)).response.status).toBe(200);
    expect(outboxFor(admin.email).map((message) => message.subject)).toContain('Your password was changed');
  });

  it('answers 400 naming currentPassword for a wrong one, and for a new one against the rules, changing nothing', async () => {
    const admin = await newTenantWithAdmin();
    const wrong = await change(admin.cookies, { currentPassword: 'not it at all', newPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(problem(400, 'validation', { errors: [{ field: 'currentPassword', message: 'is not the current password' }] }));
    const weak = await change(admin.cookies, { currentPassword: admin.password, newPassword: 'short' });
    expect(weak.status).toBe(400);
    expect((weak.body as { errors: { field: string }[] }).errors.map((error) => error.field)).toEqual(['newPassword']);
    expect((await change(admin.cookies, { currentPassword: admin.password })).status).toBe(400);

    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(200);
    expect((await login(admin.email, admin.password)).response.status).toBe(200);
  });

  it('checks the current password under the login throttle: wrong ones from one IP end in 429, for login too', async () => {
    // The throttle counts per 15-minute window of the clock: attempts that crossed a window's
    // end are made again, by a new user, until they fall within one.
    let admin = await newTenantWithAdmin();
    let ip = randomLoopback();
    let statuses: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      admin = await newTenantWithAdmin();
      ip = randomLoopback();
      const window = Math.floor(Date.now() / 900_000);
      statuses = [];
      for (let attempt = 0; attempt < 6; attempt += 1)
        statuses.push((await change(admin.cookies, { currentPassword: `wrong ${attempt}`, newPassword: NEW_PASSWORD }, ip)).status);
      if (Math.floor(Date.now() / 900_000) === window) break;
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    expect((await login(admin.email, admin.password, { ip })).response.status).toBe(429);
    // Another IP is another window.
    expect((await change(admin.cookies, { currentPassword: admin.password, newPassword: NEW_PASSWORD }, randomLoopback())).status).toBe(200);
  });
});
