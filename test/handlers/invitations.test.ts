import { createHash, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/create-invitation';
import { INVITATIONS_PER_ADDRESS, INVITATIONS_PER_ADDRESS_SCOPE } from '../../lib/auth/invitations';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { limitScope } from '../../lib/rate-limit';
import { routes } from '../../lib/routes';
import { jsonPost, lambdaContext } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESClient);
const REQUEST_ID = 'invite-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;
const IN_7_DAYS = new Date('2026-11-28T23:15:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const EMAIL = 'bruno@acme.example';

const admin: Principal = testPrincipal({ role: 'ADMIN', tokenExpiresAt: NOW_EPOCH + 600 });

const invite = (body: object, caller: Principal = admin) =>
  handler(jsonPost('/auth/invitations', body, { requestId: REQUEST_ID, authorizer: toAuthorizerContext(caller) }), lambdaContext());

const sha256 = (text: string, encoding: 'hex' | 'base64url') => createHash('sha256').update(text).digest(encoding);
const conditionFailed = () => new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } });

/** The two counters one invitation takes: the route's (per inviting user) and the address's. */
const userCounter = keys.counter(limitScope(routes.createInvitation), admin.userId, Math.floor(NOW.getTime() / 3_600_000) * 3_600_000);
const addressCounter = keys.counter(INVITATIONS_PER_ADDRESS_SCOPE, sha256(EMAIL, 'base64url'), Math.floor(NOW.getTime() / 86_400_000) * 86_400_000);

/** An invitation of EMAIL mailed at 20:00 today, pending for 7 days. */
const pendingItem = () => ({
  ...keys.invitation(admin.tenantId, EMAIL),
  type: 'Invitation',
  id: randomUUID(),
  tenantId: admin.tenantId,
  email: EMAIL,
  invitedBy: admin.userId,
  createdAt: '2026-11-21T20:00:00.000Z',
  expiresAt: '2026-11-28T20:00:00.000Z',
  expiresAtEpoch: Date.parse('2026-11-28T20:00:00.000Z') / 1000,
  mailedAtEpoch: Date.parse('2026-11-21T20:00:00.000Z') / 1000,
  tokenHash: 'a'.repeat(64),
  ttl: Date.parse('2026-11-28T20:00:00.000Z') / 1000,
});

const sentMail = () => ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
const linkIn = (text: string | undefined) => new URL(/https:\/\/\S+/.exec(text ?? '')?.[0] ?? 'https://none.invalid');

