import { beforeAll, describe, expect, it } from 'vitest';
import { authorize } from '../../lib/auth/authorize';
import { inviteUser } from '../../lib/auth/invitations';
import { requestPasswordReset, resetPassword } from '../../lib/auth/password-reset';
import { register } from '../../lib/auth/registration';
import { refreshSession, REFRESH_GRACE_SECONDS } from '../../lib/auth/sessions';
import { listSessionsOfUser } from '../../lib/auth/sessions-repository';
import { Forbidden, Unauthorized, ValidationError } from '../../lib/errors';
import { createTenant } from '../../lib/tenants/service';
import { routeLimit } from '../../lib/rate-limit';
import { routes } from '../../lib/routes';
import { invitationTokenFor, linkParameter, outboxFor, uniqueEmail, uniqueName, useLocalStoreInProcess } from './api';

/**
 * Time-dependent rules, exercised in process against the same DynamoDB Local as the HTTP
 * tests, with the clock passed in: no test waits for time to pass.
 */
const client = { ip: '127.0.0.1', userAgent: 'clock-test' };
const SECOND = 1000;

beforeAll(useLocalStoreInProcess);

/** The registration's per-IP attempt limit (the manifest's); each test's calls come from one address. */
const attempts = routeLimit(routes.register, 'ip');

async function newAccount(nowMs: number) {
  const email = uniqueEmail('clock');
  const tenant = await createTenant({ name: uniqueName('clock'), plan: 'STARTER', adminEmail: email }, nowMs);
  const { user, tokens } = await register(
    { name: 'Clock', email, password: 'clock password', tenantId: tenant.id, invitationToken: invitationTokenFor(email) ?? '' },
    client,
    nowMs,
    attempts,
  );
  return { tenant, user, email, tokens };
}

describe('refresh reuse after the grace period', () => {
  it(`revokes the whole session when a rotated token comes back more than ${REFRESH_GRACE_SECONDS} s later`, async () => {
    const start = Date.now();
    const { tokens } = await newAccount(start);
    const rotated = await refreshSession(tokens.refreshToken, start + 1 * SECOND);

    await expect(refreshSession(tokens.refreshToken, start + (REFRESH_GRACE_SECONDS + 2) * SECOND)).rejects.toBeInstanceOf(Unauthorized);
    await expect(authorize(rotated.tokens.accessToken, start + 13 * SECOND)).rejects.toBeInstanceOf(Unauthorized);
    await expect(refreshSession(rotated.tokens.refreshToken, start + 14 * SECOND)).rejects.toBeInstanceOf(Unauthorized);
  });

  it('keeps the session when the rotated token comes back within the grace period', async () => {
    const start = Date.now();
    const { tokens } = await newAccount(start);
    const rotated = await refreshSession(tokens.refreshToken, start);
    await expect(refreshSession(tokens.refreshToken, start + (REFRESH_GRACE_SECONDS - 1) * SECOND)).rejects.toBeInstanceOf(Unauthorized);
    await expect(authorize(rotated.tokens.accessToken, start + REFRESH_GRACE_SECONDS * SECOND)).resolves.toMatchObject({ sessionId: expect.any(String) });
  });
});

describe('absolute session expiry', () => {
  it('refuses a refresh after 12 hours whatever the refreshes in between', async () => {
    const start = Date.now();
    const { tokens } = await newAccount(start);
    const hour = 3600 * SECOND;
    const a = await refreshSession(tokens.refreshToken, start + 5 * hour);
    const b = await refreshSession(a.tokens.refreshToken, start + 11 * hour);
    await expect(refreshSession(b.tokens.refreshToken, start + 12 * hour + SECOND)).rejects.toBeInstanceOf(Unauthorized);
  });
});

describe('lastActiveAt', () => {
  it('moves at most once a minute', async () => {
    const start = Date.now();
    const { user, tokens } = await newAccount(start);
    const lastActive = async () => (await listSessionsOfUser(user.tenantId, user.id))[0]?.lastActiveAt;

    await authorize(tokens.accessToken, start + 30 * SECOND);
    expect(await lastActive()).toBe(new Date(start).toISOString());
    await authorize(tokens.accessToken, start + 61 * SECOND);
    expect(await lastActive()).toBe(new Date(start + 61 * SECOND).toISOString());
    await authorize(tokens.accessToken, start + 90 * SECOND);
    expect(await lastActive()).toBe(new Date(start + 61 * SECOND).toISOString());
  });
});

describe('expiring tokens', () => {
  it('refuses a reset token after 30 minutes', async () => {
    const start = Date.now();
    const { email } = await newAccount(start);
    await requestPasswordReset(email, start, routeLimit(routes.forgotPassword, 'email'));
    // The newest message: the sign-up's invitation came before it.
    const mail = outboxFor(email).at(-1);
    const token = mail ? linkParameter(mail, 'token') : null;
    expect(token).toEqual(expect.any(String));

    await expect(resetPassword({ token: token ?? '', newPassword: 'late new password' }, start + 31 * 60 * SECOND)).rejects.toBeInstanceOf(ValidationError);
    await expect(resetPassword({ token: token ?? '', newPassword: 'timely new password' }, start + 29 * 60 * SECOND)).resolves.toBeUndefined();
  });

  it('refuses an invitation after 7 days', async () => {
    const start = Date.now();
    const { tenant, tokens } = await newAccount(start);
    const principal = await authorize(tokens.accessToken, start);
    const email = uniqueEmail('late');
    await inviteUser(principal, email, start - 7 * 24 * 3600 * SECOND - SECOND);
    const invitationToken = invitationTokenFor(email) ?? '';
    expect(invitationToken).not.toBe('');
    await expect(
      register({ name: 'Late', email, password: 'late password', tenantId: tenant.id, invitationToken }, client, start, attempts),
    ).rejects.toBeInstanceOf(Forbidden);
    // One second earlier it was still pending.
    await expect(
      register({ name: 'Late', email, password: 'late password', tenantId: tenant.id, invitationToken }, client, start - 2 * SECOND, attempts),
    ).resolves.toMatchObject({
      user: { email },
    });
  });
});
