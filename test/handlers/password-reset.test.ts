import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type * as timers from 'node:timers/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as forgotPassword } from '../../functions/auth/forgot-password';
import { handler as resetPassword } from '../../functions/auth/reset-password';
import type { AuditActor } from '../../lib/audit/model';
import { verifyPassword } from '../../lib/auth/passwords';
import { keys } from '../../lib/db/keys';
import { jsonPost, lambdaContext } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { storedEmail, storedTenant, storedUser } from '../support/items';
import { counterKey, subjects, takeSlot, windowAt, windowFullError } from '../support/rate-limits';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

// forgot-password pads its answer with a timer; the test reads the requested delay instead of waiting.
vi.mock('node:timers/promises', async (importOriginal) => ({
  ...(await importOriginal<typeof timers>()),
  setTimeout: vi.fn(() => Promise.resolve()),
}));

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESClient);
const TABLE = 'test-table';
const REQUEST_ID = 'reset-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;
const SENT = 'If an account exists for this address, a reset link is on its way';

const tenantId = randomUUID();
const userId = randomUUID();
const email = 'ana@acme.example';
/** Ana, a member at credential version 1 (her secrets are in their own item, which neither route reads). */
const userItem = storedUser(tenantId, userId, { credentialVersion: 1 });
const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const forgot = (body: object) => forgotPassword(jsonPost('/auth/forgot-password', body, { requestId: REQUEST_ID, sourceIp: '198.51.100.7' }), lambdaContext());
const reset = (body: object) => resetPassword(jsonPost('/auth/reset-password', body, { requestId: REQUEST_ID }), lambdaContext());

/** Who asks for a reset link: nobody signed in (the actor's copy goes to the anonymous list). */
const ANONYMOUS: AuditActor = { type: 'anonymous', id: null, name: null };

/** The puts of an audit entry about the account, last in its transaction: the trail's, the actor's (the user's, or the anonymous list) and the user's copies. */
const auditPuts = (action: 'auth.password_reset_requested' | 'auth.password_reset', actor: AuditActor, sourceIp: string) =>
  expectedAuditPuts({
    table: TABLE,
    trail: { tenantId },
    action,
    actor,
    resource: { type: 'user', id: userId },
    requestId: REQUEST_ID,
    sourceIp,
    userAgent: 'vitest',
    occurredAt: NOW.toISOString(),
  });

const invalidToken = () => ({
  statusCode: 400,
  headers: problemHeaders(),
  body: problem('validation', 'Invalid request', 400, 'token: is invalid, expired or already used', REQUEST_ID, [
    { field: 'token', message: 'is invalid, expired or already used' },
  ]),
});

