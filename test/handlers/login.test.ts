import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
import { expectedAuditPuts, expectedLonePuts } from '../support/audit-puts';
import { batchGetAnswer, storedCredentials, storedEmail, storedSession, storedTenant, storedUser, type Item } from '../support/items';
import { clearWindow, counterKey, giveSlotBack, subjects, takeSlot, windowFullError } from '../support/rate-limits';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

// bcrypt's compare, spied on but still real: an unknown e-mail must cost one comparison too.
vi.mock('bcryptjs', async (importOriginal) => {
  const original = await importOriginal<typeof bcrypt>();
  return { ...original, compare: vi.fn(original.compare) };
});

const ddb = mockClient(DynamoDBDocumentClient);
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;
const IP = '198.51.100.7';

const PASSWORD = 'correct horse battery staple';
const tenantId = randomUUID();
const userId = randomUUID();
const email = 'ana@acme.example';
let passwordHash: string;

/** Ana, the tenant's administrator, at credential version 2 with 3 sessions counted, 7 ever opened. */
const userItem = (overrides: Item = {}) =>
  storedUser(tenantId, userId, { role: 'ADMIN', credentialVersion: 2, sessionCount: 3, sessionOpenings: 7, ...overrides });

/** Her credentials item, at the same credential version (the two move together). */
const credentialsItem = (overrides: Item = {}) => storedCredentials(tenantId, userId, passwordHash, { credentialVersion: 2, ...overrides });

/** The store as login sees it: the e-mail's sentinel, then the user, its credentials and its tenant in one BatchGet. */
function storeHolds(account: { tenant?: Item; user?: Item; credentials?: Item } = {}) {
  const { tenant = storedTenant(tenantId, { baseAccountUserId: userId }), user = userItem(), credentials = credentialsItem() } = account;
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: keys.email(email) }).resolves({ Item: storedEmail(email, tenantId, userId) });
  ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: user });
  ddb.on(BatchGetCommand).resolves(batchGetAnswer(tenant, user, credentials));
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
}