beforeEach(() => {
  ddb.reset();
  ses.reset();
  ddb.on(UpdateCommand).resolves({});
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(DeleteCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/invitations', () => {
  it('returns 201, stores a 7-day invitation with the hash of a token that only the e-mail carries', async () => {
    const result = await invite({ email: ' Bruno@ACME.example ' });

    const body = JSON.parse(result.body) as { id: string };
    expect(body.id).toMatch(UUID);
    expect(parsed(result)).toEqual({ statusCode: 201, headers: jsonHeaders(), body: { id: body.id, email: EMAIL, expiresAt: IN_7_DAYS.toISOString() } });
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toEqual([userCounter, addressCounter]);

    const mail = sentMail();
    expect(mail?.Destination).toEqual({ ToAddresses: [EMAIL] });
    expect(mail?.Message?.Subject?.Data).toBe('You are invited to the back-office');
    const link = linkIn(mail?.Message?.Body?.Text?.Data);
    expect(`${link.origin}${link.pathname}`).toBe('https://app.example.com/register');
    expect(Object.fromEntries(link.searchParams)).toEqual({ tenantId: admin.tenantId, email: EMAIL, token: expect.stringMatching(/^[\w-]{43}$/) });
    const token = link.searchParams.get('token') ?? '';

    expect(ddb.commandCalls(PutCommand)[0]?.args[0].input).toEqual({
      TableName: 'test-table',
      Item: {
        ...keys.invitation(admin.tenantId, EMAIL),
        type: 'Invitation',
        id: body.id,
        tenantId: admin.tenantId,
        email: EMAIL,
        invitedBy: admin.userId,
        createdAt: NOW.toISOString(),
        expiresAt: IN_7_DAYS.toISOString(),
        expiresAtEpoch: IN_7_DAYS.getTime() / 1000,
        mailedAtEpoch: NOW_EPOCH,
        tokenHash: sha256(token, 'hex'),
        // Found by its id for a withdrawal.
        gsi1pk: `INVITATION#${body.id}`,
        gsi1sk: 'INVITATION',
        ttl: IN_7_DAYS.getTime() / 1000,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR attribute_not_exists(tokenHash) OR expiresAtEpoch <= :now OR mailedAtEpoch <= :resendAfter',
      ExpressionAttributeValues: { ':now': NOW_EPOCH, ':resendAfter': NOW_EPOCH - 24 * 3600 },
      ReturnValues: 'ALL_OLD',
    });
    // The token itself is stored nowhere and never answered.
    expect(JSON.stringify(ddb.calls().map((call) => call.args[0].input))).not.toContain(token);
    expect(result.body).not.toContain(token);
  });

  it('answers an address that already has an account the same 201, and mails its owner a notice without a token', async () => {
    const owner = { tenantId: randomUUID(), userId: randomUUID() };
    ddb.on(GetCommand, { Key: keys.email(EMAIL) }).resolves({ Item: { ...keys.email(EMAIL), type: 'Email', email: EMAIL, ...owner } });

    const result = await invite({ email: EMAIL });

    const body = JSON.parse(result.body) as { id: string };
    expect(parsed(result)).toEqual({ statusCode: 201, headers: jsonHeaders(), body: { id: expect.stringMatching(UUID), email: EMAIL, expiresAt: IN_7_DAYS.toISOString() } });
    // Stored like any invitation, so that a second invitation answers as for an unknown address.
    expect(ddb.commandCalls(PutCommand)[0]?.args[0].input.Item).toEqual(expect.objectContaining({ id: body.id, email: EMAIL, tokenHash: expect.any(String) }));
    const mail = sentMail();
    expect(mail?.Destination).toEqual({ ToAddresses: [EMAIL] });
    expect(mail?.Message?.Body?.Text?.Data).toContain('already has an account');
    expect(mail?.Message?.Body?.Text?.Data).not.toMatch(/https?:\/\//);
  });

  it('answers the pending invitation, mailing nothing, when it was mailed within the resend window', async () => {
    const pending = pendingItem();
    ddb.on(PutCommand).rejects(conditionFailed());
    ddb.on(GetCommand, { Key: keys.invitation(admin.tenantId, EMAIL) }).resolves({ Item: pending });

    const result = await invite({ email: EMAIL });

    expect(parsed(result)).toEqual({ statusCode: 201, headers: jsonHeaders(), body: { id: pending.id, email: EMAIL, expiresAt: pending.expiresAt } });
    expect(ses.calls()).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('answers 429 with Retry-After to the 4th invitation of an address in a day, storing and mailing nothing', async () => {
    ddb.on(UpdateCommand, { Key: addressCounter }).rejects(conditionFailed());

    const result = await invite({ email: EMAIL });

    // The address window ends at midnight UTC, 45 minutes after NOW.
    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': String(45 * 60) }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', REQUEST_ID),
    });
    expect(ddb.commandCalls(UpdateCommand).at(-1)?.args[0].input.ConditionExpression).toBe('attribute_not_exists(#count) OR #count < :limit');
    expect(ddb.commandCalls(UpdateCommand).at(-1)?.args[0].input.ExpressionAttributeValues?.[':limit']).toBe(INVITATIONS_PER_ADDRESS.limit);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ses.calls()).toHaveLength(0);
  });

  it('puts back the pending invitation it replaced when the new e-mail cannot be sent (the old token keeps working)', async () => {
    const replaced = pendingItem();
    ddb.on(PutCommand).resolvesOnce({ Attributes: replaced }).resolves({});
    ses.on(SendEmailCommand).rejects(new Error('SES is down'));

    const result = await invite({ email: EMAIL });

    expect(result.statusCode).toBe(500);
    const [stored, restored] = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(restored).toEqual({
      TableName: 'test-table',
      // As it was, and findable by its id again.
      Item: { ...replaced, gsi1pk: `INVITATION#${replaced.id}`, gsi1sk: 'INVITATION' },
      ConditionExpression: 'tokenHash = :token',
      ExpressionAttributeValues: { ':token': stored?.Item?.tokenHash },
    });
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('takes the invitation back when its e-mail cannot be sent, so that a retry mails again', async () => {
    ses.on(SendEmailCommand).rejects(new Error('SES is down'));

    const result = await invite({ email: EMAIL });

    expect(result.statusCode).toBe(500);
    const stored = ddb.commandCalls(PutCommand)[0]?.args[0].input.Item;
    expect(ddb.commandCalls(DeleteCommand)[0]?.args[0].input).toEqual({
      TableName: 'test-table',
      Key: keys.invitation(admin.tenantId, EMAIL),
      ConditionExpression: 'tokenHash = :token',
      ExpressionAttributeValues: { ':token': stored?.tokenHash },
    });
  });

  it('returns 403 to a member of the tenant, storing and mailing nothing', async () => {
    const result = await invite({ email: EMAIL }, { ...admin, role: 'MEMBER' });

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Only a tenant administrator may invite users', REQUEST_ID),
    });
    // Only the route's per-user counter was taken.
    expect(ddb.calls().map((call) => call.args[0].input)).toEqual([expect.objectContaining({ Key: userCounter })]);
    expect(ses.calls()).toHaveLength(0);
  });

  it('returns 400 for an address that is not an e-mail', async () => {
    const result = await invite({ email: 'bruno' });

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'email: must be a valid e-mail address', REQUEST_ID, [{ field: 'email', message: 'must be a valid e-mail address' }]),
    });
  });
});
