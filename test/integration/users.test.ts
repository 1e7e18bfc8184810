import { describe, expect, it } from 'vitest';
import { allPages, call, cookiesFrom, invitationTokenFor, login, newTenantWithAdmin, problem, registerInvitee, uniqueEmail, type Account } from './api';

/**
 * Users of a tenant over HTTP: the list by name for its administrators, role
 * changes and removals, which take effect on the user's very next request, and a tenant that
 * always keeps one administrator, also under concurrent changes.
 */
const PASSWORD = 'correct horse battery';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface TenantUser {
  id: string;
  name: string;
  email: string;
  role: 'ADMIN' | 'MEMBER';
  createdAt: string;
  lastLoginAt: string | null;
  status: string;
}

/** An invited member of the admin's tenant, signed in. */
async function member(admin: Account, name: string): Promise<Account> {
  const email = uniqueEmail(name.toLowerCase().replace(/[^a-z]/g, ''));
  const registered = await registerInvitee(admin, email, PASSWORD, name);
  expect(registered.status).toBe(200);
  return {
    tenantId: admin.tenantId,
    userId: (registered.body as { user: { id: string } }).user.id,
    email,
    password: PASSWORD,
    cookies: cookiesFrom(registered),
  };
}

const users = (account: Account, query = '') => call<TenantUser[]>('GET', `/users${query}`, { cookies: account.cookies });
const setRole = (account: Account, userId: string, role: string) => call<TenantUser>('PATCH', `/users/${userId}`, { cookies: account.cookies, body: { role } });
const remove = (account: Account, userId: string) => call('DELETE', `/users/${userId}`, { cookies: account.cookies });
const me = (account: Account) => call('GET', '/auth/me', { cookies: account.cookies });

describe('GET /users', () => {
  it("lists the tenant's users by name, accent- and case-insensitive, in pages through Link", async () => {
    const admin = await newTenantWithAdmin();
    const zeca = await member(admin, 'Zeca Lima');
    const ana = await member(admin, 'ana Souza');
    const elio = await member(admin, 'Élio Prado');
    await login(elio.email, PASSWORD);

    const whole = await users(admin);
    expect(whole.status).toBe(200);
    expect(whole.body.map((user) => user.name)).toEqual(['Admin', 'ana Souza', 'Élio Prado', 'Zeca Lima']);
    const [adminView, anaView, elioView, zecaView] = whole.body;
    expect(adminView).toEqual({
      id: admin.userId,
      name: 'Admin',
      email: admin.email,
      role: 'ADMIN',
      createdAt: expect.stringMatching(ISO),
      lastLoginAt: null,
      status: 'ACTIVE',
    });
    expect(anaView).toEqual({
      id: ana.userId,
      name: 'ana Souza',
      email: ana.email,
      role: 'MEMBER',
      createdAt: expect.stringMatching(ISO),
      lastLoginAt: null,
      status: 'ACTIVE',
    });
    // Signing in with the password records it.
    expect(elioView?.lastLoginAt).toMatch(ISO);
    expect(zecaView?.id).toBe(zeca.userId);

    expect(await allPages<TenantUser>('/users?limit=1', admin.cookies)).toEqual({ items: whole.body, pages: 4 });
    expect(await allPages<TenantUser>('/users?limit=3', admin.cookies)).toEqual({ items: whole.body, pages: 2 });
  });

  it('is for tenant administrators only, and shows only their tenant', async () => {
    const admin = await newTenantWithAdmin();
    const someone = await member(admin, 'Bia Reis');
    const other = await newTenantWithAdmin();

    expect(await users(someone)).toEqual(expect.objectContaining({ status: 403, body: problem(403, 'forbidden') }));
    expect((await users(other)).body.map((user) => user.id)).toEqual([other.userId]);
  });
});

