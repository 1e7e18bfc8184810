import { createHash, randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/register';
import { verifyPassword } from '../../lib/auth/passwords';
import { verifyAccessToken, verifyRefreshToken } from '../../lib/auth/tokens';
import { keys } from '../../lib/db/keys';
import { sortName } from '../../lib/db/name-order';
import { settings } from '../../lib/settings';
import { jsonPost, lambdaContext } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'register-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;
const PASSWORD = 'a long enough password';
const INVITATION_TOKEN = 'jG2Yw0cXz3l1bZ5oQkM6sVdT8rN4uH7pA9eF1iC0xKq';

const tenantId = randomUUID();
const tenantItem = (overrides: Record<string, unknown> = {}) => ({
  ...keys.tenant(tenantId),
  type: 'Tenant',
  id: tenantId,
  name: 'acme',
  plan: 'STARTER',
  status: 'ACTIVE',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...overrides,
});

function storeHolds(tenant: Record<string, unknown> | undefined): void {
  ddb.on(GetCommand, { Key: keys.tenant(tenantId) }).resolves(tenant ? { Item: tenant } : {});
  ddb.on(TransactWriteCommand).resolves({});
}

const register = (body: object) => handler(jsonPost('/auth/register', body, { requestId: REQUEST_ID, sourceIp: '198.51.100.7' }), lambdaContext());
const validBody = (overrides: object = {}) => ({ name: ' Ana Souza ', email: 'Ana@ACME.example', password: PASSWORD, tenantId, ...overrides });

/** The entry of the registration, last in its transaction: the trail's copy, and the new user's own as its actor and as its resource. */
const auditPuts = (action: 'user.registered' | 'invitation.accepted', userId: string) =>
  expectedAuditPuts({
    table: TABLE,
    trail: { tenantId },
    action,
    actor: { type: 'user', id: userId, name: 'Ana Souza' },
    resource: { type: 'user', id: userId },
    requestId: REQUEST_ID,
    sourceIp: '198.51.100.7',
    userAgent: 'vitest',
    occurredAt: NOW.toISOString(),
  });

const cancelledAt = (index: number | number[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: [0, 1, 2, 3].map((position) => ([index].flat().includes(position) ? { Code: 'ConditionalCheckFailed' } : { Code: 'None' })),
  });

beforeEach(() => {
  ddb.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/register', () => {
  it('registers the base account as tenant administrator, with its audit entry in one transaction, and sets both cookies', async () => {
    storeHolds(tenantItem());

    const result = await register(validBody());

    const [accessCookie, refreshCookie] = (result.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
    const accessToken = /^accessToken=([^;]+);/.exec(accessCookie ?? '')?.[1] ?? '';
    const refreshToken = /^refreshToken=([^;]+);/.exec(refreshCookie ?? '')?.[1] ?? '';
    const access = await verifyAccessToken(accessToken);
    const refresh = await verifyRefreshToken(refreshToken);
    const userId = access.sub;
    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      multiValueHeaders: {
        'Set-Cookie': [
          `accessToken=${accessToken}; Max-Age=${settings.accessTokenSeconds}; Path=/; HttpOnly; Secure; SameSite=Strict`,
          `refreshToken=${refreshToken}; Path=/auth; HttpOnly; Secure; SameSite=Strict`,
        ],
      },
      body: { user: { id: userId, name: 'Ana Souza', email: 'ana@acme.example', tenantId } },
    });

    const input = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input;
    const userPut = input?.TransactItems?.[0]?.Put;
    const passwordHash = String(userPut?.Item?.passwordHash);
    await expect(verifyPassword(PASSWORD, passwordHash)).resolves.toBe(true);
    expect(input).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: {
              ...keys.user(tenantId, userId),
              type: 'User',
              id: userId,
              tenantId,
              name: 'Ana Souza',
              email: 'ana@acme.example',
              passwordHash,
              role: 'ADMIN',
              platformAdmin: false,
              createdAt: NOW.toISOString(),
              updatedAt: NOW.toISOString(),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.email('ana@acme.example'), type: 'Email', email: 'ana@acme.example', tenantId, userId },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: TABLE,
            Key: keys.tenant(tenantId),
            UpdateExpression: 'SET baseAccountUserId = :user',
            ConditionExpression: 'attribute_exists(pk) AND #status = :active AND attribute_not_exists(baseAccountUserId)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':user': userId, ':active': 'ACTIVE' },
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: expect.objectContaining({
              ...keys.session(tenantId, userId, access.sessionId),
              status: 'ACTIVE',
              rememberMe: false,
              refreshJti: refresh.jti,
              ipAddress: '198.51.100.7',
              expiresAt: new Date(NOW.getTime() + settings.refreshTokenSeconds * 1000).toISOString(),
              ttl: NOW_EPOCH + settings.refreshTokenSeconds,
            }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // Its entry in the tenant's user list (by name), and the tenant's first administrator.
        { Put: { TableName: TABLE, Item: { ...keys.userListing(tenantId, sortName('Ana Souza'), userId), type: 'UserListing', userId } } },
        {
          Update: {
            TableName: TABLE,
            Key: keys.tenantAdmins(tenantId),
            UpdateExpression: 'SET #type = :type ADD n :delta',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': 'AdminCount', ':delta': 1 },
          },
        },
        // The registration's audit entry, which commits only with the account.
        ...auditPuts('user.registered', userId),
      ],
    });
    // No password, hash, token or e-mail in the entry.
    const audit = JSON.stringify(input?.TransactItems?.slice(6));
    for (const secret of [PASSWORD, passwordHash, accessToken, refreshToken, refresh.jti, 'ana@acme.example']) expect(audit).not.toContain(secret);
  });

  it('returns 409 when the e-mail is already taken (the e-mail sentinel condition fails)', async () => {
    storeHolds(tenantItem());
    ddb.on(TransactWriteCommand).rejects(cancelledAt(1));

    const result = await register(validBody());

    expect(parsed(result)).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem('conflict', 'Conflict', 409, 'An account with this e-mail already exists', REQUEST_ID),
    });
  });

  it('returns 403 when a later account presents a token that is not its pending invitation\'s (the invitation delete fails)', async () => {
    storeHolds(tenantItem({ baseAccountUserId: randomUUID() }));
    ddb.on(TransactWriteCommand).rejects(cancelledAt(2));

    const result = await register(validBody({ invitationToken: INVITATION_TOKEN }));

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Registration into this tenant is not permitted for this e-mail', REQUEST_ID),
    });
    // The delete compares the hash of the token, never the token itself.
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[2]).toEqual({
      Delete: {
        TableName: TABLE,
        Key: keys.invitation(tenantId, 'ana@acme.example'),
        ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now AND tokenHash = :token',
        ExpressionAttributeValues: { ':now': NOW_EPOCH, ':token': createHash('sha256').update(INVITATION_TOKEN).digest('hex') },
      },
    });
    expect(JSON.stringify(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input)).not.toContain(INVITATION_TOKEN);
  });

  it('returns 403, not 409, when the invitation is refused and the e-mail is taken too (nothing told about the address)', async () => {
    storeHolds(tenantItem({ baseAccountUserId: randomUUID() }));
    ddb.on(TransactWriteCommand).rejects(cancelledAt([1, 2]));

    const result = await register(validBody({ invitationToken: INVITATION_TOKEN }));

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Registration into this tenant is not permitted for this e-mail', REQUEST_ID),
    });
  });

  it('returns 403 to a later account without a token, before any password hashing or write', async () => {
    storeHolds(tenantItem({ baseAccountUserId: randomUUID() }));

    const result = await register(validBody());

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Registration into this tenant is not permitted for this e-mail', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('registers a later account as a member with the token of its invitation, recording the invitation accepted', async () => {
    storeHolds(tenantItem({ baseAccountUserId: randomUUID() }));

    const result = await register(validBody({ invitationToken: INVITATION_TOKEN }));

    expect(result.statusCode).toBe(200);
    const userId = (JSON.parse(result.body) as { user: { id: string } }).user.id;
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems;
    expect(items?.[0]?.Put?.Item?.role).toBe('MEMBER');
    expect(items?.[2]?.Delete?.Key).toEqual(keys.invitation(tenantId, 'ana@acme.example'));
    // A member changes no administrator count: the entry follows the user's list entry.
    expect(items?.slice(5)).toEqual(auditPuts('invitation.accepted', userId));
    expect(JSON.stringify(items?.slice(5))).not.toContain(INVITATION_TOKEN);
    expect(JSON.stringify(items?.slice(5))).not.toContain(PASSWORD);
  });

  it('returns 403 when the base account is claimed by another e-mail than the tenant\'s administrative one', async () => {
    storeHolds(tenantItem({ adminEmail: 'owner@acme.example' }));

    const result = await register(validBody());

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Only the administrative e-mail of this tenant may register its first account', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it.each([
    ['does not exist', undefined],
    ['is suspended', tenantItem({ status: 'SUSPENDED' })],
  ])('returns 404 when the tenant %s', async (_label, tenant) => {
    storeHolds(tenant);

    const result = await register(validBody());

    expect(parsed(result)).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, 'No such tenant', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns 400 for an invitation token over 256 characters, reading nothing', async () => {
    const result = await register(validBody({ invitationToken: 'x'.repeat(257) }));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'invitationToken: must be at most 256 characters', REQUEST_ID, [
        { field: 'invitationToken', message: 'must be at most 256 characters' },
      ]),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 400 for a short password and a tenant id that is not a UUID, reading nothing', async () => {
    const result = await register(validBody({ password: 'short', tenantId: 'acme' }));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'password: must be at least 8 characters; tenantId: must be a UUID', REQUEST_ID, [
        { field: 'password', message: 'must be at least 8 characters' },
        { field: 'tenantId', message: 'must be a UUID' },
      ]),
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});
