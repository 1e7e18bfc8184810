import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../lib/auth/totp';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { getTenant } from '../../lib/tenants/repository';
import { routeList, type RouteId } from '../../lib/routes';
import { promoteOrCreateAdmin } from '../../tools/admin/create-admin';
import {
  allowedOrigin,
  call,
  cookiesFrom,
  invitationTokenFor,
  linkParameter,
  login,
  newTenantWithAdmin,
  outboxFor,
  registerInvitee,
  signInWithSecondFactor,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
  type ApiResponse,
} from './api';

/**
 * A closed tenant changes nothing, whoever knocks: every public route (the ones no session
 * guards, so each must check the tenant itself) is tried for a closed tenant's users with what
 * they held from before the close (a refresh cookie, an invitation, a second-factor
 * challenge, a reset link), and each refuses, or answers as for an unknown address, and
 * writes nothing. A public route added to the manifest without a scenario here fails the test.
 */

beforeAll(() => useLocalStoreInProcess());

const PASSWORD = 'correct horse battery';

interface Held {
  tenantId: string;
  tenantName: string;
  adminEmail: string;
  /** The administrator's cookies from before the close: its refresh token among them. */
  adminCookies: Record<string, string>;
  /** An address invited before the close, and its token. */
  invitee: { email: string; token: string };
  /** A member with a second factor, and the challenge cookie of a login begun before the close. */
  member: { email: string; secret: string; challenge: string };
  /** A reset link mailed to the administrator before the close. */
  resetToken: string;
  /** The administrator's password hash as it was at the close. */
  passwordHash: unknown;
}

const credentialsOf = async (tenantId: string, userId: string) =>
  (await db().send(new GetCommand({ TableName: tableName(), Key: keys.credentials(tenantId, userId) }))).Item;

/** A tenant whose users hold every public route's credential, then closed by a platform administrator. */
async function closedTenant(): Promise<Held> {
  const rootEmail = uniqueEmail('root');
  const root = await promoteOrCreateAdmin(
    { email: rootEmail, password: PASSWORD, name: 'Root', tenantName: uniqueName('platform'), promote: false },
    Date.now(),
  );
  const rootCookies = (await signInWithSecondFactor(rootEmail, PASSWORD, root.secondFactor.secret)).cookies;

  const admin = await newTenantWithAdmin();
  const tenantName = String((await getTenant(admin.tenantId))?.name);
  const memberEmail = uniqueEmail('member');
  const member = await registerInvitee(admin, memberEmail, PASSWORD, 'Member');
  expect(member.status).toBe(200);
  const started = await call<{ secret: string }>('POST', '/auth/mfa/totp', { cookies: cookiesFrom(member), body: { password: PASSWORD } });
  expect((await call('POST', '/auth/mfa/totp/confirm', { cookies: cookiesFrom(member), body: { code: codeAt(started.body.secret, Date.now()) } })).status).toBe(
    200,
  );
  const challenge = cookiesFrom((await login(memberEmail, PASSWORD)).response).mfaChallenge;
  expect(challenge).toBeTruthy();

  const inviteeEmail = uniqueEmail('invitee');
  expect((await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: inviteeEmail } })).status).toBe(201);
  expect((await call('POST', '/auth/forgot-password', { body: { email: admin.email } })).status).toBe(200);
  const resetMail = outboxFor(admin.email)
    .filter((message) => message.text.includes('reset-password'))
    .at(-1);
  const resetToken = resetMail ? linkParameter(resetMail, 'token') : null;
  expect(resetToken).toBeTruthy();

  expect((await call('POST', `/tenants/${admin.tenantId}/close`, { cookies: rootCookies })).status).toBe(200);
  return {
    tenantId: admin.tenantId,
    tenantName,
    adminEmail: admin.email,
    adminCookies: admin.cookies,
    invitee: { email: inviteeEmail, token: String(invitationTokenFor(inviteeEmail)) },
    member: { email: memberEmail, secret: started.body.secret, challenge: String(challenge) },
    resetToken: String(resetToken),
    passwordHash: (await credentialsOf(admin.tenantId, admin.userId))?.passwordHash,
  };
}

const refused = (response: ApiResponse, status: number) => expect(response.status, JSON.stringify(response.body)).toBe(status);

/** Each public route, tried for the closed tenant: what it must answer, and that it wrote nothing. */
const SCENARIOS: Record<
  Extract<RouteId, 'createTenant' | 'register' | 'login' | 'refresh' | 'verifySecondFactor' | 'forgotPassword' | 'resetPassword'>,
  (held: Held) => Promise<void>
> = {
  // A sign-up makes a new tenant, never reaches a closed one: its name stays taken.
  createTenant: async (held) => {
    refused(await call('POST', '/tenants', { body: { name: held.tenantName, plan: 'STARTER', adminEmail: uniqueEmail('taker') } }), 409);
  },
  // As for a tenant that does not exist.
  register: async (held) => {
    refused(
      await call('POST', '/auth/register', {
        body: { name: 'Late', email: held.invitee.email, password: PASSWORD, tenantId: held.tenantId, invitationToken: held.invitee.token },
      }),
      404,
    );
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(held.invitee.email) }))).Item).toBeUndefined();
  },
  login: async (held) => {
    refused((await login(held.adminEmail, PASSWORD)).response, 401);
  },
  refresh: async (held) => {
    refused(await call('POST', '/auth/refresh', { cookies: held.adminCookies, headers: { origin: allowedOrigin() } }), 401);
  },
  verifySecondFactor: async (held) => {
    refused(
      await call('POST', '/auth/mfa/verify', {
        cookies: { mfaChallenge: held.member.challenge },
        body: { code: codeAt(held.member.secret, Date.now() + 30_000) },
        headers: { origin: allowedOrigin() },
      }),
      401,
    );
  },
  // Before forgotPassword's scenario, which (were it to mail a new link) would replace this one.
  // The link mailed before the close no longer works, and the password stays.
  resetPassword: async (held) => {
    refused(await call('POST', '/auth/reset-password', { body: { token: held.resetToken, newPassword: 'another horse battery' } }), 400);
    const admin = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(held.adminEmail) }))).Item;
    expect((await credentialsOf(held.tenantId, String(admin?.userId)))?.passwordHash).toEqual(held.passwordHash);
  },
  // As for an unknown address: the same 200, and no mail.
  forgotPassword: async (held) => {
    const before = outboxFor(held.adminEmail).length;
    expect(await call('POST', '/auth/forgot-password', { body: { email: held.adminEmail } })).toMatchObject({ status: 200 });
    expect(outboxFor(held.adminEmail)).toHaveLength(before);
  },
};

describe('a closed tenant, at every public route', () => {
  let held: Held;
  beforeAll(async () => {
    held = await closedTenant();
  }, 120_000);

  it('has a scenario for each public route of the manifest', () => {
    expect(Object.keys(SCENARIOS).sort()).toEqual(
      routeList()
        .filter((route) => route.auth === 'public')
        .map((route) => route.id)
        .sort(),
    );
  });

  it.each(Object.entries(SCENARIOS))('%s refuses it and writes nothing', async (_route, scenario) => {
    await scenario(held);
  });
});
