import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/authorizer';
import { mustEnrolSecondFactor } from '../../lib/auth/authorize';
import { signAccessToken, signRefreshToken } from '../../lib/auth/tokens';
import { keys } from '../../lib/db/keys';
import { Unauthorized } from '../../lib/errors';
import { authorizerEvent } from '../../tools/events';
import { storedSession, storedTenant, storedUser, type Item } from '../support/items';
import { mintToken, nowSeconds } from '../support/tokens';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const METHOD_ARN = 'arn:aws:execute-api:us-east-1:123456789012:abc123defg/test/GET/auth/me';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

const tenantId = randomUUID();
const userId = randomUUID();
const sessionId = randomUUID();
const subject = { userId, tenantId, sessionId };

/** The tenant, Ana (its administrator, at credential version 4) and her session opened an hour ago at that version, recently active. */
const tenantItem = (overrides: Item = {}): Item => storedTenant(tenantId, overrides);
const userItem = (overrides: Item = {}): Item => storedUser(tenantId, userId, { role: 'ADMIN', credentialVersion: 4, ...overrides });
const sessionItem = (overrides: Item = {}): Item =>
  storedSession(tenantId, userId, sessionId, {
    createdAt: ago(3_600_000),
    // Recently active: no lastActiveAt write is due.
    lastActiveAt: ago(10_000),
    expiresAt: ago(-3_600_000),
    refreshJti: randomUUID(),
    credentialVersion: 4,
    ...overrides,
  });

/** The BatchGet answer: whatever items exist of tenant, user, session and jti blacklist. */
function storeHolds(...items: Item[]): void {
  ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: items }, UnprocessedKeys: {} });
}

const accessToken = async () => signAccessToken(subject, nowSeconds());
const authorizeWith = (cookie: string | undefined) => handler(authorizerEvent({ cookie }));

