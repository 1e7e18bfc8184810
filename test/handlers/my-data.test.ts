import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/get-my-data';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { storedCredentials, storedInvitation, storedSession, storedTenant, storedUser, STORED_AT } from '../support/items';
import { testPrincipal } from '../support/principal';
import { counterKey, takeSlot, windowAt } from '../support/rate-limits';
import { jsonHeaders, parsed } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const REQUEST_ID = 'my-data-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const HOUR = 3_600_000;
const later = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

const principal: Principal = testPrincipal({ tokenExpiresAt: NOW.getTime() / 1000 + 600 });
const { tenantId, userId } = principal;
/** The administrator who invited the caller's address. */
const otherUser = randomUUID();

/** The secrets the seeded items hold, none of which the document may show. */
const SECRETS = {
  passwordHash: '$2b$12$abcdefghijklmnopqrstuuN6g0v1S5b9t3cZ0m1pQ2r3s4t5u6v7w',
  totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  recoveryHashes: ['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', '60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752'],
  refreshJti: 'c4b3a291-8f7e-4d6c-9b5a-493827160504',
  previousRefreshJti: 'd5c4b3a2-918f-4e7d-8c6b-5a4938271605',
  sentTokenHash: 'aa11bb22cc33dd44ee55ff6600112233445566778899aabbccddeeff00112233',
  receivedTokenHash: 'ff11bb22cc33dd44ee55ff6600112233445566778899aabbccddeeff00112299',
};

const user = storedUser(tenantId, userId, {
  name: principal.name,
  email: principal.email,
  totpEnabledAt: '2026-11-01T10:00:00.000Z',
  lastLoginAt: '2026-11-21T22:00:00.000Z',
  sessionOpenings: 4,
  recoveryCodesLeft: 2,
});
const current = storedSession(tenantId, userId, principal.sessionId, {
  createdAt: later(-HOUR),
  expiresAt: later(11 * HOUR),
  refreshJti: SECRETS.refreshJti,
  previousRefreshJti: SECRETS.previousRefreshJti,
  rotatedAt: later(-HOUR / 2),
});
const revoked = storedSession(tenantId, userId, randomUUID(), {
  createdAt: later(-2 * HOUR),
  expiresAt: later(10 * HOUR),
  status: 'REVOKED',
  revokedAt: later(-HOUR),
  rememberMe: true,
  userAgent: 'curl/8.5.0',
});
const expired = storedSession(tenantId, userId, randomUUID(), { createdAt: later(-20 * HOUR), expiresAt: later(-8 * HOUR) });
const received = storedInvitation(tenantId, principal.email, SECRETS.receivedTokenHash, {
  id: randomUUID(),
  invitedBy: otherUser,
  mailedAt: '2026-11-20T10:00:00.000Z',
});
const sent = storedInvitation(tenantId, 'bia@acme.example', SECRETS.sentTokenHash, {
  id: randomUUID(),
  invitedBy: userId,
  mailedAt: '2026-11-21T10:00:00.000Z',
});
const entry = (occurredAt: string) => ({
  pk: keys.auditOfActor({ tenantId }, userId).pk,
  sk: `${occurredAt}#x`,
  type: 'AuditEntry',
  id: randomUUID(),
  occurredAt,
  actor: { type: 'user', id: userId, name: principal.name },
  action: 'auth.login',
  resource: { type: 'session', id: principal.sessionId },
  requestId: 'r-1',
  changes: null,
  ttl: 1_900_000_000,
});
const entries = [entry('2026-11-21T22:00:00.000Z'), entry('2026-11-20T22:00:00.000Z')];
/** Each entry's origin (IP address, User-Agent): an item apart, read by key, kept 6 months. */
const TABLE = 'test-table';
const origins = entries.map((one) => ({
  ...keys.auditOrigin({ tenantId }, one.occurredAt, one.id),
  type: 'AuditOrigin',
  sourceIp: '198.51.100.7',
  userAgent: 'vitest',
  ttl: Math.floor(Date.now() / 1000) + 86_400,
}));

const get = (caller: Principal = principal) =>
  handler(
    proxyEvent({
      method: 'GET',
      resource: '/auth/me/data',
      requestId: REQUEST_ID,
      authorizer: toAuthorizerContext(caller),
      headers: { Origin: ALLOWED_ORIGIN },
    }),
    lambdaContext(),
  );

