import { createHash } from 'node:crypto';
import { ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/tenants/create-tenant';
import type { AuditEntry } from '../../lib/audit/model';
import { storeConfig } from '../../lib/config';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, jsonPost, lambdaContext, proxyEvent } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { counterKey, subjects, takeSlot, windowAt, windowFullError } from '../support/rate-limits';
import { jsonHeaders, NO_ORIGIN_CORS_HEADERS, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESClient);
const NOW = new Date('2026-11-21T23:15:00.000Z');
const NOW_EPOCH = NOW.getTime() / 1000;
const IN_7_DAYS = new Date('2026-11-28T23:15:00.000Z');
const REQUEST_ID = 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ADMIN_EMAIL = 'owner@acme.example';

const validBody = { name: 'acme-foods', plan: 'STARTER', brandName: 'ACME Foods', document: '12abc34501de35', adminEmail: 'Owner@ACME.example ' };
const invoke = (event: Parameters<typeof handler>[0]) => handler(event, lambdaContext());

/** The counters a sign-up with adminEmail takes: the route's (10 an hour per IP, by the chain) and the address's invitations (3 a day, by the service). */
const hour = windowAt(NOW.getTime(), 3600);
const day = windowAt(NOW.getTime(), 86_400);
const ipCounter = counterKey('POST /tenants', subjects.ip('203.0.113.10'), hour.start);
const addressCounter = counterKey('invitations-per-address', subjects.email(ADMIN_EMAIL), day.start);

/** The tenant's creation entry, in the platform's trail: nobody is signed in on sign-up. */
const creationAudit = (tenantId: string, entry: AuditEntry) => ({
  trail: 'platform' as const,
  action: 'tenant.created' as const,
  actor: { type: 'anonymous' as const, id: null, name: null },
  resource: { type: 'tenant' as const, id: tenantId },
  requestId: REQUEST_ID,
  sourceIp: '203.0.113.10',
  userAgent: 'vitest',
  occurredAt: NOW.toISOString(),
  id: entry.id,
  ttl: NOW_EPOCH + storeConfig().AUDIT_RETENTION_DAYS * 86_400,
});

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);
const sentMail = () => ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
const linkIn = (text: string | undefined) => new URL(/https:\/\/\S+/.exec(text ?? '')?.[0] ?? 'https://none.invalid');
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