/** The authorizer must deny with exactly Error('Unauthorized'): API Gateway's 401 signal. */
async function expectDenied(decision: Promise<unknown>): Promise<void> {
  const error: unknown = await decision.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(Unauthorized);
  expect((error as Error).message).toBe('Unauthorized');
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  ddb.reset();
  storeHolds(tenantItem(), userItem(), sessionItem());
  ddb.on(UpdateCommand).resolves({});
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the REQUEST authorizer', () => {
  it('allows a valid token on the method ARN, with the principal as string context', async () => {
    const { token, jti, exp } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision).toEqual({
      principalId: userId,
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: METHOD_ARN }] },
      context: {
        kind: 'user',
        tenantId,
        userId,
        sessionId,
        jti,
        role: 'ADMIN',
        platformAdmin: 'false',
        name: 'Ana Souza',
        email: 'ana@acme.example',
        tokenExpiresAt: String(exp),
        sessionsValidFrom: '',
        credentialVersion: '4',
        mfaEnrolmentRequired: 'false',
      },
    });
    for (const value of Object.values(decision.context ?? {})) expect(typeof value).toBe('string');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it("moves the session's lastActiveAt with one conditional write when it is a minute old", async () => {
    storeHolds(tenantItem(), userItem(), sessionItem({ lastActiveAt: ago(60_000) }));
    const { token } = await accessToken();

    await authorizeWith(`accessToken=${token}`);

    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: TABLE,
        Key: keys.session(tenantId, userId, sessionId),
        UpdateExpression: 'SET lastActiveAt = :now',
        ConditionExpression: 'lastActiveAt < :stale',
        ExpressionAttributeValues: { ':now': NOW.toISOString(), ':stale': ago(60_000) },
      },
    ]);
  });

  it('still allows when a parallel request already moved lastActiveAt', async () => {
    storeHolds(tenantItem(), userItem(), sessionItem({ lastActiveAt: ago(120_000) }));
    ddb.on(UpdateCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } }));
    const { token } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.principalId).toBe(userId);
  });

  it('lets a store failure of the lastActiveAt write through as itself (a 503 at the gateway, not a 401)', async () => {
    storeHolds(tenantItem(), userItem(), sessionItem({ lastActiveAt: ago(120_000) }));
    const failure = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 400 },
    });
    ddb.on(UpdateCommand).rejects(failure);
    const { token } = await accessToken();

    await expect(authorizeWith(`accessToken=${token}`)).rejects.toBe(failure);
  });

  it("passes the user's sessionsValidFrom on to the functions", async () => {
    storeHolds(tenantItem(), userItem({ sessionsValidFrom: ago(7_200_000) }), sessionItem());
    const { token } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.context).toMatchObject({ sessionsValidFrom: ago(7_200_000) });
  });

  it("denies a session opened at another credential version than the user's, whatever the clocks say", async () => {
    // The password was changed (or the second factor turned on, off or reset) since: the version moved on.
    storeHolds(tenantItem(), userItem({ credentialVersion: 5 }), sessionItem({ credentialVersion: 4 }));
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it("denies a session at a later version than the user's too (only the same version is live)", async () => {
    storeHolds(tenantItem(), userItem({ credentialVersion: 4 }), sessionItem({ credentialVersion: 5 }));
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it("allows a session at the user's version even when it opened before sessionsValidFrom (the version decides)", async () => {
    // A password change opens the new session at the new version and sets sessionsValidFrom to the same instant.
    storeHolds(tenantItem(), userItem({ sessionsValidFrom: ago(60_000) }), sessionItem({ createdAt: ago(3_600_000) }));
    const { token } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.context).toMatchObject({ credentialVersion: '4', sessionsValidFrom: ago(60_000) });
  });

  it("denies a session older than credential versions opened before the user's last password reset", async () => {
    storeHolds(tenantItem(), userItem({ sessionsValidFrom: ago(60_000) }), sessionItem({ credentialVersion: undefined, createdAt: ago(3_600_000) }));
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('allows a session older than credential versions opened after the last reset', async () => {
    storeHolds(tenantItem(), userItem({ sessionsValidFrom: ago(7_200_000) }), sessionItem({ credentialVersion: undefined, createdAt: ago(3_600_000) }));
    const { token } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.principalId).toBe(userId);
  });

  it('reads tenant, user, session and the jti blacklist in one consistent BatchGet', async () => {
    const { token, jti } = await accessToken();

    await authorizeWith(`accessToken=${token}`);

    const reads = ddb.commandCalls(BatchGetCommand);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.args[0].input).toEqual({
      RequestItems: {
        [TABLE]: {
          Keys: [keys.tenant(tenantId), keys.user(tenantId, userId), keys.session(tenantId, userId, sessionId), keys.revokedJti(tenantId, userId, jti)],
          ConsistentRead: true,
        },
      },
    });
  });

  it('passes the platform administrator flag as the string "true"', async () => {
    storeHolds(tenantItem(), userItem({ platformAdmin: true, role: 'MEMBER' }), sessionItem());
    const { token } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.context).toMatchObject({ platformAdmin: 'true', role: 'MEMBER' });
  });

  it('passes "the tenant requires a second factor this user has not enrolled" as the string "true"', async () => {
    storeHolds(tenantItem({ mfaPolicy: 'ADMINS' }), userItem({ role: 'ADMIN' }), sessionItem());
    const { token } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.context).toMatchObject({ mfaEnrolmentRequired: 'true' });
  });

  it('passes "false" when the user has already enrolled the second factor the tenant requires', async () => {
    storeHolds(tenantItem({ mfaPolicy: 'ALL' }), userItem({ totpEnabledAt: ago(86_400_000) }), sessionItem());
    const { token } = await accessToken();

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.context).toMatchObject({ mfaEnrolmentRequired: 'false' });
  });

  it('finds the access token among other cookies', async () => {
    const { token } = await accessToken();

    const decision = await authorizeWith(`theme=dark; accessToken=${token}; refreshToken=other`);

    expect(decision.principalId).toBe(userId);
  });

  it('follows unprocessed keys until every item is read', async () => {
    const { token } = await accessToken();
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({
        Responses: { [TABLE]: [tenantItem()] },
        UnprocessedKeys: { [TABLE]: { Keys: [keys.user(tenantId, userId), keys.session(tenantId, userId, sessionId)] } },
      })
      .resolves({ Responses: { [TABLE]: [userItem(), sessionItem()] } });

    const decision = await authorizeWith(`accessToken=${token}`);

    expect(decision.principalId).toBe(userId);
    expect(ddb.commandCalls(BatchGetCommand)[1]?.args[0].input.RequestItems?.[TABLE]?.Keys).toEqual([
      keys.user(tenantId, userId),
      keys.session(tenantId, userId, sessionId),
    ]);
  });

  it('denies a request without the cookie, without reading the store', async () => {
    await expectDenied(authorizeWith(undefined));
    await expectDenied(authorizeWith('theme=dark'));
    expect(ddb.calls()).toHaveLength(0);
  });

  it.each(['', 'garbage', 'a.b.c', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'])('denies the garbage token %j without reading the store', async (garbage) => {
    await expectDenied(authorizeWith(`accessToken=${garbage}`));
    expect(ddb.calls()).toHaveLength(0);
  });

  it('denies an expired token', async () => {
    const now = nowSeconds();
    const token = await mintToken({ claims: { sub: userId, tenantId, sessionId, iat: now - 1000, exp: now - 1 } });

    await expectDenied(authorizeWith(`accessToken=${token}`));
    expect(ddb.calls()).toHaveLength(0);
  });

  it('denies a refresh token presented as the access cookie', async () => {
    const now = nowSeconds();
    const { token } = await signRefreshToken(subject, now, now + 3600);

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('denies the token of a revoked session', async () => {
    storeHolds(tenantItem(), userItem(), sessionItem({ status: 'REVOKED', revokedAt: ago(5_000) }));
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('denies the token of a session past its absolute expiry (TTL not yet applied)', async () => {
    storeHolds(tenantItem(), userItem(), sessionItem({ expiresAt: ago(1000) }));
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('denies the token of a session that no longer exists', async () => {
    storeHolds(tenantItem(), userItem());
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('denies a blacklisted jti (logged-out access token)', async () => {
    const { token, jti } = await accessToken();
    storeHolds(tenantItem(), userItem(), sessionItem(), { ...keys.revokedJti(tenantId, userId, jti), type: 'RevokedJti', revokedAt: ago(5_000) });

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('denies the token of a deleted user', async () => {
    storeHolds(tenantItem(), sessionItem());
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('denies the token of a suspended tenant', async () => {
    storeHolds(tenantItem({ status: 'SUSPENDED' }), userItem(), sessionItem());
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('denies when the session record belongs to another user', async () => {
    storeHolds(tenantItem(), userItem(), sessionItem({ userId: randomUUID() }));
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it("ignores items returned under other keys (they are not this token's session)", async () => {
    const otherTenant = randomUUID();
    storeHolds(tenantItem(), userItem(), { ...sessionItem(), ...keys.session(otherTenant, userId, sessionId), tenantId: otherTenant });
    const { token } = await accessToken();

    await expectDenied(authorizeWith(`accessToken=${token}`));
  });

  it('lets a store failure through as itself (a 503 at the gateway, not a 401)', async () => {
    const failure = new ProvisionedThroughputExceededException({ message: 'Throughput exceeded', $metadata: { httpStatusCode: 400 } });
    ddb.on(BatchGetCommand).rejects(failure);
    const { token } = await accessToken();

    await expect(authorizeWith(`accessToken=${token}`)).rejects.toBe(failure);
  });

  it('fails with a throttling error, not a denial, when keys stay unprocessed after three attempts', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] }, UnprocessedKeys: { [TABLE]: { Keys: [keys.tenant(tenantId)] } } });
    const { token } = await accessToken();

    await expect(authorizeWith(`accessToken=${token}`)).rejects.toMatchObject({ name: 'ThrottlingException', message: 'Unprocessed keys after retries' });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(3);
  });
});

describe('mustEnrolSecondFactor', () => {
  // Whether the second factor is on is `totpEnabledAt` on the user item (the secret is a credential, read by no authorizer).
  const admin = { role: 'ADMIN', totpEnabledAt: null } as const;
  const member = { role: 'MEMBER', totpEnabledAt: null } as const;
  const ENABLED_AT = '2026-11-01T00:00:00.000Z';

  it('never requires enrolment under the OFF policy', () => {
    expect(mustEnrolSecondFactor('OFF', admin)).toBe(false);
    expect(mustEnrolSecondFactor('OFF', member)).toBe(false);
  });

  it('requires it of an administrator without a second factor, not of a member, under ADMINS', () => {
    expect(mustEnrolSecondFactor('ADMINS', admin)).toBe(true);
    expect(mustEnrolSecondFactor('ADMINS', { role: 'ADMIN' })).toBe(true);
    expect(mustEnrolSecondFactor('ADMINS', member)).toBe(false);
  });

  it('requires it of everyone without a second factor under ALL', () => {
    expect(mustEnrolSecondFactor('ALL', admin)).toBe(true);
    expect(mustEnrolSecondFactor('ALL', member)).toBe(true);
    expect(mustEnrolSecondFactor('ALL', { role: 'MEMBER' })).toBe(true);
  });

  it('requires it of a platform administrator without one, whatever the policy', () => {
    for (const policy of ['OFF', 'ADMINS', 'ALL'] as const) {
      expect(mustEnrolSecondFactor(policy, { ...member, platformAdmin: true }), policy).toBe(true);
      expect(mustEnrolSecondFactor(policy, { ...member, platformAdmin: true, totpEnabledAt: ENABLED_AT }), policy).toBe(false);
    }
  });

  it('never requires it of a user who has a second factor', () => {
    for (const policy of ['OFF', 'ADMINS', 'ALL'] as const) {
      for (const role of ['ADMIN', 'MEMBER'] as const) {
        expect(mustEnrolSecondFactor(policy, { role, totpEnabledAt: ENABLED_AT }), `${policy} ${role}`).toBe(false);
      }
    }
  });
});