beforeEach(() => {
  ddb.reset();
  // The entries' origins (IP address, User-Agent) are items apart, read by key: none here.
  ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: origins } });
  ddb.on(UpdateCommand).resolves({});
  ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: user });
  ddb.on(GetCommand, { Key: keys.tenant(tenantId) }).resolves({ Item: storedTenant(tenantId) });
  // There, but never read: the count of recovery codes left is on the user item (the function may not read credentials).
  ddb.on(GetCommand, { Key: keys.credentials(tenantId, userId) }).resolves({
    Item: storedCredentials(tenantId, userId, SECRETS.passwordHash, { totpSecret: SECRETS.totpSecret, recoveryCodeHashes: new Set(SECRETS.recoveryHashes) }),
  });
  ddb.on(GetCommand, { Key: keys.invitation(tenantId, principal.email) }).resolves({ Item: received });
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':pk': keys.sessionsOfUser(tenantId, userId).pk, ':prefix': 'SESSION#' } })
    .resolves({ Items: [current, revoked, expired] });
  ddb.on(QueryCommand, { FilterExpression: 'invitedBy = :user' }).resolves({ Items: [sent] });
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':key': keys.auditOfActor({ tenantId }, userId).pk, ':from': '0', ':to': '~' } })
    .resolves({ Items: entries });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('GET /auth/me/data', () => {
  it("answers the caller's whole document, without a secret or another user's data", async () => {
    const result = await get();

    const sessionView = (item: Record<string, unknown>, isCurrent: boolean) => ({
      id: item.id,
      status: item.status,
      rememberMe: item.rememberMe,
      createdAt: item.createdAt,
      lastActiveAt: item.lastActiveAt,
      expiresAt: item.expiresAt,
      ipAddress: item.ipAddress,
      userAgent: item.userAgent,
      revokedAt: item.revokedAt ?? null,
      current: isCurrent,
    });
    const invitationView = (item: Record<string, unknown>) => ({
      id: item.id,
      email: item.email,
      invitedBy: item.invitedBy,
      createdAt: item.createdAt,
      expiresAt: item.expiresAt,
    });
    const { pk: _pk, sk: _sk, type: _type, ttl: _ttl, ...firstEntry } = entries[0] as Record<string, unknown>;
    const { pk: _pk2, sk: _sk2, type: _type2, ttl: _ttl2, ...secondEntry } = entries[1] as Record<string, unknown>;
    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: {
        generatedAt: NOW.toISOString(),
        user: {
          id: userId,
          tenantId,
          tenantName: 'acme',
          name: principal.name,
          email: principal.email,
          role: 'MEMBER',
          platformAdmin: false,
          sessionsValidFrom: null,
          credentialVersion: 0,
          sessionCount: 1,
          sessionOpenings: 4,
          lastLoginAt: '2026-11-21T22:00:00.000Z',
          totpEnabledAt: '2026-11-01T10:00:00.000Z',
          createdAt: STORED_AT,
          updatedAt: STORED_AT,
        },
        // Newest first; the expired one left out.
        sessions: [sessionView(current, true), sessionView(revoked, false)],
        secondFactor: { enabled: true, enabledAt: '2026-11-01T10:00:00.000Z', recoveryCodesRemaining: 2 },
        invitations: { received: [invitationView(received)], sent: [invitationView(sent)] },
        auditEntries: [firstEntry, secondEntry].map((one) => ({ ...one, sourceIp: '198.51.100.7', userAgent: 'vitest' })),
        auditEntriesTruncated: false,
        auditEntriesRest: null,
      },
    });
    expect(result.headers?.['Cache-Control']).toBe('no-store');
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key)).not.toContainEqual(keys.credentials(tenantId, userId));
    for (const secret of Object.values(SECRETS).flat()) expect(result.body).not.toContain(secret);
  });

  it('bounds every read: a Limit on each Query, and the audit entries cut at 5,000 with where the rest are', async () => {
    const page = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => entry(new Date(Date.parse('2026-11-21T00:00:00.000Z') - (from + index) * 1000).toISOString()));
    let served = 0;
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':key': keys.auditOfActor({ tenantId }, userId).pk, ':from': '0', ':to': '~' } })
      .callsFake((input: { Limit: number }) => {
        const items = page(served, input.Limit);
        served += input.Limit - 1;
        return { Items: items };
      });

    const result = await get();

    const body = JSON.parse(result.body) as { auditEntries: { occurredAt: string }[]; auditEntriesTruncated: boolean; auditEntriesRest: string };
    expect(body.auditEntries).toHaveLength(5000);
    expect(body.auditEntriesTruncated).toBe(true);
    expect(body.auditEntriesRest).toBe(`GET /audit-events?actorId=${userId}&to=${encodeURIComponent(body.auditEntries.at(-1)?.occurredAt ?? '')}`);
    for (const call of ddb.commandCalls(QueryCommand)) expect(call.args[0].input.Limit).toEqual(expect.any(Number));
    // Counted in the caller's hourly window of this route.
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      takeSlot(counterKey('GET /auth/me/data', userId, windowAt(NOW.getTime(), 3600).start), 5, windowAt(NOW.getTime(), 3600).endEpoch),
    ]);
  });
});