describe('PATCH /users/{id}', () => {
  it("changes a role, effective on the user's next request", async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');
    expect((await users(bia)).status).toBe(403);

    const promoted = await setRole(admin, bia.userId, 'ADMIN');
    expect(promoted.status).toBe(200);
    expect(promoted.body).toEqual({
      id: bia.userId,
      name: 'Bia Reis',
      email: bia.email,
      role: 'ADMIN',
      createdAt: expect.stringMatching(ISO),
      lastLoginAt: null,
      status: 'ACTIVE',
    });
    expect((await users(bia)).status).toBe(200);
    // The same role again changes nothing.
    expect((await setRole(admin, bia.userId, 'ADMIN')).body).toEqual(promoted.body);

    expect((await setRole(bia, admin.userId, 'MEMBER')).status).toBe(200);
    expect((await users(admin)).status).toBe(403);
  });

  it('refuses to leave the tenant without an administrator (409), and answers 400, 403 and 404 as it should', async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');

    expect(await setRole(admin, admin.userId, 'MEMBER')).toEqual(expect.objectContaining({ status: 409, body: problem(409, 'conflict') }));
    expect((await setRole(admin, bia.userId, 'OWNER')).status).toBe(400);
    expect((await call('PATCH', `/users/${bia.userId}`, { cookies: admin.cookies, body: { role: 'ADMIN', name: 'x' } })).status).toBe(400);
    expect((await setRole(bia, bia.userId, 'ADMIN')).status).toBe(403);
    const other = await newTenantWithAdmin();
    expect((await setRole(other, bia.userId, 'ADMIN')).status).toBe(404);
    expect((await setRole(admin, '00000000-0000-4000-8000-000000000000', 'ADMIN')).status).toBe(404);
    expect((await users(admin)).body.map((user) => user.role)).toEqual(['ADMIN', 'MEMBER']);
  });

  it('keeps one administrator when two demote each other at the same moment', async () => {
    for (let round = 0; round < 3; round += 1) {
      const admin = await newTenantWithAdmin();
      const bia = await member(admin, 'Bia Reis');
      expect((await setRole(admin, bia.userId, 'ADMIN')).status).toBe(200);

      const answers = await Promise.all([setRole(admin, bia.userId, 'MEMBER'), setRole(bia, admin.userId, 'MEMBER')]);
      // One demotion wins. The other is refused: 409 when its request was authorized before the
      // winner's transaction (the last-administrator condition fails), 403 when the authorizer
      // already read its caller demoted (a busy machine lets one request finish first).
      const [won, refused] = answers.map((answer) => answer.status).sort();
      expect(won).toBe(200);
      expect([403, 409]).toContain(refused);
      // The one whose demotion succeeded has demoted the other; exactly one administrator is left.
      const left = (await Promise.all([users(admin), users(bia)])).find((answer) => answer.status === 200);
      expect(left?.body.filter((user) => user.role === 'ADMIN')).toHaveLength(1);
    }
  });
});

describe('DELETE /users/{id}', () => {
  it('ends every session of the removed user at its next request, and its e-mail can be invited again', async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');
    const second = await login(bia.email, PASSWORD);
    expect((await me(bia)).status).toBe(200);

    expect(await remove(admin, bia.userId)).toEqual(expect.objectContaining({ status: 204 }));
    expect((await me(bia)).status).toBe(401);
    expect((await call('GET', '/auth/me', { cookies: second.cookies })).status).toBe(401);
    expect((await call('POST', '/auth/refresh', { cookies: second.cookies })).status).toBe(401);
    expect((await login(bia.email, PASSWORD)).response.status).toBe(401);
    expect((await users(admin)).body.map((user) => user.id)).toEqual([admin.userId]);
    expect((await remove(admin, bia.userId)).status).toBe(404);

    const again = await registerInvitee(admin, bia.email, PASSWORD, 'Bia Reis');
    expect(again.status).toBe(200);
    expect((await users(admin)).body.map((user) => user.email)).toEqual([admin.email, bia.email]);
  });

  it('refuses to remove the last administrator, also themselves, and is for administrators only', async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');
    expect(await remove(admin, admin.userId)).toEqual(expect.objectContaining({ status: 409, body: problem(409, 'conflict') }));
    expect((await remove(bia, admin.userId)).status).toBe(403);
    expect((await me(admin)).status).toBe(200);

    // With a second administrator, one may leave.
    expect((await setRole(admin, bia.userId, 'ADMIN')).status).toBe(200);
    expect((await remove(admin, admin.userId)).status).toBe(204);
    expect((await me(admin)).status).toBe(401);
    expect((await users(bia)).body.map((user) => [user.id, user.role])).toEqual([[bia.userId, 'ADMIN']]);
  });

  it('keeps one administrator when two remove each other at the same moment', async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');
    expect((await setRole(admin, bia.userId, 'ADMIN')).status).toBe(200);

    const answers = await Promise.all([remove(admin, bia.userId), remove(bia, admin.userId)]);
    // One removal wins; the other is refused as the last administrator, or finds its caller gone (401).
    expect(answers.map((answer) => answer.status).filter((status) => status === 204)).toHaveLength(1);
    const survivors = await Promise.all([me(admin), me(bia)]);
    expect(survivors.map((answer) => answer.status).sort()).toEqual([200, 401]);
  });
});

