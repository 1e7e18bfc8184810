import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/refresh';
import { signAccessToken, signRefreshToken, verifyAccessToken, verifyRefreshToken } from '../../lib/auth/tokens';
import { keys } from '../../lib/db/keys';
import { settings } from '../../lib/settings';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { batchGetAnswer, storedSession, storedTenant, storedUser, type Item } from '../support/items';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'refresh-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;
const SESSION_EXPIRES = new Date('2026-11-22T11:00:00.000Z');
const SESSION_EXPIRES_EPOCH = SESSION_EXPIRES.getTime() / 1000;

const tenantId = randomUUID();
const userId = randomUUID();
const sessionId = randomUUID();
const subject = { userId, tenantId, sessionId };

/** The tenant, Ana (a member at credential version 2) and her session, opened at that version at 23:00, ending at 11:00. */
const tenantItem: Item = storedTenant(tenantId);
const userItem = (overrides: Item = {}): Item => storedUser(tenantId, userId, { credentialVersion: 2, ...overrides });
const sessionItem = (overrides: Item): Item =>
  storedSession(tenantId, userId, sessionId, {
    createdAt: '2026-11-21T23:00:00.000Z',
    lastActiveAt: '2026-11-21T23:00:00.000Z',
    expiresAt: SESSION_EXPIRES.toISOString(),
    credentialVersion: 2,
    ...overrides,
  });

function storeHolds(session: Item, user: Item = userItem()): void {
  ddb.on(BatchGetCommand).resolves(batchGetAnswer(tenantItem, user, session));
  ddb.on(UpdateCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
}

/**
 * The entry of an event of the session, last in its transaction: the trail's, the user's (the
 * route is public: the session's user is the actor) and the session's copies.
 */
const auditPuts = (action: 'auth.refresh' | 'auth.refresh_reuse_detected') =>
  expectedAuditPuts({
    table: TABLE,
    trail: { tenantId },
    action,
    actor: { type: 'user', id: userId, name: 'Ana Souza' },
    resource: { type: 'session', id: sessionId },
    requestId: REQUEST_ID,
    sourceIp: '203.0.113.10',
    userAgent: 'vitest',
    occurredAt: NOW.toISOString(),
  });

/** The revocation of the session on a reused refresh token, with its entry, in one transaction. */
const reuseRevocation = () => ({
  TransactItems: [
    {
      Update: {
        TableName: TABLE,
        Key: keys.session(tenantId, userId, sessionId),
        UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':revoked': 'REVOKED', ':now': NOW.toISOString() },
      },
    },
    ...auditPuts('auth.refresh_reuse_detected'),
  ],
});

/** Whatever the request wrote: plain updates and transactions. */
const writes = () => [...ddb.commandCalls(UpdateCommand), ...ddb.commandCalls(TransactWriteCommand)];

/** A refresh token signed a minute ago, as the session's current one unless told otherwise. */
const refreshToken = () => signRefreshToken(subject, NOW_EPOCH - 60, SESSION_EXPIRES_EPOCH);

const refresh = (cookie: string | undefined, headers: Record<string, string> = {}) =>
  handler(
    // A browser that names itself: its User-Agent goes into the audit entry.
    proxyEvent({
      method: 'POST',
      resource: '/auth/refresh',
      requestId: REQUEST_ID,
      headers: { Origin: ALLOWED_ORIGIN, 'User-Agent': 'vitest', ...(cookie ? { Cookie: cookie } : {}), ...headers },
    }),
    lambdaContext(),
  );

const cookieValue = (setCookie: string | undefined, name: string): string => new RegExp(`^${name}=([^;]+);`).exec(setCookie ?? '')?.[1] ?? '';

const unauthorized = (detail: string) => ({
  statusCode: 401,
  headers: problemHeaders(),
  body: problem('unauthorized', 'Unauthorized', 401, detail, REQUEST_ID),
});

