import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as listSessions } from '../../functions/auth/list-sessions';
import { handler as revokeSession } from '../../functions/auth/revoke-session';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { storedSession, type Item } from '../support/items';
import { testPrincipal } from '../support/principal';
import { counterKey, takeSlot } from '../support/rate-limits';
import { jsonHeaders, NO_ORIGIN_CORS_HEADERS, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'sessions-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const principal: Principal = testPrincipal({ tokenExpiresAt: NOW.getTime() / 1000 + 600, credentialVersion: 3 });

/** One of the caller's sessions, opened an hour ago at the caller's credential version, unless told. */
const sessionItem = (id: string, overrides: Item = {}) =>
  storedSession(principal.tenantId, principal.userId, id, {
    createdAt: ago(HOUR),
    lastActiveAt: ago(MINUTE),
    expiresAt: ago(-11 * HOUR),
    userAgent: 'Mozilla/5.0',
    refreshJti: randomUUID(),
    credentialVersion: principal.credentialVersion,
    ...overrides,
  });

const view = (item: ReturnType<typeof sessionItem>, current: boolean) => ({
  id: item.id,
  createdAt: item.createdAt,
  lastActiveAt: item.lastActiveAt,
  expiresAt: item.expiresAt,
  ipAddress: item.ipAddress,
  userAgent: item.userAgent,
  current,
});

const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } });

/** A transaction whose first item's condition failed (the session is not live), the others' not checked. */
const revocationRefused = (items: number) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None]',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, ...Array.from({ length: items - 1 }, () => ({ Code: 'None' }))],
  });

/** The entry of a session's revocation, last in its transaction: the trail's, the caller's and the session's copies. */
const revocationAuditPuts = (sessionId: string) =>
  expectedAuditPuts({
    table: TABLE,
    trail: { tenantId: principal.tenantId },
    action: 'session.revoked',
    actor: { type: 'user', id: principal.userId, name: principal.name },
    resource: { type: 'session', id: sessionId },
    requestId: REQUEST_ID,
    sourceIp: '203.0.113.10',
    userAgent: 'vitest',
    occurredAt: NOW.toISOString(),
  });

const list = (caller: Principal | null = principal) =>
  listSessions(
    proxyEvent({
      method: 'GET',
      resource: '/auth/sessions',
      requestId: REQUEST_ID,
      authorizer: caller ? toAuthorizerContext(caller) : null,
      headers: { Origin: ALLOWED_ORIGIN },
    }),
    lambdaContext(),
  );

const revoke = (id: string, origin = ALLOWED_ORIGIN) =>
  revokeSession(
    proxyEvent({
      method: 'POST',
      resource: '/auth/sessions/{id}/revoke',
      path: `/auth/sessions/${id}/revoke`,
      pathParameters: { id },
      requestId: REQUEST_ID,
      authorizer: toAuthorizerContext(principal),
      // A browser that names itself: its User-Agent goes into the audit entry.
      headers: { Origin: origin, 'User-Agent': 'vitest' },
    }),
    lambdaContext(),
  );

