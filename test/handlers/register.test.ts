import { createHash, randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type * as bcrypt from 'bcryptjs';
import { hash } from 'bcryptjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/register';
import { verifyPassword } from '../../lib/auth/passwords';
import { verifyAccessToken, verifyRefreshToken } from '../../lib/auth/tokens';
import { keys } from '../../lib/db/keys';
import { sortName } from '../../lib/db/name-order';
import { settings } from '../../lib/settings';
import { jsonPost, lambdaContext } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { storedInvitation, storedSession, storedTenant, type Item } from '../support/items';
import { counterKey, giveSlotBack, subjects, takeSlot, windowFullError } from '../support/rate-limits';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

// bcrypt's hash, spied on but still real: a refused registration must never reach it, and
// `atHash` lets a test see what the store was asked before it ran.
const bcryptHook = vi.hoisted(() => ({ atHash: undefined as (() => void) | undefined }));
vi.mock('bcryptjs', async (importOriginal) => {
  const original = await importOriginal<typeof bcrypt>();
  const spiedHash = (password: string, salt: number | string) => {
    bcryptHook.atHash?.();
    return original.hash(password, salt);
  };
  return { ...original, hash: vi.fn(spiedHash) };
});

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'register-request-1';
const IP = '198.51.100.7';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;
const PASSWORD = 'a long enough password';
const EMAIL = 'ana@acme.example';
const INVITATION_TOKEN = 'jG2Yw0cXz3l1bZ5oQkM6sVdT8rN4uH7pA9eF1iC0xKq';
const TOKEN_HASH = createHash('sha256').update(INVITATION_TOKEN).digest('hex');
const NOT_INVITED = 'Registration into this tenant is not permitted for this e-mail';

const tenantId = randomUUID();
/** A tenant signed up with Ana's address as its administrative e-mail, its base account not opened yet. */
const unclaimedTenant = (overrides: Item = {}) =>
  storedTenant(tenantId, { adminEmail: EMAIL, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z', ...overrides });
/** A tenant whose base account is open: later accounts come in as members. */
const claimedTenant = () => unclaimedTenant({ baseAccountUserId: randomUUID() });
/** The base account's invitation (POST /tenants with adminEmail), mailed this evening with INVITATION_TOKEN. */
const baseInvitation = (overrides: Item = {}) => storedInvitation(tenantId, EMAIL, TOKEN_HASH, { invitedBy: undefined, baseAccount: true, ...overrides });
/** An administrator's invitation of a member, mailed this evening with INVITATION_TOKEN. */
const memberInvitation = (overrides: Item = {}) => storedInvitation(tenantId, EMAIL, TOKEN_HASH, overrides);

/** The store as registration reads it: the tenant and the invitation of the address (absent when undefined). */
function storeHolds(tenant: Item | undefined, invitation: Item | undefined): void {
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: keys.tenant(tenantId) }).resolves(tenant ? { Item: tenant } : {});
  ddb.on(GetCommand, { Key: keys.invitation(tenantId, EMAIL) }).resolves(invitation ? { Item: invitation } : {});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
}

const register = (body: object) => handler(jsonPost('/auth/register', body, { requestId: REQUEST_ID, sourceIp: IP }), lambdaContext());
const validBody = (overrides: object = {}) => ({
  name: ' Ana Souza ',
  email: 'Ana@ACME.example',
  password: PASSWORD,
  tenantId,
  invitationToken: INVITATION_TOKEN,
  ...overrides,
});

/** The per-IP attempt counter registration shares with login (30 per 15 minutes; NOW starts a window). */
const ipKey = counterKey('sign-in-per-ip', subjects.ip(IP), NOW.getTime());
const takeIpSlot = takeSlot(ipKey, 30, NOW_EPOCH + 900);

/** The entry of the registration, last in its transaction: the trail's copy, and the new user's own as its actor and as its resource. */
const auditPuts = (action: 'user.registered' | 'invitation.accepted', userId: string) =>
  expectedAuditPuts({
    table: TABLE,
    trail: { tenantId },
    action,
    actor: { type: 'user', id: userId, name: 'Ana Souza' },
    resource: { type: 'user', id: userId },
    requestId: REQUEST_ID,
    sourceIp: IP,
    userAgent: 'vitest',
    occurredAt: NOW.toISOString(),
  });

const cancelledAt = (index: number | number[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: [0, 1, 2, 3, 4, 5].map((position) => ([index].flat().includes(position) ? { Code: 'ConditionalCheckFailed' } : { Code: 'None' })),
  });

const forbidden = () => ({ statusCode: 403, headers: problemHeaders(), body: problem('forbidden', 'Forbidden', 403, NOT_INVITED, REQUEST_ID) });

/** The invitation's single use, in the registration's transaction: deleted on condition that it is pending with the presented token's hash. */
const invitationUsed = {
  Delete: {
    TableName: TABLE,
    Key: keys.invitation(tenantId, EMAIL),
    ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now AND tokenHash = :token',
    ExpressionAttributeValues: { ':now': NOW_EPOCH, ':token': TOKEN_HASH },
  },
};

/**
 * The new user's items: the user (no secret on it; its first session counted and its first
 * opening too), its e-mail sentinel, its list entry and its credentials, at the user's
 * credential version 0.
 */
const userItems = (userId: string, role: 'ADMIN' | 'MEMBER', passwordHash: string) => ({
  user: {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.user(tenantId, userId),
        type: 'User',
        id: userId,
        tenantId,
        name: 'Ana Souza',
        email: EMAIL,
        role,
        platformAdmin: false,
        credentialVersion: 0,
        sessionCount: 1,
        sessionOpenings: 1,
        createdAt: NOW.toISOString(),
        updatedAt: NOW.toISOString(),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  email: {
    Put: { TableName: TABLE, Item: { ...keys.email(EMAIL), type: 'Email', email: EMAIL, tenantId, userId }, ConditionExpression: 'attribute_not_exists(pk)' },
  },
  listing: { Put: { TableName: TABLE, Item: { ...keys.userListing(tenantId, sortName('Ana Souza'), userId), type: 'UserListing', userId } } },
  credentials: {
    Put: {
      TableName: TABLE,
      Item: { ...keys.credentials(tenantId, userId), type: 'Credentials', tenantId, userId, credentialVersion: 0, passwordHash },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
});

/** The first session, at credential version 0. */
const sessionPut = (userId: string, sessionId: string, refreshJti: string) => ({
  Put: {
    TableName: TABLE,
    Item: {
      ...storedSession(tenantId, userId, sessionId, {
        createdAt: NOW.toISOString(),
        lastActiveAt: NOW.toISOString(),
        expiresAt: new Date(NOW.getTime() + settings.refreshTokenSeconds * 1000).toISOString(),
        ipAddress: IP,
        refreshJti,
      }),
      ttl: NOW_EPOCH + settings.refreshTokenSeconds,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The cookies of a 200, verified. */
async function issued(result: Awaited<ReturnType<typeof register>>) {
  const [accessCookie, refreshCookie] = (result.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
  const accessToken = /^accessToken=([^;]+);/.exec(accessCookie ?? '')?.[1] ?? '';
  const refreshToken = /^refreshToken=([^;]+);/.exec(refreshCookie ?? '')?.[1] ?? '';
  return { accessToken, refreshToken, access: await verifyAccessToken(accessToken), refresh: await verifyRefreshToken(refreshToken) };
}

/** The password hash the transaction stored on the credentials item. */
const storedHash = (items: { Put?: { Item?: Record<string, unknown> } }[] | undefined): string =>
  String(items?.find((item) => item.Put?.Item?.type === 'Credentials')?.Put?.Item?.passwordHash);

beforeEach(() => {
  ddb.reset();
  vi.mocked(hash).mockClear();
  bcryptHook.atHash = undefined;
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/register', () => {
  it('opens the base account as tenant administrator from its invitation, claiming the tenant, with its audit entry in one transaction, and sets both cookies', async () => {
    storeHolds(unclaimedTenant(), baseInvitation());

    const result = await register(validBody());

    const { accessToken, refreshToken, access, refresh } = await issued(result);
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
      body: { user: { id: userId, name: 'Ana Souza', email: EMAIL, tenantId } },
    });

    const input = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input;
    const passwordHash = storedHash(input?.TransactItems);
    await expect(verifyPassword(PASSWORD, passwordHash)).resolves.toBe(true);
    const items = userItems(userId, 'ADMIN', passwordHash);
    expect(input).toEqual({
      TransactItems: [
        items.user,
        items.email,
        // The admission, re-checked where it commits: the invitation used up, the tenant's base account claimed for its administrative e-mail.
        invitationUsed,
        {
          Update: {
            TableName: TABLE,
            Key: keys.tenant(tenantId),
            UpdateExpression: 'SET baseAccountUserId = :user',
            ConditionExpression: 'attribute_exists(pk) AND #status = :active AND attribute_not_exists(baseAccountUserId) AND adminEmail = :email',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':user': userId, ':active': 'ACTIVE', ':email': EMAIL },
          },
        },
        // The tenant's first administrator.
        {
          Update: {
            TableName: TABLE,
            Key: keys.tenantAdmins(tenantId),
            UpdateExpression: 'SET #type = :type ADD n :delta',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':type': 'AdminCount', ':delta': 1 },
          },
        },
        sessionPut(userId, access.sessionId, refresh.jti),
        items.listing,
        // The secrets, in their own partition.
        items.credentials,
        // The registration's audit entry, which commits only with the account.
        ...auditPuts('user.registered', userId),
      ],
    });
    // No password, hash, token or e-mail in the entry; the invitation's token nowhere.
    const audit = JSON.stringify(input?.TransactItems?.slice(8));
    for (const secret of [PASSWORD, passwordHash, accessToken, refreshToken, refresh.jti, EMAIL]) expect(audit).not.toContain(secret);
    expect(JSON.stringify(ddb.calls().map((call) => call.args[0].input))).not.toContain(INVITATION_TOKEN);
  });

  it("reads the tenant and the invitation and compares the token's hash before bcrypt runs, then gives the attempt's slot back", async () => {
    storeHolds(unclaimedTenant(), baseInvitation());
    let readBeforeHash: unknown[] = [];
    bcryptHook.atHash = () => {
      readBeforeHash = ddb.calls().map((call) => call.args[0].input);
    };

    const result = await register(validBody());

    expect(result.statusCode).toBe(200);
    expect(vi.mocked(hash)).toHaveBeenCalledOnce();
    expect(readBeforeHash).toEqual([
      takeIpSlot,
      { TableName: TABLE, Key: keys.tenant(tenantId), ConsistentRead: true },
      { TableName: TABLE, Key: keys.invitation(tenantId, EMAIL), ConsistentRead: true },
    ]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([takeIpSlot, giveSlotBack(ipKey)]);
    expect(ddb.calls().map((call) => call.args[0].constructor.name)).toEqual([
      'UpdateCommand',
      'GetCommand',
      'GetCommand',
      'TransactWriteCommand',
      'UpdateCommand',
    ]);
  });

  it("returns 403 without an invitationToken, before any lookup or bcrypt, keeping the attempt's slot", async () => {
    storeHolds(unclaimedTenant(), baseInvitation());

    const result = await register(validBody({ invitationToken: undefined }));

    expect(parsed(result)).toEqual(forbidden());
    expect(vi.mocked(hash)).not.toHaveBeenCalled();
    expect(ddb.calls().map((call) => call.args[0].input)).toEqual([takeIpSlot]);
  });

  it.each([
    ["a token that is not the invitation's", () => memberInvitation({ tokenHash: 'f'.repeat(64) })],
    ['an expired invitation (TTL not yet applied)', () => memberInvitation({ mailedAt: '2026-11-14T23:15:00.000Z' })],
    ['no invitation of this address', () => undefined],
  ])('returns 403 for %s, without bcrypt or a write', async (_label, invitation) => {
    storeHolds(claimedTenant(), invitation());

    const result = await register(validBody());

    expect(parsed(result)).toEqual(forbidden());
    expect(vi.mocked(hash)).not.toHaveBeenCalled();
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([takeIpSlot]);
  });

  it.each([
    ['once the tenant has its base account', () => claimedTenant()],
    ["for another e-mail than the tenant's administrative one", () => unclaimedTenant({ adminEmail: 'owner@acme.example' })],
  ])('returns 403 to a base-account invitation %s, without bcrypt or a write', async (_label, tenant) => {
    storeHolds(tenant(), baseInvitation());

    const result = await register(validBody());

    expect(parsed(result)).toEqual(forbidden());
    expect(vi.mocked(hash)).not.toHaveBeenCalled();
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('registers a later account as a member with the token of its invitation, recording the invitation accepted', async () => {
    storeHolds(claimedTenant(), memberInvitation());

    const result = await register(validBody());

    expect(result.statusCode).toBe(200);
    const { access, refresh } = await issued(result);
    const userId = access.sub;
    const input = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input;
    const items = userItems(userId, 'MEMBER', storedHash(input?.TransactItems));
    // A member claims nothing and changes no administrator count.
    expect(input).toEqual({
      TransactItems: [
        items.user,
        items.email,
        invitationUsed,
        sessionPut(userId, access.sessionId, refresh.jti),
        items.listing,
        items.credentials,
        ...auditPuts('invitation.accepted', userId),
      ],
    });
    expect(JSON.stringify(input?.TransactItems?.slice(6))).not.toContain(PASSWORD);
  });

  it('returns 409 when the e-mail is already taken (the e-mail sentinel condition fails)', async () => {
    storeHolds(claimedTenant(), memberInvitation());
    ddb.on(TransactWriteCommand).rejects(cancelledAt(1));

    const result = await register(validBody());

    expect(parsed(result)).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem('conflict', 'Conflict', 409, 'An account with this e-mail already exists', REQUEST_ID),
    });
  });

  it('returns 403 when the invitation was used or replaced meanwhile (its delete fails in the transaction)', async () => {
    storeHolds(claimedTenant(), memberInvitation());
    ddb.on(TransactWriteCommand).rejects(cancelledAt(2));

    const result = await register(validBody());

    expect(parsed(result)).toEqual(forbidden());
    // The attempt failed: its slot is kept.
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([takeIpSlot]);
  });

  it("returns 403 when another registration claimed the base account meanwhile (the tenant's claim fails)", async () => {
    storeHolds(unclaimedTenant(), baseInvitation());
    ddb.on(TransactWriteCommand).rejects(cancelledAt(3));

    const result = await register(validBody());

    expect(parsed(result)).toEqual(forbidden());
  });

  it('returns 403, not 409, when the invitation is refused and the e-mail is taken too (nothing told about the address)', async () => {
    storeHolds(claimedTenant(), memberInvitation());
    ddb.on(TransactWriteCommand).rejects(cancelledAt([1, 2]));

    const result = await register(validBody());

    expect(parsed(result)).toEqual(forbidden());
  });

  it.each([
    ['does not exist', undefined],
    ['is suspended', storedTenant(tenantId, { status: 'SUSPENDED' })],
  ])('returns 404 when the tenant %s, before the invitation is read or bcrypt runs', async (_label, tenant) => {
    storeHolds(tenant, memberInvitation());

    const result = await register(validBody());

    expect(parsed(result)).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, 'No such tenant', REQUEST_ID),
    });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key)).toEqual([keys.tenant(tenantId)]);
    expect(vi.mocked(hash)).not.toHaveBeenCalled();
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it("returns 429 with Retry-After once the IP's attempts are used up, reading nothing", async () => {
    storeHolds(unclaimedTenant(), baseInvitation());
    ddb.on(UpdateCommand, { Key: ipKey }).rejects(windowFullError());

    const result = await register(validBody());

    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': '900' }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(1);
    expect(vi.mocked(hash)).not.toHaveBeenCalled();
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