beforeEach(() => {
  ddb.reset();
  ses.reset();
  vi.mocked(sleep).mockClear();
  ddb.on(GetCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/forgot-password', () => {
  beforeEach(() => {
    ddb.on(GetCommand, { Key: keys.email(email) }).resolves({ Item: storedEmail(email, tenantId, userId) });
    ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem });
    ddb.on(GetCommand, { Key: keys.tenant(tenantId) }).resolves({ Item: storedTenant(tenantId) });
  });

  it('stores only the hash of a new 32-byte token and mails the link to the stored address', async () => {
    const result = await forgot({ email: ' ANA@acme.example' });

    expect(parsed(result)).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { message: SENT } });
    const mail = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    const link = /https:\/\/app\.example\.com\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail?.Message?.Body?.Text?.Data ?? '');
    const token = link?.[1] ?? '';
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(mail).toMatchObject({
      Source: 'no-reply@example.com',
      Destination: { ToAddresses: [email] },
      Message: { Subject: { Data: 'Reset your password' } },
    });
    expect(mail?.Message?.Body?.Html?.Data).toContain(`href="https://app.example.com/reset-password?token=${token}"`);
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: TABLE,
            Item: {
              pk: `PASSWORD_RESET#${sha256(token)}`,
              sk: 'TOKEN',
              type: 'PasswordReset',
              tenantId,
              userId,
              expiresAtEpoch: NOW_EPOCH + 1800,
              ttl: NOW_EPOCH + 1800,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // The one token that may still be used, on the credentials item.
        {
          Update: {
            TableName: TABLE,
            Key: keys.credentials(tenantId, userId),
            UpdateExpression: 'SET resetTokenHash = :hash',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':hash': sha256(token) },
          },
        },
        // The request's audit entry: nobody is signed in, so its actor is anonymous; it names the account.
        ...auditPuts('auth.password_reset_requested', ANONYMOUS, '198.51.100.7'),
      ],
    });
    expect(JSON.stringify(ddb.calls().map((call) => call.args[0].input))).not.toContain(token);
    // Neither the token's hash nor the address is in the entry.
    const audit = JSON.stringify(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.slice(2));
    for (const secret of [sha256(token), email]) expect(audit).not.toContain(secret);
  });

  it('answers an unknown address exactly the same, writing and mailing nothing', async () => {
    const result = await forgot({ email: 'nobody@acme.example' });

    expect(parsed(result)).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { message: SENT } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it.each(['CLOSED', 'DELETING'])('answers a user of a %s tenant as an unknown address: the same 200, no token, no entry, no mail', async (status) => {
    ddb.on(GetCommand, { Key: keys.tenant(tenantId) }).resolves({ Item: storedTenant(tenantId, { status }) });
    const result = await forgot({ email });

    expect(parsed(result)).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { message: SENT } });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it.each([
    ['a known', email],
    ['an unknown', 'nobody@acme.example'],
  ])('pads the answer for %s address to 600 ms', async (_label, address) => {
    await forgot({ email: address });

    // The fake clock stands still, so the whole 600 ms remain to wait.
    expect(vi.mocked(sleep)).toHaveBeenCalledExactlyOnceWith(600);
  });

  it('still answers 200 when the mail cannot be sent, so the answer tells nothing', async () => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));

    const result = await forgot({ email });

    expect(parsed(result)).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { message: SENT } });
  });

  it("counts each request in the IP's hour and in the address's day, before the address is looked up", async () => {
    await forgot({ email: 'nobody@acme.example' });

    const hour = windowAt(NOW.getTime(), 3600);
    const day = windowAt(NOW.getTime(), 86_400);
    expect(
      ddb
        .calls()
        .slice(0, 2)
        .map((call) => call.args[0].input),
    ).toEqual([
      takeSlot(counterKey('POST /auth/forgot-password', subjects.ip('198.51.100.7'), hour.start), 3, hour.endEpoch),
      // Counted whether the address has an account or not, so a 429 tells nothing.
      takeSlot(counterKey('POST /auth/forgot-password', subjects.email('nobody@acme.example'), day.start), 5, day.endEpoch),
    ]);
  });

  it('returns 429 to the sixth request of the day for one address, whatever the IP, mailing nothing', async () => {
    const day = windowAt(NOW.getTime(), 86_400);
    ddb.on(UpdateCommand, { Key: counterKey('POST /auth/forgot-password', subjects.email(email), day.start) }).rejects(windowFullError());

    const result = await forgot({ email });

    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': '2700' }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', REQUEST_ID),
    });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('returns 429 with Retry-After to the fourth request of the hour from one IP, looking nothing up', async () => {
    ddb.on(UpdateCommand).rejects(windowFullError());

    const result = await forgot({ email });

    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': '2700' }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', REQUEST_ID),
    });
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input).toMatchObject({
      Key: { pk: 'RATE#POST /auth/forgot-password#198.51.100.7', sk: `WINDOW#${Date.parse('2026-11-21T23:00:00.000Z')}` },
      ExpressionAttributeValues: { ':limit': 3 },
    });
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });
});

