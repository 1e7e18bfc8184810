import { describe, expect, it } from 'vitest';
import { call, linkParameter, login, newTenantWithAdmin, outboxFor, problem, uniqueEmail } from './api';

describe('POST /auth/invitations', () => {
  it('lets a tenant administrator invite an e-mail, which may then register once', async () => {
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

    const registered = await call('POST', '/auth/register', { body: { name: 'Invitee', email, password: 'invited password', tenantId: admin.tenantId } });
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
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) => call('POST', '/auth/register', { body: { name: `N${index}`, email, password: 'invited password', tenantId: admin.tenantId } })),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(1);
  });

  it('does not let an invitation into one tenant open another', async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const email = uniqueEmail('cross');
    await call('POST', '/auth/invitations', { cookies: a.cookies, body: { email } });
    const response = await call('POST', '/auth/register', { body: { name: 'X', email, password: 'invited password', tenantId: b.tenantId } });
    expect(response.status).toBe(403);
  });

  it('answers 409 for an e-mail that already has an account, and 400 for a bad one', async () => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const taken = await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: other.email } });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual(problem(409, 'conflict'));
    const bad = await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: 'bad' } });
    expect(bad.status).toBe(400);
  });
});
