import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/logout';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { testPrincipal } from '../support/principal';
import { jsonHeaders, NO_ORIGIN_CORS_HEADERS, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const REQUEST_ID = 'logout-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');

const principal: Principal = testPrincipal({ tokenExpiresAt: NOW.getTime() / 1000 + 600 });

/** The entry of the logout, last in its transaction: the trail's, the caller's and the session's copies. */
const auditPuts = () =>
  expectedAuditPuts({
    trail: { tenantId: principal.tenantId },
    action: 'auth.logout',
    actor: { type: 'user', id: principal.userId, name: principal.name },
    resource: { type: 'session', id: principal.sessionId },
    requestId: REQUEST_ID,
    sourceIp: '203.0.113.10',
    userAgent: 'vitest',
    occurredAt: NOW.toISOString(),
  });

/** A logout from a browser that names itself (its User-Agent goes into the audit entry). */
const logout = (authorizer: Record<string, string> | null, origin = ALLOWED_ORIGIN) =>
  handler(
    proxyEvent({ method: 'POST', resource: '/auth/logout', requestId: REQUEST_ID, authorizer, headers: { Origin: origin, 'User-Agent': 'vitest' } }),
    lambdaContext(),
  );

beforeEach(() => {
  ddb.reset();
  ddb.on(TransactWriteCommand).resolves({});
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/logout', () => {
  it('returns 200, clears both cookies, and revokes the session and the access token with its audit entry in one transaction', async () => {
    const result = await logout(toAuthorizerContext(principal));

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      multiValueHeaders: {
        'Set-Cookie': [
          'accessToken=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict',
          'refreshToken=; Max-Age=0; Path=/auth; HttpOnly; Secure; SameSite=Strict',
        ],
      },
      body: { message: 'Logged out' },
    });
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([
      {
        TransactItems: [
          {
            Update: {
              TableName: 'test-table',
              Key: keys.session(principal.tenantId, principal.userId, principal.sessionId),
              UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':revoked': 'REVOKED', ':now': NOW.toISOString() },
            },
          },
          {
            Put: {
              TableName: 'test-table',
              Item: {
                ...keys.revokedJti(principal.tenantId, principal.userId, principal.jti),
                type: 'RevokedJti',
                revokedAt: NOW.toISOString(),
                ttl: principal.tokenExpiresAt,
              },
            },
          },
          // The logout's audit entry, which commits only with the revocation.
          ...auditPuts(),
        ],
      },
    ]);
    // The entry does not hold the access token's jti (its blacklist item does).
    expect(JSON.stringify(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.slice(2))).not.toContain(principal.jti);
  });

  it('returns 401 without an authorizer context and writes nothing', async () => {
    const result = await logout(null);

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Authentication is required or has failed', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 403 for a foreign origin and keeps the session', async () => {
    const result = await logout(toAuthorizerContext(principal), 'https://evil.example.com');

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders({}, NO_ORIGIN_CORS_HEADERS),
      body: problem('forbidden', 'Forbidden', 403, 'Cross-origin request refused', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 503 with Retry-After and clears no cookie when the store throttles', async () => {
    ddb.on(TransactWriteCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));

    const result = await logout(toAuthorizerContext(principal));

    expect(parsed(result)).toEqual({
      statusCode: 503,
      headers: problemHeaders({ 'Retry-After': '1' }),
      body: problem('unavailable', 'Service unavailable', 503, 'The service is busy, try again shortly', REQUEST_ID),
    });
  });
});
