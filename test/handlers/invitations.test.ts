import { randomUUID } from 'node:crypto';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/create-invitation';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { jsonPost, lambdaContext } from '../support/events';
import { testPrincipal } from '../support/principal';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESClient);
const REQUEST_ID = 'invite-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');
const IN_7_DAYS = new Date('2026-11-28T23:15:00.000Z');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const admin: Principal = testPrincipal({ role: 'ADMIN', tokenExpiresAt: NOW.getTime() / 1000 + 600 });

const invite = (body: object, caller: Principal = admin) =>
  handler(jsonPost('/auth/invitations', body, { requestId: REQUEST_ID, authorizer: toAuthorizerContext(caller) }), lambdaContext());

beforeEach(() => {
  ddb.reset();
  ses.reset();
  ddb.on(GetCommand).resolves({});
  ddb.on(PutCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /auth/invitations', () => {
  it('returns 201, stores a 7-day invitation into the caller\'s tenant and mails it with the tenant id', async () => {
    const result = await invite({ email: ' Bruno@ACME.example ' });

    const body = JSON.parse(result.body) as { id: string };
    expect(body.id).toMatch(UUID);
    expect(parsed(result)).toEqual({ statusCode: 201, headers: jsonHeaders(), body: { id: body.id, email: 'bruno@acme.example', expiresAt: IN_7_DAYS.toISOString() } });
    expect(ddb.commandCalls(PutCommand)[0]?.args[0].input).toEqual({
      TableName: 'test-table',
      Item: {
        ...keys.invitation(admin.tenantId, 'bruno@acme.example'),
        type: 'Invitation',
        id: body.id,
        tenantId: admin.tenantId,
        email: 'bruno@acme.example',
        invitedBy: admin.userId,
        createdAt: NOW.toISOString(),
        expiresAt: IN_7_DAYS.toISOString(),
        expiresAtEpoch: IN_7_DAYS.getTime() / 1000,
        ttl: IN_7_DAYS.getTime() / 1000,
      },
    });
    const mail = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    expect(mail?.Destination).toEqual({ ToAddresses: ['bruno@acme.example'] });
    expect(mail?.Message?.Subject?.Data).toBe('You are invited to the back-office');
    expect(mail?.Message?.Body?.Text?.Data).toContain(admin.tenantId);
    expect(mail?.Message?.Body?.Text?.Data).toContain(`https://app.example.com/register?tenantId=${admin.tenantId}&email=bruno%40acme.example`);
  });

  it('returns 403 to a member of the tenant, storing and mailing nothing', async () => {
    const result = await invite({ email: 'bruno@acme.example' }, { ...admin, role: 'MEMBER' });

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Only a tenant administrator may invite users', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
    expect(ses.calls()).toHaveLength(0);
  });

  it('returns 409 when the address already has an account', async () => {
    const existing = 'bruno@acme.example';
    const owner = { tenantId: randomUUID(), userId: randomUUID() };
    ddb.on(GetCommand, { Key: keys.email(existing) }).resolves({ Item: { ...keys.email(existing), type: 'Email', email: existing, ...owner } });
    ddb.on(GetCommand, { Key: keys.user(owner.tenantId, owner.userId) }).resolves({ Item: { ...keys.user(owner.tenantId, owner.userId), id: owner.userId, tenantId: owner.tenantId, email: existing } });

    const result = await invite({ email: existing });

    expect(parsed(result)).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem('conflict', 'Conflict', 409, 'An account with this e-mail already exists', REQUEST_ID),
    });
    expect(ddb.commandCalls(PutCommand)).toHaveLength(0);
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