interface PendingInvitation {
  id: string;
  email: string;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

describe('GET /auth/invitations and DELETE /auth/invitations/{id}', () => {
  it('lists the pending invitations by e-mail, and a withdrawn one can no longer register anyone', async () => {
    const admin = await newTenantWithAdmin();
    const invite = async (email: string) => (await call<PendingInvitation>('POST', '/auth/invitations', { cookies: admin.cookies, body: { email } })).body;
    const [zoe, bob, used] = [uniqueEmail('zoe'), uniqueEmail('bob'), uniqueEmail('used')];
    const zoeInvitation = await invite(zoe);
    const bobInvitation = await invite(bob);
    // An invitation used by a registration is no longer pending.
    expect((await registerInvitee(admin, used, PASSWORD, 'Used')).status).toBe(200);

    const pending = await call<PendingInvitation[]>('GET', '/auth/invitations', { cookies: admin.cookies });
    expect(pending.status).toBe(200);
    const ours = pending.body.filter((invitation) => [zoe, bob, used].includes(invitation.email));
    expect(ours).toEqual(
      [
        {
          id: zoeInvitation.id,
          email: zoe,
          invitedBy: admin.userId,
          createdAt: expect.stringMatching(ISO),
          expiresAt: zoeInvitation.expiresAt,
          role: 'MEMBER',
        },
        {
          id: bobInvitation.id,
          email: bob,
          invitedBy: admin.userId,
          createdAt: expect.stringMatching(ISO),
          expiresAt: bobInvitation.expiresAt,
          role: 'MEMBER',
        },
      ].sort((a, b) => (a.email < b.email ? -1 : 1)),
    );
    expect((await allPages<PendingInvitation>('/auth/invitations?limit=1', admin.cookies)).items).toEqual(pending.body);

    const token = invitationTokenFor(bob);
    expect((await call('DELETE', `/auth/invitations/${bobInvitation.id}`, { cookies: admin.cookies })).status).toBe(204);
    expect((await call('DELETE', `/auth/invitations/${bobInvitation.id}`, { cookies: admin.cookies })).status).toBe(404);
    const refused = await call('POST', '/auth/register', {
      body: { name: 'Bob', email: bob, password: PASSWORD, tenantId: admin.tenantId, invitationToken: token },
    });
    expect(refused).toEqual(expect.objectContaining({ status: 403, body: problem(403, 'forbidden') }));
    expect((await call<PendingInvitation[]>('GET', '/auth/invitations', { cookies: admin.cookies })).body.map((invitation) => invitation.email)).not.toContain(
      bob,
    );
  });

  it('is for administrators of the tenant only', async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');
    const invitation = (await call<PendingInvitation>('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: uniqueEmail('x') } })).body;
    const other = await newTenantWithAdmin();

    expect((await call('GET', '/auth/invitations', { cookies: bia.cookies })).status).toBe(403);
    expect((await call('DELETE', `/auth/invitations/${invitation.id}`, { cookies: bia.cookies })).status).toBe(403);
    expect((await call('DELETE', `/auth/invitations/${invitation.id}`, { cookies: other.cookies })).status).toBe(404);
    expect((await call<PendingInvitation[]>('GET', '/auth/invitations', { cookies: other.cookies })).body).toEqual([]);
    expect((await call<PendingInvitation[]>('GET', '/auth/invitations', { cookies: admin.cookies })).body.map((entry) => entry.id)).toEqual([invitation.id]);
  });
});