const LOGIN_REQUEST = { sourceIp: '198.51.100.7', userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', occurredAt: NOW.toISOString() };

/** The entry of a sign-in, last in its transaction: the trail's, the user's and the new session's copies. */
const loginAuditPuts = (sessionId: string, requestId = 'login-request-1') =>
  expectedAuditPuts({
    ...LOGIN_REQUEST,
    trail: { tenantId },
    action: 'auth.login',
    actor: { type: 'user', id: userId, name: 'Ana Souza' },
    resource: { type: 'session', id: sessionId },
    requestId,
  });

/** The puts of a failed login: the trail's copy alone, naming nobody as the actor, then its origin. */
const failedLoginPuts = (trail: AuditScope, resourceId: string | null, requestId: string) =>
  expectedLonePuts({
    ...LOGIN_REQUEST,
    trail,
    action: 'auth.login_failed',
    actor: { type: 'anonymous', id: null, name: null },
    resource: { type: 'user', id: resourceId },
    requestId,
  });

const login = (body: object, requestId = 'login-request-1') =>
  handler(
    jsonPost('/auth/login', body, { requestId, sourceIp: '198.51.100.7', headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64)' } }),
    lambdaContext(),
  );

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

/** The session a sign-in stores, at the credential version its password was checked at. */
const sessionPut = (sessionId: string, refreshJti: string) => ({
  Put: {
    TableName: 'test-table',
    Item: {
      ...storedSession(tenantId, userId, sessionId, {
        createdAt: NOW.toISOString(),
        lastActiveAt: NOW.toISOString(),
        expiresAt: new Date(NOW.getTime() + settings.refreshTokenSeconds * 1000).toISOString(),
        ipAddress: IP,
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
        refreshJti,
        credentialVersion: 2,
      }),
      ttl: NOW_EPOCH + settings.refreshTokenSeconds,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/**
 * The user's update of a sign-in: conditioned on the user existing, on the credential version
 * the password was checked at and on the number of openings read (which it moves on, so two
 * openings serialize even when the count comes back to the same value); it sets the new count.
 */
const userUpdate = (readCount: number, nextCount = readCount + 1, readOpenings = 7) => ({
  Update: {
    TableName: 'test-table',
    Key: keys.user(tenantId, userId),
    UpdateExpression: 'SET sessionCount = :sessionCount, sessionOpenings = :sessionOpenings, lastLoginAt = :lastLoginAt',
    ConditionExpression: 'attribute_exists(pk) AND credentialVersion = :readCredentialVersion AND sessionOpenings = :readSessionOpenings',
    ExpressionAttributeValues: {
      ':readCredentialVersion': 2,
      ':sessionCount': nextCount,
      ':sessionOpenings': readOpenings + 1,
      ':readSessionOpenings': readOpenings,
      ':lastLoginAt': NOW.toISOString(),
    },
  },
});

/** The sign-in's transaction, cancelled at the user's update (its condition failed). */
const userConditionFailed = (items: number) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, ...Array.from({ length: items - 1 }, () => ({ Code: 'None' }))],
  });

/** The session and access token ids a 200 carries. */
async function issued(result: Awaited<ReturnType<typeof login>>) {
  const [accessCookie, refreshCookie] = (result.multiValueHeaders?.['Set-Cookie'] ?? []) as string[];
  const access = await verifyAccessToken(cookieValue(accessCookie, 'accessToken'));
  const refresh = await verifyRefreshToken(cookieValue(refreshCookie, 'refreshToken'));
  return { access, refresh, accessToken: cookieValue(accessCookie, 'accessToken'), refreshToken: cookieValue(refreshCookie, 'refreshToken') };
}

describe('POST /auth/login', () => {
  it('returns 200 with the user and sets both cookies, the refresh one for the browser session only', async () => {
    const result = await login({ email, password: PASSWORD });

    const { accessToken, refreshToken } = await issued(result);
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

  it("reads the user, its credentials and its tenant in one consistent BatchGet, after the e-mail's sentinel", async () => {
    await login({ email, password: PASSWORD });

    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([{ TableName: 'test-table', Key: keys.email(email), ConsistentRead: true }]);
    expect(ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input)).toEqual([
      {
        RequestItems: {
          'test-table': { Keys: [keys.user(tenantId, userId), keys.credentials(tenantId, userId), keys.tenant(tenantId)], ConsistentRead: true },
        },
      },
    ]);
  });

  it('issues tokens bound to a new session and stores it in one transaction conditioned on the credential version and the openings', async () => {
    const result = await login({ email, password: PASSWORD });

    const { access, refresh, accessToken, refreshToken } = await issued(result);
    const writes = ddb.commandCalls(TransactWriteCommand);
    expect(writes).toHaveLength(1);
    // One transaction, no lone put: the sign-in's stamp and count on the user, the session and its audit entry.
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    // Below the cap, the count says so: the sessions are not read.
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(0);
    expect(access).toEqual({
      sub: userId,
      tenantId,
      sessionId: access.sessionId,
      jti: access.jti,
      iat: NOW_EPOCH,
      exp: NOW_EPOCH + settings.accessTokenSeconds,
    });
    expect(refresh).toEqual({
      sub: userId,
      tenantId,
      sessionId: access.sessionId,
      jti: refresh.jti,
      iat: NOW_EPOCH,
      exp: NOW_EPOCH + settings.refreshTokenSeconds,
    });
    expect(writes[0]?.args[0].input).toEqual({
      TransactItems: [userUpdate(3), sessionPut(access.sessionId, refresh.jti), ...loginAuditPuts(access.sessionId)],
    });
    // The entry holds neither the password nor a token.
    const audit = JSON.stringify(writes[0]?.args[0].input.TransactItems?.slice(2));
    for (const secret of [PASSWORD, passwordHash, accessToken, refreshToken, refresh.jti, access.jti]) expect(audit).not.toContain(secret);
  });

  it('conditions a user older than credential versions on having none yet', async () => {
    // Neither item has one: the credentials were moved off such a user (read as version 0).
    storeHolds({ user: userItem({ credentialVersion: undefined }), credentials: credentialsItem({ credentialVersion: undefined }) });

    const result = await login({ email, password: PASSWORD });

    expect(result.statusCode).toBe(200);
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update).toMatchObject({
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(credentialVersion) OR credentialVersion = :readCredentialVersion) AND sessionOpenings = :readSessionOpenings',
      ExpressionAttributeValues: expect.objectContaining({ ':readCredentialVersion': 0 }),
    });
  });

  it('conditions a user older than the openings counter on having none yet, and starts it', async () => {
    storeHolds({ user: userItem({ sessionOpenings: undefined }) });

    const result = await login({ email, password: PASSWORD });

    expect(result.statusCode).toBe(200);
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update).toMatchObject({
      ConditionExpression: 'attribute_exists(pk) AND credentialVersion = :readCredentialVersion AND attribute_not_exists(sessionOpenings)',
      ExpressionAttributeValues: { ':readCredentialVersion': 2, ':sessionCount': 4, ':sessionOpenings': 1, ':lastLoginAt': NOW.toISOString() },
    });
  });

  it('opens the session at the version of the credentials it checked, even when the user item already shows a newer one', async () => {
    // The BatchGet is no snapshot: a reset committed between its two reads. The sign-in is bound to
    // the old hash's version, so its condition fails and the fresh read says the version moved.
    storeHolds({ user: userItem({ credentialVersion: 3 }) });
    ddb.on(TransactWriteCommand).rejects(userConditionFailed(5));
    ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem({ credentialVersion: 3 }) });

    const result = await login({ email, password: PASSWORD });

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Invalid e-mail or password', 'login-request-1'),
    });
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems;
    expect(items?.[0]?.Update?.ExpressionAttributeValues).toMatchObject({ ':readCredentialVersion': 2 });
    expect(items?.[1]?.Put?.Item).toMatchObject({ credentialVersion: 2 });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('returns 401 and opens nothing when the password changed while it was being checked (the credential version moved)', async () => {
    ddb.on(TransactWriteCommand).rejects(userConditionFailed(5));
    ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem({ credentialVersion: 3 }) });

    const result = await login({ email, password: PASSWORD });

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Invalid e-mail or password', 'login-request-1'),
    });
    expect(result.multiValueHeaders).toBeUndefined();
    // The user is read again to tell a moved version from a moved count; no second attempt.
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key)).toEqual([keys.email(email), keys.user(tenantId, userId)]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('plans the opening again when only the openings moved (a parallel sign-in)', async () => {
    ddb.on(TransactWriteCommand).rejectsOnce(userConditionFailed(5)).resolves({});
    ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem({ sessionCount: 4, sessionOpenings: 8 }) });

    const result = await login({ email, password: PASSWORD });

    expect(result.statusCode).toBe(200);
    const { access, refresh } = await issued(result);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems?.slice(0, 2))).toEqual([
      [userUpdate(3), sessionPut(access.sessionId, refresh.jti)],
      [userUpdate(4, 5, 8), sessionPut(access.sessionId, refresh.jti)],
    ]);
  });

  it('sets a persistent refresh cookie for the rememberMe lifetime when rememberMe is true', async () => {
    const result = await login({ email, password: PASSWORD, rememberMe: true });

    const { accessToken, refreshToken } = await issued(result);
    expect(result.statusCode).toBe(200);
    expect(result.multiValueHeaders).toEqual({
      'Set-Cookie': [
        `accessToken=${accessToken}; Max-Age=${settings.accessTokenSeconds}; Path=/; ${COOKIE_ATTRIBUTES}`,
        `refreshToken=${refreshToken}; Max-Age=${settings.rememberMeSeconds}; Path=/auth; ${COOKIE_ATTRIBUTES}`,
      ],
    });
    await expect(verifyRefreshToken(refreshToken)).resolves.toMatchObject({ exp: NOW_EPOCH + settings.rememberMeSeconds });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[1]?.Put?.Item).toMatchObject({
      rememberMe: true,
      expiresAt: new Date(NOW.getTime() + settings.rememberMeSeconds * 1000).toISOString(),
    });
  });

  it('finds the account whatever the case of the e-mail', async () => {
    const result = await login({ email: '  Ana@ACME.Example ', password: PASSWORD });

    expect(result.statusCode).toBe(200);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toContainEqual({
      TableName: 'test-table',
      Key: keys.email(email),
      ConsistentRead: true,
    });
  });

  it('stores the User-Agent under the stored-text rule: a forged line break becomes "?"', async () => {
    const event = jsonPost(
      '/auth/login',
      { email, password: PASSWORD },
      { requestId: 'login-request-1', sourceIp: IP, headers: { 'User-Agent': 'Mozilla/5.0\u2028auth.login ok' } },
    );

    const result = await handler(event, lambdaContext());

    expect(result.statusCode).toBe(200);
    const items = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems ?? [];
    expect(items[1]?.Put?.Item?.userAgent).toBe('Mozilla/5.0?auth.login ok');
    // The session, then the entry: its three copies hold no User-Agent, its origin holds it once.
    expect(items.slice(2).map((item) => [item.Put?.Item?.type, item.Put?.Item?.userAgent])).toEqual([
      ['AuditEntry', undefined],
      ['AuditEntry', undefined],
      ['AuditEntry', undefined],
      ['AuditOrigin', 'Mozilla/5.0?auth.login ok'],
    ]);
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
    // Each failure is the lone put of its entry and its origin's, and nothing else: an unknown e-mail's in the
    // platform's trail naming no account, a wrong password's in the tenant's naming the user.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts).toEqual([...failedLoginPuts('platform', null, 'request-unknown'), ...failedLoginPuts({ tenantId }, userId, 'request-wrong')]);
    // Neither holds the e-mail or either password.
    for (const secret of ['nobody@acme.example', email, PASSWORD, 'not the password', passwordHash]) expect(JSON.stringify(puts)).not.toContain(secret);
  });

  it('spends one bcrypt comparison on an unknown e-mail, against a decoy at the configured cost', async () => {
    const result = await login({ email: 'nobody@acme.example', password: PASSWORD });

    expect(result.statusCode).toBe(401);
    expect(vi.mocked(compare)).toHaveBeenCalledOnce();
    expect(vi.mocked(compare).mock.calls[0]?.[1]).toBe(decoyHash());
  });

  it('answers an account without its credentials item as a wrong password, after a comparison against the decoy', async () => {
    ddb.on(BatchGetCommand).resolves(batchGetAnswer(storedTenant(tenantId), userItem()));

    const result = await login({ email, password: PASSWORD });

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Invalid e-mail or password', 'login-request-1'),
    });
    expect(vi.mocked(compare).mock.calls.map((call) => call[1])).toEqual([decoyHash()]);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns the same 401 when the tenant of the account is suspended', async () => {
    storeHolds({ tenant: storedTenant(tenantId, { status: 'SUSPENDED' }) });

    const result = await login({ email, password: PASSWORD });

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Invalid e-mail or password', 'login-request-1'),
    });
    // A refusal: no session, only the failure's entry in the tenant's trail.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand).map((call) => call.args[0].input)).toEqual(failedLoginPuts({ tenantId }, userId, 'login-request-1'));
  });

  it('returns 400 when the password is missing and rememberMe is not a boolean', async () => {
    const result = await login({ email, rememberMe: 'yes' });

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem(
        'validation',
        'Invalid request',
        400,
        'password: is required; rememberMe: Invalid input: expected boolean, received string',
        'login-request-1',
        [
          { field: 'password', message: 'is required' },
          { field: 'rememberMe', message: 'Invalid input: expected boolean, received string' },
        ],
      ),
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

describe("the cap of 50 sessions per user, in the sign-in's transaction", () => {
  const HOUR = 3_600_000;
  /** 50 sessions, the oldest opened 50 hours ago and one an hour later each; `overrides` by position. */
  const fiftySessions = (overrides: Record<number, Item> = {}) =>
    Array.from({ length: 50 }, (_, index) => {
      const sessionId = randomUUID();
      return storedSession(tenantId, userId, sessionId, {
        credentialVersion: 2,
        createdAt: new Date(NOW.getTime() - (50 - index) * HOUR).toISOString(),
        expiresAt: new Date(NOW.getTime() + 30 * 24 * HOUR).toISOString(),
        ...overrides[index],
      });
    });
  const sessionDelete = (item: Item) => ({ Delete: { TableName: 'test-table', Key: { pk: item.pk, sk: item.sk } } });

  it('makes room by deleting a dead session first, in the same transaction, with nothing audited for it', async () => {
    // The 11th is dead: opened at an earlier credential version.
    const existing = fiftySessions({ 10: { credentialVersion: 1 } });
    storeHolds({ user: userItem({ sessionCount: 50 }) });
    ddb.on(QueryCommand).resolves({ Items: existing });

    const result = await login({ email, password: PASSWORD });

    const { access, refresh } = await issued(result);
    expect(result.statusCode).toBe(200);
    expect(ddb.commandCalls(QueryCommand)[0]?.args[0].input).toMatchObject({
      ExpressionAttributeValues: { ':pk': keys.sessionsOfUser(tenantId, userId).pk, ':prefix': 'SESSION#' },
      ConsistentRead: true,
    });
    // The count stays at 50; the openings move on, which is what a parallel opening's condition sees.
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [userUpdate(50, 50), sessionPut(access.sessionId, refresh.jti), sessionDelete(existing[10] as Item), ...loginAuditPuts(access.sessionId)],
    });
  });

  it('evicts the oldest live session when none is dead, recording `session.evicted` for it in the transaction', async () => {
    const existing = fiftySessions();
    storeHolds({ user: userItem({ sessionCount: 50 }) });
    ddb.on(QueryCommand).resolves({ Items: existing });

    const result = await login({ email, password: PASSWORD });

    const { access, refresh } = await issued(result);
    const evicted = existing[0] as Item;
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [
        userUpdate(50, 50),
        sessionPut(access.sessionId, refresh.jti),
        sessionDelete(evicted),
        ...loginAuditPuts(access.sessionId),
        // The eviction's entry: the signing-in user ended that session.
        ...expectedAuditPuts({
          ...LOGIN_REQUEST,
          trail: { tenantId },
          action: 'session.evicted',
          actor: { type: 'user', id: userId, name: 'Ana Souza' },
          resource: { type: 'session', id: String(evicted.id) },
          requestId: 'login-request-1',
        }),
      ],
    });
  });
});

