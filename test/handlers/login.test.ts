import { createHash, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type * as bcrypt from 'bcryptjs';
import { compare } from 'bcryptjs';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/login';
import type { AuditScope } from '../../lib/audit/model';
import { decoyHash, hashPassword } from '../../lib/auth/passwords';
import { verifyAccessToken, verifyRefreshToken } from '../../lib/auth/tokens';
import { keys } from '../../lib/db/keys';
import { settings } from '../../lib/settings';
import { jsonPost, lambdaContext } from '../../tools/events';
import { expectedAuditPuts, expectedTrailPut } from '../support/audit-puts';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

// bcrypt's compare, spied on but still real: an unknown e-mail must cost one comparison too.
vi.mock('bcryptjs', async (importOriginal) => {
  const original = await importOriginal<typeof bcrypt>();
  return { ...original, compare: vi.fn(original.compare) };
});

const ddb = mockClient(DynamoDBDocumentClient);
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;

const PASSWORD = 'correct horse battery staple';
const tenantId = randomUUID();
const userId = randomUUID();
const email = 'ana@acme.example';
let passwordHash: string;

const tenantItem = (status = 'ACTIVE') => ({
  ...keys.tenant(tenantId),
  type: 'Tenant',
  id: tenantId,
  name: 'acme',
  plan: 'STARTER',
  status,
  baseAccountUserId: userId,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const userItem = () => ({
  ...keys.user(tenantId, userId),
  type: 'User',
  id: userId,
  tenantId,
  name: 'Ana Souza',
  email,
  passwordHash,
  role: 'ADMIN',
  platformAdmin: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

/** The store as login sees it: the e-mail sentinel, the user and the tenant. */
function storeHolds(tenant = tenantItem()) {
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: keys.email(email) }).resolves({ Item: { ...keys.email(email), type: 'Email', email, tenantId, userId } });
  ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem() });
  ddb.on(GetCommand, { Key: keys.tenant(tenantId) }).resolves({ Item: tenant });
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
}

const LOGIN_REQUEST = { sourceIp: '198.51.100.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', occurredAt: NOW.toISOString() };

/** The entry of a sign-in, last in its transaction: the trail's, the user's and the new session's copies. */
const loginAuditPuts = (sessionId: string, requestId = 'login-request-1') =>
  expectedAuditPuts({ ...LOGIN_REQUEST, trail: { tenantId }, action: 'auth.login', actor: { type: 'user', id: userId, name: 'Ana Souza' }, resource: { type: 'session', id: sessionId }, requestId });

/** The one put of a failed login: the trail's copy alone, naming nobody as the actor. */
const failedLoginPut = (trail: AuditScope, resourceId: string | null, requestId: string) =>
  expectedTrailPut({ ...LOGIN_REQUEST, trail, action: 'auth.login_failed', actor: { type: 'anonymous', id: null, name: null }, resource: { type: 'user', id: resourceId }, requestId });

const login = (body: object, requestId = 'login-request-1') =>
  handler(jsonPost('/auth/login', body, { requestId, sourceIp: '198.51.100.7', headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' } }), lambdaContext());

const COOKIE_ATTRIBUTES = 'HttpOnly; Secure; SameSite=Strict';
const cookieValue = (setCookie: string | undefined, name: string): string => {
  const match = new RegExp(`^${name}=([^;]+);`).exec(setCookie ?? '');
  if (!match?.[1]) throw new Error(`no ${name} cookie in ${setCookie}`);
  return match[1];
};

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
});

beforeEach(() => {
  ddb.reset();
  vi.mocked(compare).mockClear();
  storeHolds();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/login', () => {
  it('returns 200 with the user and sets both cookies, the refresh one for the browser session only', async () => {
    const result = await login({ email, password: PASSWORD });

    const [accessCookie, refreshCookie] = (result.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
    const accessToken = cookieValue(accessCookie, 'accessToken');
    const refreshToken = cookieValue(refreshCookie, 'refreshToken');
    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      multiValueHeaders: {
        'Set-Cookie': [
          `accessToken=${accessToken}; Max-Age=${settings.accessTokenSeconds}; Path=/; ${COOKIE_ATTRIBUTES}`,
          `refreshToken=${refreshToken}; Path=/auth; ${COOKIE_ATTRIBUTES}`,
        ],
      },
      body: { user: { id: userId, name: 'Ana Souza', email, tenantId } },
    });
  });

  it('issues tokens bound to a new session and stores that session', async () => {
    const result = await login({ email, password: PASSWORD });

    const [accessCookie, refreshCookie] = (result.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
    const access = await verifyAccessToken(cookieValue(accessCookie, 'accessToken'));
    const refresh = await verifyRefreshToken(cookieValue(refreshCookie, 'refreshToken'));
    const writes = ddb.commandCalls(TransactWriteCommand);
    expect(writes).toHaveLength(1);
    // One transaction, no lone put: the session, the sign-in's stamp on the user and its audit entry.
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(access).toEqual({ sub: userId, tenantId, sessionId: access.sessionId, jti: access.jti, iat: NOW_EPOCH, exp: NOW_EPOCH + settings.accessTokenSeconds });
    expect(refresh).toEqual({ sub: userId, tenantId, sessionId: access.sessionId, jti: refresh.jti, iat: NOW_EPOCH, exp: NOW_EPOCH + settings.refreshTokenSeconds });
    expect(writes[0]?.args[0].input).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: 'test-table',
            Item: {
              ...keys.session(tenantId, userId, access.sessionId),
              type: 'Session',
              id: access.sessionId,
              tenantId,
              userId,
              status: 'ACTIVE',
              rememberMe: false,
              createdAt: '2026-11-21T23:15:00.000Z',
              lastActiveAt: '2026-11-21T23:15:00.000Z',
              expiresAt: new Date(NOW.getTime() + settings.refreshTokenSeconds * 1000).toISOString(),
              ipAddress: '198.51.100.7',
              userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
              refreshJti: refresh.jti,
              ttl: NOW_EPOCH + settings.refreshTokenSeconds,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: 'test-table',
            Key: keys.user(tenantId, userId),
            UpdateExpression: 'SET lastLoginAt = :now',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':now': '2026-11-21T23:15:00.000Z' },
          },
        },
        ...loginAuditPuts(access.sessionId),
      ],
    });
    // The entry holds neither the password nor a token.
    const audit = JSON.stringify(writes[0]?.args[0].input.TransactItems?.slice(2));
    for (const secret of [PASSWORD, passwordHash, cookieValue(accessCookie, 'accessToken'), cookieValue(refreshCookie, 'refreshToken'), refresh.jti, access.jti]) expect(audit).not.toContain(secret);
  });

  it('sets a persistent refresh cookie for the rememberMe lifetime when rememberMe is true', async () => {
    const result = await login({ email, password: PASSWORD, rememberMe: true });

    const [accessCookie, refreshCookie] = (result.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
    const accessToken = cookieValue(accessCookie, 'accessToken');
    const refreshToken = cookieValue(refreshCookie, 'refreshToken');
    expect(result.statusCode).toBe(200);
    expect(result.multiValueHeaders).toEqual({
      'Set-Cookie': [
        `accessToken=${accessToken}; Max-Age=${settings.accessTokenSeconds}; Path=/; ${COOKIE_ATTRIBUTES}`,
        `refreshToken=${refreshToken}; Max-Age=${settings.rememberMeSeconds}; Path=/auth; ${COOKIE_ATTRIBUTES}`,
      ],
    });
    await expect(verifyRefreshToken(refreshToken)).resolves.toMatchObject({ exp: NOW_EPOCH + settings.rememberMeSeconds });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put?.Item).toMatchObject({ rememberMe: true, expiresAt: new Date(NOW.getTime() + settings.rememberMeSeconds * 1000).toISOString() });
  });

  it('finds the account whatever the case of the e-mail', async () => {
    const result = await login({ email: '  Ana@ACME.Example ', password: PASSWORD });

    expect(result.statusCode).toBe(200);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toContainEqual({ TableName: 'test-table', Key: keys.email(email), ConsistentRead: true });
  });

  it('returns 401 with the same body for an unknown e-mail and a wrong password', async () => {
    const unknown = await login({ email: 'nobody@acme.example', password: PASSWORD }, 'request-unknown');
    const wrong = await login({ email, password: 'not the password' }, 'request-wrong');

    const detail = 'Invalid e-mail or password';
    expect(parsed(unknown)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, detail, 'request-unknown'),
    });
    expect(parsed(wrong)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, detail, 'request-wrong'),
    });
    expect(unknown.body.replace('request-unknown', 'ID')).toBe(wrong.body.replace('request-wrong', 'ID'));
    // Each failure is one lone put of its entry and nothing else: an unknown e-mail's in the
    // platform's trail naming no account, a wrong password's in the tenant's naming the user.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts).toEqual([failedLoginPut('platform', null, 'request-unknown'), failedLoginPut({ tenantId }, userId, 'request-wrong')]);
    // Neither holds the e-mail or either password.
    for (const secret of ['nobody@acme.example', email, PASSWORD, 'not the password', passwordHash]) expect(JSON.stringify(puts)).not.toContain(secret);
  });

  it('spends one bcrypt comparison on an unknown e-mail, against a decoy at the configured cost', async () => {
    const result = await login({ email: 'nobody@acme.example', password: PASSWORD });

    expect(result.statusCode).toBe(401);
    expect(vi.mocked(compare)).toHaveBeenCalledOnce();
    expect(vi.mocked(compare).mock.calls[0]?.[1]).toBe(decoyHash());
  });

  it('returns the same 401 when the tenant of the account is suspended', async () => {
    storeHolds(tenantItem('SUSPENDED'));

    const result = await login({ email, password: PASSWORD });

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Invalid e-mail or password', 'login-request-1'),
    });
    // A refusal: no session, only the failure's entry in the tenant's trail.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input)).toEqual([failedLoginPut({ tenantId }, userId, 'login-request-1')]);
  });

  it('returns 400 when the password is missing and rememberMe is not a boolean', async () => {
    const result = await login({ email, rememberMe: 'yes' });

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'password: is required; rememberMe: Invalid input: expected boolean, received string', 'login-request-1', [
        { field: 'password', message: 'is required' },
        { field: 'rememberMe', message: 'Invalid input: expected boolean, received string' },
      ]),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 403 for a cross-site login and does not look the account up', async () => {
    const event = jsonPost('/auth/login', { email, password: PASSWORD }, { headers: { 'Sec-Fetch-Site': 'cross-site' } });

    const result = await handler(event, lambdaContext());

    expect(result.statusCode).toBe(403);
    expect(ddb.calls()).toHaveLength(0);
  });
});