beforeEach(() => {
  ddb.reset();
  ddb.on(UpdateCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('GET /auth/sessions', () => {
  it("returns the caller's live sessions, newest first, marking the current one", async () => {
    const current = sessionItem(principal.sessionId, { createdAt: ago(2 * HOUR) });
    const newer = sessionItem(randomUUID(), { createdAt: ago(10 * MINUTE), ipAddress: '192.0.2.1', userAgent: 'curl/8.5.0' });
    const revoked = sessionItem(randomUUID(), { status: 'REVOKED', revokedAt: ago(MINUTE) });
    const expired = sessionItem(randomUUID(), { createdAt: ago(13 * HOUR), expiresAt: ago(HOUR) });
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [current, revoked], LastEvaluatedKey: { pk: revoked.pk, sk: revoked.sk } })
      .resolves({ Items: [expired, newer] });

    const result = await list();

    expect(parsed(result)).toEqual({ statusCode: 200, headers: jsonHeaders(), body: [view(newer, false), view(current, true)] });
    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `TENANT#${principal.tenantId}#USER#${principal.userId}`, ':prefix': 'SESSION#' },
        ConsistentRead: true,
        ExclusiveStartKey: undefined,
      },
      {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': `TENANT#${principal.tenantId}#USER#${principal.userId}`, ':prefix': 'SESSION#' },
        ConsistentRead: true,
        ExclusiveStartKey: { pk: revoked.pk, sk: revoked.sk },
      },
    ]);
  });

  it("leaves out the sessions opened at another credential version than the caller's", async () => {
    const current = sessionItem(principal.sessionId);
    const beforeChange = sessionItem(randomUUID(), { credentialVersion: 2 });
    ddb.on(QueryCommand).resolves({ Items: [current, beforeChange] });

    const result = await list();

    expect(JSON.parse(result.body)).toEqual([view(current, true)]);
  });

  it("leaves out the sessions older than credential versions opened before the caller's last password reset", async () => {
    const afterReset = sessionItem(principal.sessionId, { createdAt: ago(5 * MINUTE) });
    const beforeReset = sessionItem(randomUUID(), { createdAt: ago(HOUR), credentialVersion: undefined });
    const legacyAfterReset = sessionItem(randomUUID(), { createdAt: ago(10 * MINUTE), credentialVersion: undefined });
    ddb.on(QueryCommand).resolves({ Items: [afterReset, beforeReset, legacyAfterReset] });

    const result = await list({ ...principal, sessionsValidFrom: ago(30 * MINUTE) });

    expect(JSON.parse(result.body)).toEqual([view(afterReset, true), view(legacyAfterReset, false)]);
  });

  it("counts the request in the caller's one-minute window of this route alone", async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await list();

    // Each session route counts apart: reading the list never holds a revocation back.
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      takeSlot(counterKey('GET /auth/sessions', principal.userId, NOW.getTime()), 10, NOW.getTime() / 1000 + 60),
    ]);
  });

  it('returns 429 with Retry-After after 10 requests in a minute, reading no session', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());

    const result = await list();

    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': '60' }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', REQUEST_ID),
    });
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
  });

  // The per-user limit reads the principal first (lib/http/middleware/rate-limit.ts): a
  // protected route without one is a 401 before anything is counted.
  it('returns 401 without an authorizer context, counting nothing', async () => {
    const result = await list(null);

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Authentication is required or has failed', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});

describe('POST /auth/sessions/{id}/revoke', () => {
  it("revokes another of the caller's sessions, with its audit entry in one transaction, and keeps the caller's cookies", async () => {
    const other = randomUUID();

    const result = await revoke(other);

    expect(parsed(result)).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { message: 'Session revoked' } });
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([
      {
        TransactItems: [
          {
            Update: {
              TableName: TABLE,
              Key: keys.session(principal.tenantId, principal.userId, other),
              UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
              // Only while live: at the caller's credential version, or (a session older than versions) not before sessionsValidFrom.
              ConditionExpression:
                'attribute_exists(pk) AND #status = :active AND expiresAt > :now AND (credentialVersion = :version OR (attribute_not_exists(credentialVersion) AND createdAt >= :validFrom))',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':revoked': 'REVOKED', ':active': 'ACTIVE', ':now': NOW.toISOString(), ':version': 3, ':validFrom': '' },
            },
          },
          // The entry commits only with the revocation.
          ...revocationAuditPuts(other),
        ],
      },
    ]);
    // The only plain update is the rate limit's counter, this route's own.
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toEqual([
      counterKey('POST /auth/sessions/{id}/revoke', principal.userId, NOW.getTime()),
    ]);
  });

  it('clears the cookies when the caller revokes the session in use', async () => {
    const result = await revoke(principal.sessionId);

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      multiValueHeaders: {
        'Set-Cookie': [
          'accessToken=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict',
          'refreshToken=; Max-Age=0; Path=/auth; HttpOnly; Secure; SameSite=Strict',
        ],
      },
      body: { message: 'Session revoked' },
    });
  });

  it("returns 404 when the id is not one of the caller's active sessions", async () => {
    const unknown = randomUUID();
    // The revocation's condition fails, so the transaction writes nothing, its entry included.
    ddb.on(TransactWriteCommand).rejects(revocationRefused(4));

    const result = await revoke(unknown);

    expect(parsed(result)).toEqual({ statusCode: 404, headers: problemHeaders(), body: problem('not-found', 'Not found', 404, 'No such session', REQUEST_ID) });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update?.Key).toEqual(
      keys.session(principal.tenantId, principal.userId, unknown),
    );
  });

  it('returns 400 when the id is not a UUID', async () => {
    const result = await revoke('current');

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'id: must be a UUID', REQUEST_ID, [{ field: 'id', message: 'must be a UUID' }]),
    });
  });

  it('returns 403 for a foreign origin and writes nothing', async () => {
    const result = await revoke(randomUUID(), 'https://evil.example.com');

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders({}, NO_ORIGIN_CORS_HEADERS),
      body: problem('forbidden', 'Forbidden', 403, 'Cross-origin request refused', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});