describe('the attempt limits of POST /auth/login (5 per 15 minutes per e-mail and IP, 30 per IP)', () => {
  // NOW starts a 15-minute window. The e-mail-and-IP counter names the pair by a hash: no address in a key.
  const addressKey = counterKey('password-attempts', subjects.emailAndIp(email, IP), NOW.getTime());
  const ipKey = counterKey('sign-in-per-ip', subjects.ip(IP), NOW.getTime());
  const takeAddressSlot = takeSlot(addressKey, 5, NOW_EPOCH + 900);
  const takeIpSlot = takeSlot(ipKey, 30, NOW_EPOCH + 900);
  const full = (key: typeof addressKey) =>
    ddb.on(UpdateCommand, { Key: key, ConditionExpression: takeAddressSlot.ConditionExpression }).rejects(windowFullError());
  const tooMany = (retryAfter: string) => ({
    statusCode: 429,
    headers: problemHeaders({ 'Retry-After': retryAfter }),
    body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', 'login-request-1'),
  });

  it("takes the attempt's slots, its e-mail-and-IP window's then its IP's, before the e-mail is looked up, and keeps both when it fails", async () => {
    await login({ email, password: 'wrong password' });

    expect(
      ddb
        .calls()
        .slice(0, 2)
        .map((call) => call.args[0].input),
    ).toEqual([takeAddressSlot, takeIpSlot]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([takeAddressSlot, takeIpSlot]);
  });

  it('clears the e-mail-and-IP window and gives the per-IP slot back after a right password, before the session is written', async () => {
    await login({ email, password: PASSWORD });

    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      takeAddressSlot,
      takeIpSlot,
      clearWindow(addressKey),
      giveSlotBack(ipKey),
    ]);
    expect(
      ddb
        .calls()
        .map((call) => call.args[0].constructor.name)
        .filter((name) => name !== 'GetCommand' && name !== 'BatchGetCommand'),
    ).toEqual(['UpdateCommand', 'UpdateCommand', 'UpdateCommand', 'UpdateCommand', 'TransactWriteCommand']);
  });

  it('still signs in when the window was cleared and the slot given back by another request meanwhile (their conditions fail)', async () => {
    ddb.on(UpdateCommand, { Key: addressKey, ConditionExpression: clearWindow(addressKey).ConditionExpression }).rejects(windowFullError());
    ddb.on(UpdateCommand, { Key: ipKey, ConditionExpression: giveSlotBack(ipKey).ConditionExpression }).rejects(windowFullError());

    const result = await login({ email, password: PASSWORD });

    expect(result.statusCode).toBe(200);
  });

  it('clears the window on a right password even for a user with a second factor (the challenge is not a failure)', async () => {
    storeHolds({ credentials: credentialsItem({ totpSecret: 'JBSWY3DPEHPK3PXP', totpLastStep: 1 }) });

    const result = await login({ email, password: PASSWORD });

    expect(JSON.parse(result.body)).toEqual({ mfaRequired: true });
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      takeAddressSlot,
      takeIpSlot,
      clearWindow(addressKey),
      giveSlotBack(ipKey),
    ]);
  });

  it("returns 429 with Retry-After once the e-mail-and-IP window is full, the right password included, without bcrypt, a lookup or the IP's slot", async () => {
    full(addressKey);

    const result = await login({ email, password: PASSWORD });

    expect(parsed(result)).toEqual(tooMany('900'));
    expect(vi.mocked(compare)).not.toHaveBeenCalled();
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([takeAddressSlot]);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    // Not even a failed login's entry: the throttle answered, no attempt was made.
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it("returns 429 once the IP's ceiling is full, whatever the e-mail, without bcrypt or a lookup", async () => {
    full(ipKey);

    const results = [await login({ email, password: PASSWORD }), await login({ email: 'another@acme.example', password: PASSWORD })];

    expect(results.map(parsed)).toEqual([tooMany('900'), tooMany('900')]);
    expect(vi.mocked(compare)).not.toHaveBeenCalled();
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
  });

  it("answers an unknown e-mail's full window exactly as a known one's", async () => {
    full(addressKey);
    const known = parsed(await login({ email, password: 'wrong password' }));
    full(counterKey('password-attempts', subjects.emailAndIp('nobody@acme.example', IP), NOW.getTime()));

    const unknown = parsed(await login({ email: 'nobody@acme.example', password: 'wrong password' }));

    expect(unknown).toEqual(known);
    expect(vi.mocked(compare)).not.toHaveBeenCalled();
  });

  it('still lets the same e-mail in from another IP', async () => {
    full(addressKey);
    const event = jsonPost('/auth/login', { email, password: PASSWORD }, { sourceIp: '192.0.2.44' });

    const result = await handler(event, lambdaContext());

    expect(result.statusCode).toBe(200);
  });
});