describe('the attempt limit of POST /auth/login (5 per 15 minutes per e-mail and IP)', () => {
  // The counter names the e-mail and IP pair by a hash: no address in a key.
  const counterKey = {
    pk: `RATE#POST /auth/login#${createHash('sha256').update(`${email}\n198.51.100.7`).digest('base64url')}`,
    sk: `WINDOW#${NOW.getTime()}`,
  };
  const takeSlot = {
    TableName: 'test-table',
    Key: counterKey,
    UpdateExpression: 'SET #count = if_not_exists(#count, :zero) + :one, #ttl = :ttl',
    ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
    ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':limit': 5, ':ttl': NOW_EPOCH + 900 },
  };
  const giveBack = {
    TableName: 'test-table',
    Key: counterKey,
    UpdateExpression: 'SET #count = :zero',
    ConditionExpression: '#count = :one',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
  };
  const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } });
  const windowFull = () => ddb.on(UpdateCommand, { Key: counterKey, ConditionExpression: takeSlot.ConditionExpression }).rejects(conditionFailed());

  it('takes the attempt\'s slot before the e-mail is looked up, and keeps it when the attempt fails', async () => {
    await login({ email, password: 'wrong password' });

    expect(ddb.calls()[0]?.args[0].input).toEqual(takeSlot);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([takeSlot]);
  });

  it('gives a successful attempt\'s slot back when it is alone in its window', async () => {
    await login({ email, password: PASSWORD });

    // The sign-in's own writes are one transaction; the slot's are the only updates, the give-back after it.
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([takeSlot, giveBack]);
    expect(ddb.calls().map((call) => call.args[0].constructor.name).filter((name) => name !== 'GetCommand')).toEqual(['UpdateCommand', 'TransactWriteCommand', 'UpdateCommand']);
  });

  it('keeps a successful attempt\'s slot when others are in the window (the give-back condition fails)', async () => {
    ddb.on(UpdateCommand, { Key: counterKey, ConditionExpression: giveBack.ConditionExpression }).rejects(conditionFailed());

    const result = await login({ email, password: PASSWORD });

    expect(result.statusCode).toBe(200);
  });

  it('returns 429 with Retry-After once the window is full, the right password included, without bcrypt or a lookup', async () => {
    windowFull();

    const result = await login({ email, password: PASSWORD });

    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': '900' }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', 'login-request-1'),
    });
    expect(vi.mocked(compare)).not.toHaveBeenCalled();
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    // Not even a failed login's entry: the throttle answered, no attempt was made.
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('answers an unknown e-mail\'s full window exactly as a known one\'s', async () => {
    windowFull();
    const known = parsed(await login({ email, password: 'wrong password' }));
    const unknownKey = { ...counterKey, pk: `RATE#POST /auth/login#${createHash('sha256').update('nobody@acme.example\n198.51.100.7').digest('base64url')}` };
    ddb.on(UpdateCommand, { Key: unknownKey, ConditionExpression: takeSlot.ConditionExpression }).rejects(conditionFailed());

    const unknown = parsed(await login({ email: 'nobody@acme.example', password: 'wrong password' }));

    expect(unknown).toEqual(known);
    expect(vi.mocked(compare)).not.toHaveBeenCalled();
  });

  it('still lets the same e-mail in from another IP', async () => {
    windowFull();
    const event = jsonPost('/auth/login', { email, password: PASSWORD }, { sourceIp: '192.0.2.44' });

    const result = await handler(event, lambdaContext());

    expect(result.statusCode).toBe(200);
  });
});
