import { describe, expect, it } from 'vitest';
import { call, invitationTokenFor, linkParameter, login, newTenantWithAdmin, outboxFor, problem, uniqueEmail } from './api';

describe('POST /auth/invitations', () => {
  it('lets a tenant administrator invite an e-mail, which may then register once with the mailed token', async () => {
    const admin = await newTenantWithAdmin();
    const email = uniqueEmail('invitee');
    const response = await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: email.toUpperCase() } });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: expect.any(String), email, expiresAt: expect.any(String) });
    const days = (Date.parse(response.body.expiresAt as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const [mail] = outboxFor(email);
    expect(mail?.subject).toBe('You are invited to the back-office');
    expect(mail ? linkParameter(mail, 'tenantId') : null).toBe(admin.tenantId);
    expect(mail ? linkParameter(mail, 'email') : null).toBe(email);
    const token = mail ? linkParameter(mail, 'token') : null;
    // 32 random bytes, base64url.
    expect(token).toMatch(/^[\w-]{43}$/);

    const registered = await call('POST', '/auth/register', {
      body: { name: 'Invitee', email, password: 'invited password', tenantId: admin.tenantId, invitationToken: token },
    });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ user: { id: expect.any(String), name: 'Invitee', email, tenantId: admin.tenantId } });

    // A member, not an administrator: may not invite.
    const member = await login(email, 'invited password');
    const refused = await call('POST', '/auth/invitations', { cookies: member.cookies, body: { email: uniqueEmail() } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(problem(403, 'forbidden'));
  });

  it('lets an invitation be used once', async () => {
    const admin = await newTenantWithAdmin();
    const email = uniqueEmail('once');
    await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email } });
    const invitationToken = invitationTokenFor(email);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) =>
        call('POST', '/auth/register', { body: { name: `N${index}`, email, password: 'invited password', tenantId: admin.tenantId, invitationToken } }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
  });

  it('does not let an invitation into one tenant open another, even with its token', async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const email = uniqueEmail('cross');
    await call('POST', '/auth/invitations', { cookies: a.cookies, body: { email } });
    const response = await call('POST', '/auth/register', {
      body: { name: 'X', email, password: 'invited password', tenantId: b.tenantId, invitationToken: invitationTokenFor(email) },
    });
    expect(response.status).toBe(403);
  });

  it('answers 201 for an address that already has an account too, mailing its owner a notice without a token', async () => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const taken = await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: other.email } });
    expect(taken.status).toBe(201);
    expect(taken.body).toEqual({ id: expect.any(String), email: other.email, expiresAt: expect.any(String) });

    // The newest message: the owner's own sign-up invitation came before it.
    const notice = outboxFor(other.email).at(-1);
    expect(notice?.text).toContain('already has an account');
    expect(notice?.text).not.toMatch(/https?:\/\//);
    // The owner's account is untouched.
    expect((await login(other.email, other.password)).response.status).toBe(200);
  });

  it('answers 400 for an address that is not an e-mail', async () => {
    const admin = await newTenantWithAdmin();
    const bad = await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: 'bad' } });
    expect(bad.status).toBe(400);
  });
});