beforeEach(() => {
  ddb.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/refresh', () => {
  it('returns 200 with the user, a new access token and a rotated refresh token', async () => {
    const presented = await refreshToken();
    storeHolds(sessionItem({ refreshJti: presented.jti }));

    const result = await refresh(`refreshToken=${presented.token}`);

    const [accessCookie, refreshCookie] = (result.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
    const access = await verifyAccessToken(cookieValue(accessCookie, 'accessToken'));
    const rotated = await verifyRefreshToken(cookieValue(refreshCookie, 'refreshToken'));
    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      multiValueHeaders: {
        'Set-Cookie': [
          `accessToken=${cookieValue(accessCookie, 'accessToken')}; Max-Age=${settings.accessTokenSeconds}; Path=/; HttpOnly; Secure; SameSite=Strict`,
          `refreshToken=${cookieValue(refreshCookie, 'refreshToken')}; Path=/auth; HttpOnly; Secure; SameSite=Strict`,
        ],
      },
      body: { user: { id: userId, name: 'Ana Souza', email: 'ana@acme.example', tenantId } },
    });
    expect(access).toMatchObject({ sub: userId, tenantId, sessionId, iat: NOW_EPOCH, exp: NOW_EPOCH + settings.accessTokenSeconds });
    expect(rotated).toMatchObject({ sub: userId, tenantId, sessionId, iat: NOW_EPOCH, exp: SESSION_EXPIRES_EPOCH });
    expect(rotated.jti).not.toBe(presented.jti);
    // The rotation and its audit entry, in one transaction; no plain update.
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([
      {
        TransactItems: [
          {
            Update: {
              TableName: TABLE,
              Key: keys.session(tenantId, userId, sessionId),
              UpdateExpression: 'SET refreshJti = :next, previousRefreshJti = :presented, rotatedAt = :now, lastActiveAt = :now',
              ConditionExpression: 'refreshJti = :presented AND #status = :active',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':next': rotated.jti, ':presented': presented.jti, ':now': NOW.toISOString(), ':active': 'ACTIVE' },
            },
          },
          // Only while the user exists and its credentials are the ones the refresh read: a reset that commits first ends the session.
          {
            ConditionCheck: {
              TableName: TABLE,
              Key: keys.user(tenantId, userId),
              ConditionExpression: 'attribute_exists(pk) AND credentialVersion = :readCredentialVersion',
              ExpressionAttributeValues: { ':readCredentialVersion': 2 },
            },
          },
          ...auditPuts('auth.refresh'),
        ],
      },
    ]);
    // The entry holds neither token nor either jti.
    const audit = JSON.stringify(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.slice(2));
    for (const secret of [presented.token, presented.jti, cookieValue(refreshCookie, 'refreshToken'), rotated.jti, cookieValue(accessCookie, 'accessToken')])
      expect(audit).not.toContain(secret);
  });

  it("keeps a remember-me refresh cookie persistent until the session's absolute expiry", async () => {
    const presented = await refreshToken();
    storeHolds(sessionItem({ refreshJti: presented.jti, rememberMe: true }));

    const result = await refresh(`refreshToken=${presented.token}`);

    const refreshCookie = (result.multiValueHeaders?.['Set-Cookie'] as string[] | undefined)?.[1];
    expect(refreshCookie).toBe(
      `refreshToken=${cookieValue(refreshCookie, 'refreshToken')}; Max-Age=${SESSION_EXPIRES_EPOCH - NOW_EPOCH}; Path=/auth; HttpOnly; Secure; SameSite=Strict`,
    );
  });

  it('returns 401 without a refresh cookie and reads nothing', async () => {
    const result = await refresh(undefined);

    expect(parsed(result)).toEqual(unauthorized('No refresh token'));
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 401 for an access token in the refresh cookie', async () => {
    const access = await signAccessToken(subject, NOW_EPOCH);

    const result = await refresh(`refreshToken=${access.token}`);

    expect(parsed(result)).toEqual(unauthorized('The token is not valid'));
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 401 for a revoked session and rotates nothing', async () => {
    const presented = await refreshToken();
    storeHolds(sessionItem({ refreshJti: presented.jti, status: 'REVOKED' }));

    const result = await refresh(`refreshToken=${presented.token}`);

    expect(parsed(result)).toEqual(unauthorized('The session has ended'));
    expect(writes()).toHaveLength(0);
  });

  it('returns 401 for a session opened at an earlier credential version, and writes nothing', async () => {
    const presented = await refreshToken();
    storeHolds(sessionItem({ refreshJti: presented.jti }), userItem({ credentialVersion: 3 }));

    const result = await refresh(`refreshToken=${presented.token}`);

    expect(parsed(result)).toEqual(unauthorized('The session has ended'));
    expect(writes()).toHaveLength(0);
  });

  it('returns 401 "the session has ended" when the credentials change while it refreshes (the version check fails), with nothing written', async () => {
    const presented = await refreshToken();
    storeHolds(sessionItem({ refreshJti: presented.jti }));
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, None, None, None]',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    const result = await refresh(`refreshToken=${presented.token}`);

    // Not a lost race of two tabs: the session itself ended with the credentials it was opened at.
    expect(parsed(result)).toEqual(unauthorized('The session has ended'));
    expect(result.multiValueHeaders).toBeUndefined();
  });

  it('returns 401 and revokes the whole session when an old refresh token is replayed', async () => {
    const replayed = await refreshToken();
    storeHolds(sessionItem({ refreshJti: randomUUID(), previousRefreshJti: randomUUID(), rotatedAt: '2026-11-21T23:14:58.000Z' }));

    const result = await refresh(`refreshToken=${replayed.token}`);

    expect(parsed(result)).toEqual(unauthorized('The refresh token was reused; the session is revoked'));
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([reuseRevocation()]);
    // The entry does not hold the replayed token or its jti.
    const audit = JSON.stringify(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.slice(1));
    for (const secret of [replayed.token, replayed.jti]) expect(audit).not.toContain(secret);
  });

  it('returns 401 but keeps the session when the token was rotated by a parallel tab within the grace period', async () => {
    const late = await refreshToken();
    storeHolds(sessionItem({ refreshJti: randomUUID(), previousRefreshJti: late.jti, rotatedAt: '2026-11-21T23:14:51.000Z' }));

    const result = await refresh(`refreshToken=${late.token}`);

    expect(parsed(result)).toEqual(unauthorized('The refresh token was already used'));
    expect(writes()).toHaveLength(0);
  });

  it('revokes the session when the previous token comes back after the grace period', async () => {
    const late = await refreshToken();
    storeHolds(sessionItem({ refreshJti: randomUUID(), previousRefreshJti: late.jti, rotatedAt: '2026-11-21T23:14:49.000Z' }));

    const result = await refresh(`refreshToken=${late.token}`);

    expect(parsed(result)).toEqual(unauthorized('The refresh token was reused; the session is revoked'));
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([reuseRevocation()]);
  });

  it('returns 401 to the loser of two parallel refreshes (the conditional rotation fails)', async () => {
    const presented = await refreshToken();
    storeHolds(sessionItem({ refreshJti: presented.jti }));
    // The rotation's condition fails, so its entry is not written either.
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, None, None]',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    const result = await refresh(`refreshToken=${presented.token}`);

    expect(parsed(result)).toEqual(unauthorized('The refresh token was already used'));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('returns 403 for a cross-site refresh and reads nothing', async () => {
    const presented = await refreshToken();

    const result = await refresh(`refreshToken=${presented.token}`, { 'Sec-Fetch-Site': 'cross-site' });

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Cross-site request refused', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});
