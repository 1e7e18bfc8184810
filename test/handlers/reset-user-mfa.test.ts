import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/users/reset-user-mfa';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { storedUser, type Item } from '../support/items';
import { testPrincipal } from '../support/principal';
import { CORS_HEADERS, parsed, problem, problemHeaders, SECURITY_HEADERS } from './responses';

/**
 * DELETE /users/{id}/mfa: an administrator resets the second factor of a user who lost both
 * the authenticator and the recovery codes. A tenant administrator resets a member's in the
 * tenant, a platform administrator an administrator's; the user's sessions all end (the
 * credential version moves on) and the user is mailed.
 */

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESClient);
const TABLE = 'test-table';
const REQUEST_ID = 'reset-mfa-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');

const tenantId = randomUUID();
const otherTenantId = randomUUID();
const memberId = randomUUID();

const tenantAdmin: Principal = testPrincipal({ tenantId, role: 'ADMIN', name: 'Carla Dias', email: 'carla@acme.example' });
const platformAdmin: Principal = testPrincipal({ role: 'ADMIN', platformAdmin: true, name: 'Paula Reis', email: 'paula@platform.example' });

/** Bruno, a member of the tenant at credential version 3, with a second factor on since October. */
const target = (overrides: Item = {}, inTenant = tenantId) =>
  storedUser(inTenant, memberId, {
    name: 'Bruno Lima',
    email: 'bruno@acme.example',
    credentialVersion: 3,
    totpEnabledAt: '2026-10-01T12:00:00.000Z',
    ...overrides,
  });

const reset = (caller: Principal, id: string = memberId, query: Record<string, string> | null = null) =>
  handler(
    proxyEvent({
      method: 'DELETE',
      resource: '/users/{id}/mfa',
      path: `/users/${id}/mfa`,
      pathParameters: { id },
      query,
      requestId: REQUEST_ID,
      authorizer: toAuthorizerContext(caller),
      headers: { Origin: ALLOWED_ORIGIN, 'User-Agent': 'vitest' },
    }),
    lambdaContext(),
  );

const NO_CONTENT = { statusCode: 204, headers: { 'Cache-Control': 'no-store', ...CORS_HEADERS, ...SECURITY_HEADERS }, body: '' };

/**
 * The reset's transaction: the user's second factor off and its credential version moved on, the
 * secrets removed and the credentials item's version moved on with the user's, and the entry.
 */
const resetTransaction = (caller: Principal, inTenant: string, readVersion: number) => ({
  TransactItems: [
    {
      Update: {
        TableName: TABLE,
        Key: keys.user(inTenant, memberId),
        // Every session of the user ends: the version moves on (sessionsValidFrom with it, for sessions older than versions).
        UpdateExpression:
          'SET credentialVersion = :nextCredentialVersion, sessionsValidFrom = :credentialsChangedAt, updatedAt = :credentialsChangedAt REMOVE totpEnabledAt, recoveryCodesLeft',
        // Only while the user still exists and has a second factor, at the version read.
        ConditionExpression: 'attribute_exists(pk) AND credentialVersion = :readCredentialVersion AND attribute_exists(totpEnabledAt)',
        ExpressionAttributeValues: {
          ':readCredentialVersion': readVersion,
          ':nextCredentialVersion': readVersion + 1,
          ':credentialsChangedAt': NOW.toISOString(),
        },
      },
    },
    {
      Update: {
        TableName: TABLE,
        Key: keys.credentials(inTenant, memberId),
        UpdateExpression: 'SET credentialVersion = :nextCredentialVersion REMOVE totpSecret, totpLastStep, recoveryCodeHashes, totpPendingSecret',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':nextCredentialVersion': readVersion + 1 },
      },
    },
    ...expectedAuditPuts({
      trail: { tenantId: inTenant },
      action: 'user.mfa_reset',
      actor: { type: 'user', id: caller.userId, name: caller.name },
      resource: { type: 'user', id: memberId },
      requestId: REQUEST_ID,
      sourceIp: '203.0.113.10',
      userAgent: 'vitest',
      occurredAt: NOW.toISOString(),
    }),
  ],
});

const forbidden = (detail: string) => ({ statusCode: 403, headers: problemHeaders(), body: problem('forbidden', 'Forbidden', 403, detail, REQUEST_ID) });
const notFound = () => ({ statusCode: 404, headers: problemHeaders(), body: problem('not-found', 'Not found', 404, 'No such user', REQUEST_ID) });
const conflict = (detail: string) => ({ statusCode: 409, headers: problemHeaders(), body: problem('conflict', 'Conflict', 409, detail, REQUEST_ID) });

