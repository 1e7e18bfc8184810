import { beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../lib/audit/model';
import { listSessionsOfUser } from '../../lib/auth/sessions-repository';
import { promoteOrCreateAdmin } from '../../tools/admin/create-admin';
import {
  call,
  cookiesFrom,
  login,
  newTenantWithAdmin,
  problem,
  registerInvitee,
  signInWithSecondFactor,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
  type Account,
  type ApiResponse,
} from './api';

/**
 * POST /users/{id}/anonymize over HTTP (LGPD Art. 18): a removed user's name leaves every
 * list of the trail GET /audit-events reads, ids, actions and times stay, other users'
 * entries are untouched, and a second call changes nothing but adds its own entry.
 */
const PASSWORD = 'correct horse battery';
const ANONYMIZED = 'Anonymized user';

beforeAll(async () => {
  await useLocalStoreInProcess();
});

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

const anonymize = (account: Account, userId: string) => call('POST', `/users/${userId}/anonymize`, { cookies: account.cookies });
/** Every entry GET /audit-events lists with these filters, newest first, following `nextCursor`. */
async function trail(admin: Account, query = ''): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: ApiResponse<{ items: AuditEntry[]; nextCursor: string | null }> = await call<{ items: AuditEntry[]; nextCursor: string | null }>(
      'GET',
      `/audit-events?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { cookies: admin.cookies },
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    entries.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return entries;
}

describe('POST /users/{id}/anonymize', () => {
  it("replaces a removed user's name in every list of the trail, once, and leaves everything else as it was", async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');
    const caio = await member(admin, 'Caio Lima');
    await login(bia.email, PASSWORD);
    await login(caio.email, PASSWORD);
    expect((await call('PATCH', `/users/${bia.userId}`, { cookies: admin.cookies, body: { role: 'ADMIN' } })).status).toBe(200);

    // A user who still exists is not anonymized.
    expect(await anonymize(admin, bia.userId)).toEqual(expect.objectContaining({ status: 409, body: problem(409, 'conflict') }));
    expect((await call('DELETE', `/users/${bia.userId}`, { cookies: admin.cookies })).status).toBe(204);
    const before = await trail(admin);
    const caioBefore = before.filter((entry) => entry.actor.id === caio.userId);
    expect(caioBefore.length).toBeGreaterThan(0);
    expect(before.filter((entry) => entry.actor.id === bia.userId).length).toBeGreaterThanOrEqual(2);

    const done = await anonymize(admin, bia.userId);

    const result = { id: bia.userId, name: ANONYMIZED, email: `anonymized+${bia.userId}@invalid`, complete: true };
    expect(done).toEqual(expect.objectContaining({ status: 200, body: result }));
    const after = await trail(admin);
    // The same entries (and the call's own), with the same ids, actions, resources and times; Bia's under the placeholder.
    const [own, ...rest] = after;
    expect(own).toEqual(
      expect.objectContaining({
        action: 'user.anonymized',
        resource: { type: 'user', id: bia.userId },
        actor: { type: 'user', id: admin.userId, name: 'Admin' },
        changes: null,
      }),
    );
    expect(rest).toEqual(before.map((entry) => (entry.actor.id === bia.userId ? { ...entry, actor: { ...entry.actor, name: ANONYMIZED } } : entry)));
    expect(rest.filter((entry) => entry.actor.id === caio.userId)).toEqual(caioBefore);
    // In every list a filter reads: the actor's, the resource's, by action and by type.
    for (const query of [
      `&actorId=${bia.userId}`,
      `&resourceId=${bia.userId}`,
      '&action=auth.login',
      '&resourceType=session',
      '&resourceType=user',
      '&action=user.registered',
    ]) {
      const listed = await trail(admin, query);
      expect(listed.length, query).toBeGreaterThan(0);
      expect(JSON.stringify(listed), query).not.toContain('Bia Reis');
      expect(JSON.stringify(listed), query).not.toContain(bia.email);
      expect(
        listed.filter((entry) => entry.actor.id === bia.userId).every((entry) => entry.actor.name === ANONYMIZED),
        query,
      ).toBe(true);
    }
    expect(JSON.stringify(await trail(admin, '&action=auth.login'))).toContain('Caio Lima');
    // What was left of Bia's sessions is gone.
    expect(await listSessionsOfUser(admin.tenantId, bia.userId)).toEqual([]);

    // Again: the same answer, and nothing written but its own entry.
    expect(await anonymize(admin, bia.userId)).toEqual(expect.objectContaining({ status: 200, body: result }));
    const again = await trail(admin);
    expect(again.slice(1)).toEqual(after);
    expect(again[0]?.action).toBe('user.anonymized');
  });

  it("answers 404 for an id the tenant's trail never saw (another tenant's user included) and 403 to a member", async () => {
    const admin = await newTenantWithAdmin();
    const bia = await member(admin, 'Bia Reis');
    expect((await call('DELETE', `/users/${bia.userId}`, { cookies: admin.cookies })).status).toBe(204);
    const other = await newTenantWithAdmin();
    const caio = await member(other, 'Caio Lima');

    expect(await anonymize(other, bia.userId)).toEqual(expect.objectContaining({ status: 404, body: problem(404, 'not-found') }));
    expect(await anonymize(admin, '00000000-0000-4000-8000-000000000000')).toEqual(expect.objectContaining({ status: 404, body: problem(404, 'not-found') }));
    expect(await anonymize(caio, bia.userId)).toEqual(expect.objectContaining({ status: 403, body: problem(403, 'forbidden') }));
    expect((await anonymize(admin, 'not-a-uuid')).status).toBe(400);
    // Nothing was anonymized by the refused calls.
    expect((await trail(admin, `&actorId=${bia.userId}`)).every((entry) => entry.actor.name === 'Bia Reis')).toBe(true);
  });

  it('answers 404 for a platform administrator who acted in the tenant, and leaves their entries named', async () => {
    const rootEmail = uniqueEmail('root');
    const root = await promoteOrCreateAdmin(
      { email: rootEmail, password: PASSWORD, name: 'Root Admin', tenantName: uniqueName('platform'), promote: false },
      Date.now(),
    );
    const signedIn = await signInWithSecondFactor(rootEmail, PASSWORD, root.secondFactor.secret);
    const rootId = (signedIn.response.body as { user: { id: string } }).user.id;
    const admin = await newTenantWithAdmin();
    expect((await call('PATCH', `/tenants/${admin.tenantId}`, { cookies: signedIn.cookies, body: { brandName: 'Loja Renomeada' } })).status).toBe(200);
    const before = await trail(admin, `&actorId=${rootId}`);
    expect(before.map((entry) => entry.actor.name)).toEqual(['Root Admin']);

    expect(await anonymize(admin, rootId)).toEqual(expect.objectContaining({ status: 404, body: problem(404, 'not-found') }));
    expect(await trail(admin, `&actorId=${rootId}`)).toEqual(before);
    expect(await trail(admin, `&action=user.anonymized`)).toEqual([]);
  });
});