beforeEach(() => {
  ddb.reset();
  ses.reset();
  // The name is free and the address has no account, unless a test says otherwise.
  ddb.on(GetCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('POST /tenants', () => {
  it("returns 201 with the new tenant and writes it, its name sentinel and its administrator's invitation in one transaction, then mails the invitation", async () => {
    const result = await invoke(jsonPost('/tenants', validBody));

    const body = JSON.parse(result.body) as { id: string };
    expect(body.id).toMatch(UUID);
    expect(parsed(result)).toEqual({
      statusCode: 201,
      headers: jsonHeaders(),
      body: { id: body.id, name: 'acme-foods', brandName: 'ACME Foods', plan: 'STARTER' },
    });

    // The invitation e-mail carries the one copy of the token, in the registration link.
    const mail = sentMail();
    expect(mail?.Destination).toEqual({ ToAddresses: [ADMIN_EMAIL] });
    expect(mail?.Message?.Subject?.Data).toBe('You are invited to the back-office');
    expect(mail?.Message?.Body?.Text?.Data).toContain('as its administrator');
    const link = linkIn(mail?.Message?.Body?.Text?.Data);
    expect(`${link.origin}${link.pathname}`).toBe('https://app.example.com/register');
    expect(Object.fromEntries(link.searchParams)).toEqual({ tenantId: body.id, email: ADMIN_EMAIL, token: expect.stringMatching(/^[\w-]{43}$/) });
    const token = link.searchParams.get('token') ?? '';

    const writes = transactions();
    expect(writes).toHaveLength(1);
    const invitationId = String(writes[0]?.TransactItems?.[2]?.Put?.Item?.id);
    expect(invitationId).toMatch(UUID);
    const entry = writes[0]?.TransactItems?.[3]?.Put?.Item as AuditEntry;
    expect(writes[0]).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: 'test-table',
            Item: {
              pk: `TENANT#${body.id}`,
              sk: 'PROFILE',
              gsi1pk: 'TENANTS#a',
              gsi1sk: 'acme-foods',
              type: 'Tenant',
              id: body.id,
              name: 'acme-foods',
              brandName: 'ACME Foods',
              document: '12ABC34501DE35',
              plan: 'STARTER',
              adminEmail: ADMIN_EMAIL,
              status: 'ACTIVE',
              mfaPolicy: 'OFF',
              createdAt: '2026-11-21T23:15:00.000Z',
              updatedAt: '2026-11-21T23:15:00.000Z',
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: 'test-table',
            Item: { pk: 'TENANT_NAME#acme-foods', sk: 'UNIQUE', type: 'TenantName', tenantId: body.id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        // The base account's invitation: 7 days, only the token's hash, replacing any earlier one of the address.
        {
          Put: {
            TableName: 'test-table',
            Item: {
              ...keys.invitation(body.id, ADMIN_EMAIL),
              type: 'Invitation',
              id: invitationId,
              tenantId: body.id,
              email: ADMIN_EMAIL,
              baseAccount: true,
              createdAt: NOW.toISOString(),
              expiresAt: IN_7_DAYS.toISOString(),
              expiresAtEpoch: IN_7_DAYS.getTime() / 1000,
              mailedAtEpoch: NOW_EPOCH,
              tokenHash: sha256Hex(token),
              gsi1pk: `INVITATION#${invitationId}`,
              gsi1sk: 'INVITATION',
              ttl: IN_7_DAYS.getTime() / 1000,
            },
          },
        },
        ...expectedAuditPuts(creationAudit(body.id, entry)),
      ],
    });
    expect(JSON.stringify(writes)).not.toContain(token);
    // Read first: the name's sentinel, and (for the e-mail's wording) whether the address has an account.
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: 'test-table', Key: keys.tenantName('acme-foods'), ConsistentRead: true },
      { TableName: 'test-table', Key: keys.email(ADMIN_EMAIL), ConsistentRead: true, ProjectionExpression: 'pk' },
    ]);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input)).toEqual([
      takeSlot(ipCounter, 10, hour.endEpoch),
      takeSlot(addressCounter, 3, day.endEpoch),
    ]);
  });

  it('creates a tenant without adminEmail with no invitation, no mail and no address counted', async () => {
    const result = await invoke(jsonPost('/tenants', { name: 'acme', plan: 'STARTER' }));

    expect(result.statusCode).toBe(201);
    expect(transactions()[0]?.TransactItems?.map((item) => item.Put?.Item?.type)).toEqual([
      'Tenant',
      'TenantName',
      'AuditEntry',
      'AuditEntry',
      'AuditEntry',
      'AuditOrigin',
    ]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toEqual([ipCounter]);
  });

  it('mails a notice without a token when adminEmail already has an account (the stored invitation can open nothing)', async () => {
    ddb.on(GetCommand, { Key: keys.email(ADMIN_EMAIL) }).resolves({ Item: { pk: keys.email(ADMIN_EMAIL).pk } });

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(result.statusCode).toBe(201);
    const text = sentMail()?.Message?.Body?.Text?.Data ?? '';
    expect(sentMail()?.Destination).toEqual({ ToAddresses: [ADMIN_EMAIL] });
    expect(text).toContain('already has an account');
    expect(text).not.toMatch(/https:\/\//);
  });

  it('returns 503 with Retry-After and takes the tenant back, its name, invitation and entry, when the invitation cannot be mailed', async () => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 503,
      headers: problemHeaders({ 'Retry-After': '5' }),
      body: problem('unavailable', 'Service unavailable', 503, 'The invitation e-mail could not be sent; try the sign-up again', REQUEST_ID),
    });
    const [created, takenBack] = transactions();
    const tenantId = String(created?.TransactItems?.[0]?.Put?.Item?.id);
    expect(transactions()).toHaveLength(2);
    expect(takenBack).toEqual({
      TransactItems: [
        // Only while nobody registered into it.
        { Delete: { TableName: 'test-table', Key: keys.tenant(tenantId), ConditionExpression: 'attribute_not_exists(baseAccountUserId)' } },
        {
          Delete: {
            TableName: 'test-table',
            Key: keys.tenantName('acme-foods'),
            ConditionExpression: 'tenantId = :id',
            ExpressionAttributeValues: { ':id': tenantId },
          },
        },
        { Delete: { TableName: 'test-table', Key: keys.invitation(tenantId, ADMIN_EMAIL) } },
        // The creation's entry goes with it: an entry never outlives its change.
        ...(created?.TransactItems?.slice(3) ?? []).map((item) => ({
          Delete: { TableName: 'test-table', Key: { pk: item.Put?.Item?.pk, sk: item.Put?.Item?.sk } },
        })),
      ],
    });
  });

  it("returns 409 when the name is found taken, before the address's invitations are counted", async () => {
    ddb
      .on(GetCommand, { Key: keys.tenantName('acme-foods') })
      .resolves({ Item: { ...keys.tenantName('acme-foods'), type: 'TenantName', tenantId: '0d6f0b1c-2a3e-4f5a-8b7c-9d0e1f2a3b4c' } });

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem('conflict', 'Conflict', 409, "A tenant named 'acme-foods' already exists", REQUEST_ID),
    });
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toEqual([ipCounter]);
    expect(transactions()).toEqual([]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('returns 429 past 3 invitations a day of the address, creating and mailing nothing', async () => {
    ddb.on(UpdateCommand, { Key: addressCounter }).rejects(windowFullError());

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': '2700' }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', REQUEST_ID),
    });
    expect(transactions()).toEqual([]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it("returns 400 to a request with an Idempotency-Key and writes nothing but the rate limit's count", async () => {
    const result = await invoke(jsonPost('/tenants', validBody, { headers: { 'Idempotency-Key': 'sign-up-1' } }));

    const detail = 'is not taken by this public route: a retry that finds the name taken gets 409';
    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, `Idempotency-Key: ${detail}`, REQUEST_ID, [{ field: 'Idempotency-Key', message: detail }]),
    });
    expect(ddb.calls().map((call) => call.args[0].input)).toEqual([takeSlot(ipCounter, 10, hour.endEpoch)]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('accepts a JSON content type with parameters and any casing', async () => {
    const result = await invoke(jsonPost('/tenants', { name: 'acme', plan: 'ENTERPRISE' }, { headers: { 'content-type': 'Application/JSON; charset=utf-8' } }));

    expect(result.statusCode).toBe(201);
  });

  it('accepts a base64-encoded JSON body', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'acme', plan: 'PROFESSIONAL' })).toString('base64');

    const result = await invoke(jsonPost('/tenants', body, { isBase64Encoded: true }));

    expect(JSON.parse(result.body)).toMatchObject({ name: 'acme', plan: 'PROFESSIONAL' });
    expect(result.statusCode).toBe(201);
  });

  it('returns 409 when the tenant name is already taken (the name sentinel condition fails)', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }],
      }),
    );

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem('conflict', 'Conflict', 409, "A tenant named 'acme-foods' already exists", REQUEST_ID),
    });
  });

  it.each(['platform', 'admin', 'www'])("returns 409 for the reserved name '%s' and writes nothing", async (name) => {
    const result = await invoke(jsonPost('/tenants', { ...validBody, name }));

    expect(parsed(result)).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem('conflict', 'Conflict', 409, `The tenant name '${name}' is reserved`, REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toEqual([]);
  });

  it('returns 503 with Retry-After when the store throttles the transaction', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(
        Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }),
      );

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 503,
      headers: problemHeaders({ 'Retry-After': '1' }),
      body: problem('unavailable', 'Service unavailable', 503, 'The service is busy, try again shortly', REQUEST_ID),
    });
  });

  it('returns 503 with Retry-After when provisioned throughput is exceeded', async () => {
    ddb.on(TransactWriteCommand).rejects(new ProvisionedThroughputExceededException({ message: 'Throughput exceeded', $metadata: { httpStatusCode: 400 } }));

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 503,
      headers: problemHeaders({ 'Retry-After': '1' }),
      body: problem('unavailable', 'Service unavailable', 503, 'The service is busy, try again shortly', REQUEST_ID),
    });
  });

  it('returns 503 when a transaction is cancelled by throttling', async () => {
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: [{ Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity' }, { Code: 'None' }],
      }),
    );

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(result.statusCode).toBe(503);
    expect(result.headers?.['Retry-After']).toBe('1');
  });

  it('returns a bare 500 without internals when the store fails unexpectedly', async () => {
    ddb.on(TransactWriteCommand).rejects(new Error('ValidationException: One or more parameter values were invalid: table test-table'));

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 500,
      headers: problemHeaders(),
      body: problem('internal', 'Internal server error', 500, 'An unexpected error occurred', REQUEST_ID),
    });
    expect(result.body).not.toContain('test-table');
  });
});