const storeHolds = (user: Item | undefined, inTenant = tenantId) =>
  ddb.on(GetCommand, { Key: keys.user(inTenant, memberId) }).resolves(user ? { Item: user } : {});

beforeEach(() => {
  ddb.reset();
  ses.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('DELETE /users/{id}/mfa', () => {
  it("returns 204 and resets a member's second factor for a tenant administrator, in one transaction with its entry, then mails the member", async () => {
    storeHolds(target());

    const result = await reset(tenantAdmin);

    expect(parsed(result)).toEqual(NO_CONTENT);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: keys.user(tenantId, memberId), ConsistentRead: true },
    ]);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([resetTransaction(tenantAdmin, tenantId, 3)]);
    const mails = ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input);
    expect(mails.map((mail) => [mail.Destination, mail.Message?.Subject?.Data])).toEqual([
      [{ ToAddresses: ['bruno@acme.example'] }, 'The second factor of your account was reset'],
    ]);
  });

  it("lets a platform administrator reset a tenant administrator's, in the tenant `tenantId` names", async () => {
    storeHolds(target({ role: 'ADMIN' }, otherTenantId), otherTenantId);

    const result = await reset(platformAdmin, memberId, { tenantId: otherTenantId });

    expect(parsed(result)).toEqual(NO_CONTENT);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([resetTransaction(platformAdmin, otherTenantId, 3)]);
  });

  it('still answers 204 when the notice cannot be mailed (the reset is done)', async () => {
    storeHolds(target());
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));

    const result = await reset(tenantAdmin);

    expect(parsed(result)).toEqual(NO_CONTENT);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('returns 403 to a member, reading nothing', async () => {
    const result = await reset({ ...tenantAdmin, role: 'MEMBER' });

    expect(parsed(result)).toEqual(forbidden('Only a tenant administrator may manage its users'));
    expect(ddb.calls()).toHaveLength(0);
    expect(ses.calls()).toHaveLength(0);
  });

  it("returns 403 to a tenant administrator for an administrator's second factor (a platform administrator's work), writing nothing", async () => {
    storeHolds(target({ role: 'ADMIN' }));

    const result = await reset(tenantAdmin);

    expect(parsed(result)).toEqual(forbidden("An administrator's second factor is reset by a platform administrator"));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.calls()).toHaveLength(0);
  });

  it("returns 403 for the caller's own second factor (turned off with a code instead)", async () => {
    const self = testPrincipal({ tenantId, userId: memberId, role: 'ADMIN' });
    storeHolds(target({ role: 'ADMIN' }));

    const result = await reset(self);

    expect(parsed(result)).toEqual(forbidden('Turn your own second factor off with DELETE /auth/mfa/totp and a code or a recovery code'));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it("returns 403 for a platform administrator's, even to another platform administrator", async () => {
    storeHolds(target({ role: 'ADMIN', platformAdmin: true }, otherTenantId), otherTenantId);

    const result = await reset(platformAdmin, memberId, { tenantId: otherTenantId });

    expect(parsed(result)).toEqual(forbidden("A platform administrator's second factor is replaced with `npm run create-admin -- --promote`"));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns 404, not 403, to a tenant administrator naming another tenant, reading nothing', async () => {
    const result = await reset(tenantAdmin, memberId, { tenantId: otherTenantId });

    expect(parsed(result)).toEqual(notFound());
    expect(ddb.calls()).toHaveLength(0);
  });

  it("returns 404 for another tenant's user: only the caller's tenant is looked in", async () => {
    // The user exists, in another tenant: the caller's tenant has no such user.
    storeHolds(target({}, otherTenantId), otherTenantId);

    const result = await reset(tenantAdmin);

    expect(parsed(result)).toEqual(notFound());
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key)).toEqual([keys.user(tenantId, memberId)]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns 409 when the user has no second factor, writing nothing', async () => {
    storeHolds(target({ totpEnabledAt: undefined }));

    const result = await reset(tenantAdmin);

    expect(parsed(result)).toEqual(conflict('The user has no second factor'));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.calls()).toHaveLength(0);
  });

  it("returns 409 and mails nothing when the second factor or the credentials changed meanwhile (the user's condition fails)", async () => {
    storeHolds(target());
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    const result = await reset(tenantAdmin);

    expect(parsed(result)).toEqual(conflict('The second factor changed meanwhile; look again'));
    expect(ses.calls()).toHaveLength(0);
  });

  it('returns 400 when the id is not a UUID, reading nothing', async () => {
    const result = await reset(tenantAdmin, 'bruno');

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'id: must be a UUID', REQUEST_ID, [{ field: 'id', message: 'must be a UUID' }]),
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});
