import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeAt } from '../../lib/auth/totp';
import type { AuditEntry } from '../../lib/audit/model';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { readAuditPage } from '../../lib/audit/repository';
import { listSessionsOfUser } from '../../lib/auth/sessions-repository';
import {
  call,
  clearOfWindowEnd,
  cookiesFrom,
  invitationTokenFor,
  newTenantWithAdmin,
  registerInvitee,
  signInWithSecondFactor,
  uniqueEmail,
  useLocalStoreInProcess,
  type Account,
} from './api';

/**
 * GET /auth/me/data over HTTP (LGPD Art. 19): the signed-in user's whole copy, with all of
 * theirs, none of another user's and no secret: each secret the table holds for the user is
 * read from it here and looked for in the answer's text.
 */
const PASSWORD = 'correct horse battery';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  await useLocalStoreInProcess();
});

const item = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

/** Every entry of the user's actor list in the tenant's trail, newest first. */
async function entriesOfActor(tenantId: string, userId: string): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let after: Record<string, string> | undefined;
  do {
    const page = await readAuditPage({ tenantId }, { filter: { actorId: userId }, fromSk: '0', toSk: '~', limit: 100, ...(after ? { after } : {}) });
    entries.push(...page.entries);
    after = page.next;
  } while (after);
  return entries;
}

const myData = (cookies: Record<string, string>) => call<Record<string, unknown>>('GET', '/auth/me/data', { cookies });

describe('GET /auth/me/data', () => {
  it("holds all of the caller's data, none of another user's and no secret", async () => {
    const owner = await newTenantWithAdmin();
    // Another user of the tenant, who acts too.
    const otherEmail = uniqueEmail('other');
    const other = await registerInvitee(owner, otherEmail, PASSWORD, 'Other Person');
    expect(other.status).toBe(200);
    const otherId = (other.body as { user: { id: string } }).user.id;
    expect((await call('GET', '/auth/sessions', { cookies: cookiesFrom(other) })).status).toBe(200);

    // A second factor (its confirmation keeps one session), then a second session through it.
    const { secret } = (await call<{ secret: string }>('POST', '/auth/mfa/totp', { cookies: owner.cookies, body: { password: PASSWORD } })).body;
    const confirmed = await call<{ recoveryCodes: string[] }>('POST', '/auth/mfa/totp/confirm', {
      cookies: owner.cookies,
      body: { code: codeAt(secret, Date.now()) },
    });
    expect(confirmed.status).toBe(200);
    const second = await signInWithSecondFactor(owner.email, PASSWORD, secret, { codeAtMs: Date.now() + 30_000, rememberMe: true });
    expect(second.response.status).toBe(200);
    // An invitation the owner sent, still pending.
    const inviteeEmail = uniqueEmail('invitee');
    const invited = await call<{ id: string }>('POST', '/auth/invitations', { cookies: second.cookies, body: { email: inviteeEmail } });
    expect(invited.status).toBe(201);

    const response = await myData(second.cookies);

    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = response.body as {
      sessions: { id: string; current: boolean; status: string; rememberMe: boolean }[];
      auditEntries: AuditEntry[];
      invitations: { received: unknown[]; sent: { id: string }[] };
    };
    const sessionItems = (await listSessionsOfUser(owner.tenantId, owner.userId)).filter((session) => session.expiresAt > new Date().toISOString());
    expect(sessionItems.length).toBeGreaterThanOrEqual(2);
    const ownEntries = await entriesOfActor(owner.tenantId, owner.userId);
    expect(body).toEqual({
      generatedAt: expect.stringMatching(ISO),
      user: {
        id: owner.userId,
        tenantId: owner.tenantId,
        tenantName: expect.any(String),
        name: 'Admin',
        email: owner.email,
        role: 'ADMIN',
        platformAdmin: false,
        sessionsValidFrom: expect.stringMatching(ISO),
        credentialVersion: expect.any(Number),
        sessionCount: expect.any(Number),
        sessionOpenings: expect.any(Number),
        lastLoginAt: expect.stringMatching(ISO),
        totpEnabledAt: expect.stringMatching(ISO),
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
      sessions: expect.any(Array),
      secondFactor: { enabled: true, enabledAt: expect.stringMatching(ISO), recoveryCodesRemaining: confirmed.body.recoveryCodes.length },
      invitations: {
        received: [],
        sent: [
          { id: invited.body.id, email: inviteeEmail, invitedBy: owner.userId, createdAt: expect.stringMatching(ISO), expiresAt: expect.stringMatching(ISO) },
        ],
      },
      auditEntries: ownEntries,
      auditEntriesTruncated: false,
      auditEntriesRest: null,
    });
    // Every session item of the owner not expired, the one in use marked, and the remembered one as such.
    expect(body.sessions.map((session) => session.id).sort()).toEqual(sessionItems.map((session) => session.id).sort());
    expect(body.sessions.filter((session) => session.current)).toEqual([expect.objectContaining({ rememberMe: true, status: 'ACTIVE' })]);
    // The owner's own entries: their registration, the second factor, the sign-in and the invitation among them.
    expect(ownEntries.every((entry) => entry.actor.id === owner.userId)).toBe(true);
    for (const action of ['auth.mfa_enabled', 'auth.login', 'invitation.created']) expect(ownEntries.map((entry) => entry.action)).toContain(action);

    // No secret the table holds for the owner, and nothing of the other user.
    const credentials = (await item(keys.credentials(owner.tenantId, owner.userId))) ?? {};
    const invitation = (await item(keys.invitation(owner.tenantId, inviteeEmail))) ?? {};
    const secrets = [
      PASSWORD,
      secret,
      String(credentials.passwordHash),
      String(credentials.totpSecret),
      ...[...((credentials.recoveryCodeHashes as Set<string> | string[] | undefined) ?? [])],
      ...confirmed.body.recoveryCodes,
      ...sessionItems.flatMap((session) => [session.refreshJti, ...(session.previousRefreshJti ? [session.previousRefreshJti] : [])]),
      String(invitation.tokenHash),
      String(invitationTokenFor(inviteeEmail)),
      ...Object.values(second.cookies).filter((value) => value !== ''),
      otherId,
      otherEmail,
    ];
    expect(credentials.passwordHash).toEqual(expect.any(String));
    expect(invitation.tokenHash).toEqual(expect.any(String));
    const text = JSON.stringify(response.body);
    for (const value of secrets) {
      expect(value.length, 'a secret worth looking for').toBeGreaterThan(8);
      expect(text, value).not.toContain(value);
    }
  });

  it("is the caller's alone, for a signed-in user, 5 times an hour", async () => {
    await clearOfWindowEnd(3600);
    const owner: Account = await newTenantWithAdmin();
    for (let request = 0; request < 5; request += 1) expect((await myData(owner.cookies)).status).toBe(200);
    const refused = await myData(owner.cookies);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
    expect((await call('GET', '/auth/me/data')).status).toBe(401);
  });
});