describe('the common HTTP chain (on POST /tenants)', () => {
  it('returns 415 when the body is not JSON', async () => {
    const result = await invoke(jsonPost('/tenants', 'name=acme&plan=STARTER', { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }));

    expect(parsed(result)).toEqual({
      statusCode: 415,
      headers: problemHeaders(),
      body: problem('unsupported-media-type', 'Unsupported media type', 415, 'The request body must be application/json', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it.each(['text/plain', 'application/jsonp', 'application/merge-patch+json'])('returns 415 for the content type %s', async (contentType) => {
    const result = await invoke(jsonPost('/tenants', validBody, { headers: { 'Content-Type': contentType } }));

    expect(result.statusCode).toBe(415);
    expect(result.headers?.['Content-Type']).toBe('application/problem+json');
  });

  it('returns 415 when a body comes without a content type', async () => {
    const event = proxyEvent({ method: 'POST', resource: '/tenants', body: validBody, headers: { Origin: ALLOWED_ORIGIN } });

    const result = await invoke(event);

    expect(parsed(result)).toEqual({
      statusCode: 415,
      headers: problemHeaders(),
      body: problem('unsupported-media-type', 'Unsupported media type', 415, 'The request body must be application/json', REQUEST_ID),
    });
  });

  it('returns 413 when the body is over 64 KiB', async () => {
    const body = JSON.stringify({ name: 'acme', plan: 'STARTER', brandName: 'x'.repeat(64 * 1024) });

    const result = await invoke(jsonPost('/tenants', body));

    expect(parsed(result)).toEqual({
      statusCode: 413,
      headers: problemHeaders(),
      body: problem('payload-too-large', 'Payload too large', 413, 'The request body is larger than 65536 bytes', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('counts the body size in bytes, not characters', async () => {
    const prefix = '{"name":"acme","plan":"STARTER","brandName":"';
    const filler = 'é'.repeat(Math.ceil((64 * 1024 - prefix.length) / 2) + 1);

    const result = await invoke(jsonPost('/tenants', `${prefix}${filler}"}`));

    expect(`${prefix}${filler}"}`.length).toBeLessThan(64 * 1024);
    expect(result.statusCode).toBe(413);
  });

  it('reads a body of exactly 64 KiB (and then validates it)', async () => {
    const prefix = '{"name":"acme","plan":"STARTER","brandName":"';
    const body = `${prefix}${'x'.repeat(64 * 1024 - prefix.length - 2)}"}`;

    const result = await invoke(jsonPost('/tenants', body));

    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'brandName: must be at most 200 characters', REQUEST_ID, [
        { field: 'brandName', message: 'must be at most 200 characters' },
      ]),
    });
  });

  it('returns 400 when the JSON is malformed', async () => {
    const result = await invoke(jsonPost('/tenants', '{"name": "acme", "plan": '));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('bad-request', 'Bad request', 400, 'The request body is not valid JSON', REQUEST_ID),
    });
    expect(result.body).not.toContain('Unexpected');
  });

  it.each([
    ['absent', null],
    ['empty', ''],
  ])('returns 400 when the body is %s', async (_label, body) => {
    const result = await invoke(jsonPost('/tenants', body));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('bad-request', 'Bad request', 400, 'A JSON request body is required', REQUEST_ID),
    });
  });

  it('returns 400 naming an unknown field', async () => {
    const result = await invoke(jsonPost('/tenants', { name: 'acme', plan: 'STARTER', status: 'ACTIVE' }));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'status: unknown field', REQUEST_ID, [{ field: 'status', message: 'unknown field' }]),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns 400 listing every invalid field', async () => {
    const result = await invoke(jsonPost('/tenants', { name: 'AC', plan: 'GOLD', document: '52998224726' }));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem(
        'validation',
        'Invalid request',
        400,
        'name: must be at least 3 characters; name: must be a slug: lower-case letters and digits joined by single dashes; plan: must be one of STARTER, PROFESSIONAL, ENTERPRISE; document: check digits do not match',
        REQUEST_ID,
        [
          { field: 'name', message: 'must be at least 3 characters' },
          { field: 'name', message: 'must be a slug: lower-case letters and digits joined by single dashes' },
          { field: 'plan', message: 'must be one of STARTER, PROFESSIONAL, ENTERPRISE' },
          { field: 'document', message: 'check digits do not match' },
        ],
      ),
    });
  });

  it('returns 400 when the JSON body is not an object', async () => {
    const result = await invoke(jsonPost('/tenants', '["acme"]'));

    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body)).toMatchObject({ type: 'https://problems.backoffice.dev/validation', status: 400, requestId: REQUEST_ID });
  });

  it.each([
    ['another site', 'https://evil.example.com'],
    ['a look-alike host', 'https://app.example.com.evil.example.com'],
    ['the allowed host over http', 'http://app.example.com'],
    ['an opaque origin', 'null'],
  ])('returns 403 and writes nothing for a foreign Origin (%s)', async (_label, origin) => {
    const result = await invoke(jsonPost('/tenants', validBody, { headers: { Origin: origin } }));

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders({}, NO_ORIGIN_CORS_HEADERS),
      body: problem('forbidden', 'Forbidden', 403, 'Cross-origin request refused', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 403 and writes nothing for Sec-Fetch-Site: cross-site', async () => {
    const result = await invoke(jsonPost('/tenants', validBody, { headers: { 'Sec-Fetch-Site': 'cross-site' } }));

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Cross-site request refused', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 403 for Sec-Fetch-Site: cross-site even without an Origin header', async () => {
    const event = proxyEvent({
      method: 'POST',
      resource: '/tenants',
      body: validBody,
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'Cross-Site' },
    });

    const result = await invoke(event);

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders({}, NO_ORIGIN_CORS_HEADERS),
      body: problem('forbidden', 'Forbidden', 403, 'Cross-site request refused', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('refuses a cross-origin request before looking at its body', async () => {
    const result = await invoke(jsonPost('/tenants', 'not json', { headers: { Origin: 'https://evil.example.com', 'Content-Type': 'text/plain' } }));

    expect(result.statusCode).toBe(403);
  });

  it.each(['same-origin', 'same-site', 'none'])('lets Sec-Fetch-Site: %s through', async (site) => {
    const result = await invoke(jsonPost('/tenants', validBody, { headers: { 'Sec-Fetch-Site': site } }));

    expect(result.statusCode).toBe(201);
  });

  it('answers a request without an Origin header (a non-browser client) without CORS origin headers', async () => {
    const event = proxyEvent({ method: 'POST', resource: '/tenants', body: validBody, headers: { 'Content-Type': 'application/json' } });

    const result = await invoke(event);

    expect(result.statusCode).toBe(201);
    expect(result.headers).toEqual(jsonHeaders(NO_ORIGIN_CORS_HEADERS));
  });

  it('takes the problem requestId from the event', async () => {
    const result = await invoke(jsonPost('/tenants', { name: 'acme', plan: 'STARTER', id: 'mine' }, { requestId: 'another-request-42' }));

    expect(JSON.parse(result.body)).toMatchObject({ requestId: 'another-request-42' });
  });

  it('never sends an empty or "undefined" header value', async () => {
    const results = await Promise.all([
      invoke(jsonPost('/tenants', validBody)),
      invoke(jsonPost('/tenants', '{')),
      invoke(jsonPost('/tenants', validBody, { headers: { Origin: 'https://evil.example.com' } })),
      invoke(proxyEvent({ method: 'POST', resource: '/tenants', body: validBody, headers: { 'Content-Type': 'application/json' } })),
    ]);

    for (const result of results) {
      for (const [name, value] of Object.entries(result.headers ?? {})) {
        expect({ name, value }).toEqual({ name, value: expect.stringMatching(/^(?!undefined$|null$).+/) as string });
      }
      expect(result.multiValueHeaders).toBeUndefined();
    }
  });
});

describe('the rate limit of POST /tenants (10 per hour per IP)', () => {
  it("counts the request in the hour window of the caller's IP with one conditional write, before anything else", async () => {
    await invoke(jsonPost('/tenants', validBody, { sourceIp: '203.0.113.99' }));

    // First, before the name is looked up (the address's invitations are counted after it).
    expect(ddb.calls()[0]?.args[0].input).toEqual(
      takeSlot(
        { pk: 'RATE#POST /tenants#203.0.113.99', sk: `WINDOW#${Date.parse('2026-11-21T23:00:00.000Z')}` },
        10,
        Date.parse('2026-11-22T00:00:00.000Z') / 1000,
      ),
    );
  });

  it('returns 429 with Retry-After until the window ends, and creates nothing, once the window is full', async () => {
    ddb.on(UpdateCommand).rejects(windowFullError());

    const result = await invoke(jsonPost('/tenants', validBody));

    expect(parsed(result)).toEqual({
      statusCode: 429,
      headers: problemHeaders({ 'Retry-After': '2700' }),
      body: problem('rate-limited', 'Too many requests', 429, 'Rate limit reached, try again later', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('counts invalid requests too', async () => {
    ddb.on(UpdateCommand).rejects(windowFullError());

    const result = await invoke(jsonPost('/tenants', '{not json'));

    expect(result.statusCode).toBe(429);
  });
});