describe('POST /auth/reset-password', () => {
  const token = randomBytes(32).toString('base64url');
  const NEW_PASSWORD = 'a brand new password';
  const resetItem = (expiresAtEpoch: number) => ({
    pk: `PASSWORD_RESET#${sha256(token)}`,
    sk: 'TOKEN',
    type: 'PasswordReset',
    tenantId,
    userId,
    expiresAtEpoch,
  });

  it('changes the password, voids every earlier session and uses the token up, in one transaction, then notifies', async () => {
    ddb.on(GetCommand, { Key: keys.passwordReset(sha256(token)) }).resolves({ Item: resetItem(NOW_EPOCH + 600) });
    ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem });

    const result = await reset({ token, newPassword: NEW_PASSWORD });

    expect(parsed(result)).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { message: 'Password changed; every session was signed out' } });
    const input = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input;
    const passwordHash = String(input?.TransactItems?.[1]?.Update?.ExpressionAttributeValues?.[':hash']);
    await expect(verifyPassword(NEW_PASSWORD, passwordHash)).resolves.toBe(true);
    expect(input).toEqual({
      TransactItems: [
        {
          Delete: {
            TableName: TABLE,
            Key: keys.passwordReset(sha256(token)),
            ConditionExpression: 'attribute_exists(pk) AND expiresAtEpoch > :now',
            ExpressionAttributeValues: { ':now': NOW_EPOCH },
          },
        },
        // The new password on the credentials, on condition that the token is still the user's current one, and
        // their credential version moved on with the user item's (a check reads it with the hash).
        {
          Update: {
            TableName: TABLE,
            Key: keys.credentials(tenantId, userId),
            UpdateExpression: 'SET passwordHash = :hash, credentialVersion = :nextCredentialVersion REMOVE resetTokenHash',
            ConditionExpression: 'resetTokenHash = :token',
            ExpressionAttributeValues: { ':hash': passwordHash, ':token': sha256(token), ':nextCredentialVersion': 2 },
          },
        },
        // The credential version moves on from the one read (the user still there): every session of the user ends,
        // and a sign-in that checked the old password opens none.
        {
          Update: {
            TableName: TABLE,
            Key: keys.user(tenantId, userId),
            UpdateExpression: 'SET credentialVersion = :nextCredentialVersion, sessionsValidFrom = :credentialsChangedAt, updatedAt = :credentialsChangedAt',
            ConditionExpression: 'attribute_exists(pk) AND credentialVersion = :readCredentialVersion',
            ExpressionAttributeValues: { ':readCredentialVersion': 1, ':nextCredentialVersion': 2, ':credentialsChangedAt': NOW.toISOString() },
          },
        },
        // A closed tenant changes nothing: the tenant must be active when the token is used.
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: keys.tenant(tenantId),
            ConditionExpression: '#status = :active',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':active': 'ACTIVE' },
          },
        },
        // The reset's audit entry, naming the account's owner (read before the token is used) as its actor.
        ...auditPuts('auth.password_reset', { type: 'user', id: userId, name: 'Ana Souza' }, '203.0.113.10'),
      ],
    });
    // No password, hash or token in the entry.
    const audit = JSON.stringify(input?.TransactItems?.slice(4));
    for (const secret of [NEW_PASSWORD, passwordHash, token, sha256(token)]) expect(audit).not.toContain(secret);
    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input.Message?.Subject?.Data)).toEqual(['Your password was changed']);
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Destination).toEqual({ ToAddresses: [email] });
  });

  it('returns 400 for an unknown token', async () => {
    const result = await reset({ token: 'not-a-token-we-issued', newPassword: NEW_PASSWORD });

    expect(parsed(result)).toEqual(invalidToken());
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns 400 for a token past its 30 minutes (TTL not yet applied)', async () => {
    ddb.on(GetCommand, { Key: keys.passwordReset(sha256(token)) }).resolves({ Item: resetItem(NOW_EPOCH) });

    const result = await reset({ token, newPassword: NEW_PASSWORD });

    expect(parsed(result)).toEqual(invalidToken());
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns 400 to the loser of two concurrent uses, or for a token replaced by a newer one', async () => {
    ddb.on(GetCommand, { Key: keys.passwordReset(sha256(token)) }).resolves({ Item: resetItem(NOW_EPOCH + 600) });
    ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem });
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    const result = await reset({ token, newPassword: NEW_PASSWORD });

    expect(parsed(result)).toEqual(invalidToken());
    // The one attempt failed as a whole: its entry was not written either.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('returns 400 and notifies nobody when the credentials changed since the user was read (the version condition fails)', async () => {
    ddb.on(GetCommand, { Key: keys.passwordReset(sha256(token)) }).resolves({ Item: resetItem(NOW_EPOCH + 600) });
    ddb.on(GetCommand, { Key: keys.user(tenantId, userId) }).resolves({ Item: userItem });
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    const result = await reset({ token, newPassword: NEW_PASSWORD });

    expect(parsed(result)).toEqual(invalidToken());
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('returns 400 when the account of the token is gone, using nothing up', async () => {
    ddb.on(GetCommand, { Key: keys.passwordReset(sha256(token)) }).resolves({ Item: resetItem(NOW_EPOCH + 600) });

    const result = await reset({ token, newPassword: NEW_PASSWORD });

    expect(parsed(result)).toEqual(invalidToken());
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input.Key)).toContainEqual(keys.user(tenantId, userId));
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('returns 400 for a new password under 8 characters, looking nothing up', async () => {
    const result = await reset({ token, newPassword: 'short' });

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'newPassword: must be at least 8 characters', REQUEST_ID, [
        { field: 'newPassword', message: 'must be at least 8 characters' },
      ]),
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});
