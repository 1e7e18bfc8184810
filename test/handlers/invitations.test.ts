import { createHash, randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/create-invitation';
import { INVITATIONS_PER_ADDRESS } from '../../lib/rate-limit';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { routeLimit } from '../../lib/rate-limit';
import { routes } from '../../lib/routes';
import { jsonPost, lambdaContext } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
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
const userCounter = keys.counter(routeLimit(routes.createInvitation, 'user').scope, admin.userId, Math.floor(NOW.getTime() / 3_600_000) * 3_600_000);
const addressCounter = keys.counter(INVITATIONS_PER_ADDRESS.scope, sha256(EMAIL, 'base64url'), Math.floor(NOW.getTime() / 86_400_000) * 86_400_000);

/** An invitation of EMAIL mailed at `mailedAt` (20:00 today unless told), pending for 7 days from then. */
const pendingItem = (mailedAt = '2026-11-21T20:00:00.000Z') => {
  const expiresAt = new Date(Date.parse(mailedAt) + 7 * 86_400_000).toISOString();
  return {
    ...keys.invitation(admin.tenantId, EMAIL),
    type: 'Invitation',
    id: randomUUID(),
    tenantId: admin.tenantId,
    email: EMAIL,
    invitedBy: admin.userId,
    createdAt: mailedAt,
    expiresAt,
    expiresAtEpoch: Date.parse(expiresAt) / 1000,
    mailedAtEpoch: Date.parse(mailedAt) / 1000,
    tokenHash: 'a'.repeat(64),
    ttl: Date.parse(expiresAt) / 1000,
  };
};
/** One still pending but mailed two days ago, past the 24-hour resend window: a new invitation replaces it. */
const resendableItem = () => pendingItem('2026-11-19T20:00:00.000Z');

/** The entry of the invitation, last in its transaction: the trail's, the inviting administrator's and the invitation's copies. */
const auditPuts = (invitationId: string) =>
  expectedAuditPuts({
    trail: { tenantId: admin.tenantId },
    action: 'invitation.created',
    actor: { type: 'user', id: admin.userId, name: admin.name },
    resource: { type: 'invitation', id: invitationId },
    requestId: REQUEST_ID,
    sourceIp: '203.0.113.10',
    userAgent: 'vitest',
    occurredAt: NOW.toISOString(),
  });

/** The transactions written, in order. */
const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
/** The item the (first) storing transaction put. */
const storedInvitation = () => transactions()[0]?.TransactItems?.[0]?.Put?.Item;
/** The deletes that take back the entry and the event the storing transaction wrote: the same four keys. */
const entryTakenBack = () =>
  (transactions()[0]?.TransactItems?.slice(1) ?? []).map((item) => ({
    Delete: { TableName: 'test-table', Key: { pk: item.Put?.Item?.pk, sk: item.Put?.Item?.sk } },
  }));

const sentMail = () => ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
const linkIn = (text: string | undefined) => new URL(/https:\/\/\S+/.exec(text ?? '')?.[0] ?? 'https://none.invalid');

beforeEach(() => {
  ddb.reset();
  ses.reset();
  ddb.on(UpdateCommand).resolves({});
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ddb.on(DeleteCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
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

    // The invitation there is read first (consistently); the write is conditioned on what was read: here, nothing.
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toContainEqual({
      TableName: 'test-table',
      Key: keys.invitation(admin.tenantId, EMAIL),
      ConsistentRead: true,
    });
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Put: {
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
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          // The invitation's audit entry, which commits only with it.
          ...auditPuts(body.id),
        ],
      },
    ]);
    // The entry names the invitation, not the address, and holds neither the token nor its hash.
    const audit = JSON.stringify(transactions()[0]?.TransactItems?.slice(1));
    for (const secret of [token, sha256(token, 'hex'), EMAIL]) expect(audit).not.toContain(secret);
    // The token itself is stored nowhere and never answered.
    expect(JSON.stringify(ddb.calls().map((call) => call.args[0].input))).not.toContain(token);
    expect(result.body).not.toContain(token);
  });

  it('answers an address that already has an account the same 201, and mails its owner a notice without a token', async () => {
    const owner = { tenantId: randomUUID(), userId: randomUUID() };
    ddb.on(GetCommand, { Key: keys.email(EMAIL) }).resolves({ Item: { ...keys.email(EMAIL), type: 'Email', email: EMAIL, ...owner } });

    const result = await invite({ email: EMAIL });

    const body = JSON.parse(result.body) as { id: string };
    expect(parsed(result)).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: { id: expect.stringMatching(UUID), email: EMAIL, expiresAt: IN_7_DAYS.toISOString() },
    });
    // Stored like any invitation, so that a second invitation answers as for an unknown address.
    expect(storedInvitation()).toEqual(expect.objectContaining({ id: body.id, email: EMAIL, tokenHash: expect.any(String) }));
    expect(transactions()[0]?.TransactItems?.slice(1)).toEqual(auditPuts(body.id));
    const mail = sentMail();
    expect(mail?.Destination).toEqual({ ToAddresses: [EMAIL] });
    expect(mail?.Message?.Body?.Text?.Data).toContain('already has an account');
    expect(mail?.Message?.Body?.Text?.Data).not.toMatch(/https?:\/\//);
  });

  it('answers the pending invitation, mailing nothing, when it was mailed within the resend window', async () => {
    const pending = pendingItem();
    ddb.on(GetCommand, { Key: keys.invitation(admin.tenantId, EMAIL) }).resolves({ Item: pending });

    const result = await invite({ email: EMAIL });

    expect(parsed(result)).toEqual({ statusCode: 201, headers: jsonHeaders(), body: { id: pending.id, email: EMAIL, expiresAt: pending.expiresAt } });
    expect(ses.calls()).toHaveLength(0);
    // Nothing written, so no entry either: nothing was invited.
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('reads again when a parallel invitation was stored between its read and its write, and answers that one, mailing nothing', async () => {
    const parallel = pendingItem('2026-11-21T23:14:59.000Z');
    ddb
      .on(GetCommand, { Key: keys.invitation(admin.tenantId, EMAIL) })
      .resolvesOnce({})
      .resolves({ Item: parallel });
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [ConditionalCheckFailed, None, None, None]',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    const result = await invite({ email: EMAIL });

    expect(parsed(result)).toEqual({ statusCode: 201, headers: jsonHeaders(), body: { id: parallel.id, email: EMAIL, expiresAt: parallel.expiresAt } });
    // One attempt, conditioned on there being no invitation, failed as a whole (its entry too).
    expect(transactions()).toHaveLength(1);
    expect(transactions()[0]?.TransactItems?.[0]?.Put?.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(ses.calls()).toHaveLength(0);
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
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ses.calls()).toHaveLength(0);
  });

  it('puts back the pending invitation it replaced when the new e-mail cannot be sent (the old token keeps working)', async () => {
    const replaced = resendableItem();
    ddb.on(GetCommand, { Key: keys.invitation(admin.tenantId, EMAIL) }).resolves({ Item: replaced });
    ses.on(SendEmailCommand).rejects(new Error('SES is down'));

    const result = await invite({ email: EMAIL });

    expect(result.statusCode).toBe(500);
    const [store, takeBack] = transactions();
    // The new one replaced the one read, on condition that it is still that one.
    expect(store?.TransactItems?.[0]?.Put).toMatchObject({
      ConditionExpression: 'tokenHash = :read',
      ExpressionAttributeValues: { ':read': replaced.tokenHash },
    });
    expect(store?.TransactItems?.slice(1)).toEqual(auditPuts(String(storedInvitation()?.id)));
    expect(takeBack).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: 'test-table',
            // As it was, a member's with no `baseAccount` (only a base account's carries it), and findable by its id again.
            Item: { ...replaced, gsi1pk: `INVITATION#${replaced.id}`, gsi1sk: 'INVITATION' },
            ConditionExpression: 'tokenHash = :token',
            ExpressionAttributeValues: { ':token': storedInvitation()?.tokenHash },
          },
        },
        // With the entry of the invitation that was never mailed.
        ...entryTakenBack(),
      ],
    });
    expect(entryTakenBack()).toHaveLength(5);
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });

  it('takes the invitation back when its e-mail cannot be sent, so that a retry mails again', async () => {
    ses.on(SendEmailCommand).rejects(new Error('SES is down'));

    const result = await invite({ email: EMAIL });

    expect(result.statusCode).toBe(500);
    expect(transactions()).toHaveLength(2);
    expect(transactions()[1]).toEqual({
      TransactItems: [
        {
          Delete: {
            TableName: 'test-table',
            Key: keys.invitation(admin.tenantId, EMAIL),
            ConditionExpression: 'tokenHash = :token',
            ExpressionAttributeValues: { ':token': storedInvitation()?.tokenHash },
          },
        },
        // And its entry, every copy and its origin: an entry never outlives its change.
        ...entryTakenBack(),
      ],
    });
    expect(entryTakenBack()).toHaveLength(5);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
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
      body: problem('validation', 'Invalid request', 400, 'email: must be a valid e-mail address', REQUEST_ID, [
        { field: 'email', message: 'must be a valid e-mail address' },
      ]),
    });
  });
});
