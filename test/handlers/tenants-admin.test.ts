import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as listTenants } from '../../functions/tenants/list-tenants';
import { handler as updateTenant } from '../../functions/tenants/update-tenant';
import type { AuditEntry } from '../../lib/audit/model';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { storeConfig } from '../../lib/config';
import { keys } from '../../lib/db/keys';
import { auditItems } from '../../lib/audit/repository';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'tenants-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');

const tenantId = randomUUID();
const otherTenantId = randomUUID();

const caller = (overrides: Partial<Principal> = {}): Record<string, string> =>
  toAuthorizerContext({
    ...testPrincipal({ tenantId, role: 'ADMIN' }),
    ...overrides,
  });

const tenantItem = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  ...keys.tenant(id),
  gsi1pk: `TENANTS#${name.charAt(0)}`,
  gsi1sk: name,
  type: 'Tenant',
  id,
  name,
  plan: 'STARTER',
  status: 'ACTIVE',
  adminEmail: 'owner@example.com',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  ...extra,
});

const list = (authorizer: Record<string, string> | null) =>
  listTenants(proxyEvent({ method: 'GET', resource: '/tenants', requestId: REQUEST_ID, authorizer, headers: { Origin: ALLOWED_ORIGIN } }), lambdaContext());

const update = (id: string, body: object, authorizer: Record<string, string>) =>
  updateTenant(
    proxyEvent({
      method: 'PATCH',
      resource: '/tenants/{id}',
      path: `/tenants/${id}`,
      pathParameters: { id },
      body,
      requestId: REQUEST_ID,
      authorizer,
      headers: { Origin: ALLOWED_ORIGIN, 'Content-Type': 'application/json' },
    }),
    lambdaContext(),
  );

beforeEach(() => {
  ddb.reset();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('GET /tenants', () => {
  const SHARDS = [...'0123456789abcdefghijklmnopqrstuvwxyz'];
  const shardQuery = (shard: string, limit: number, extra: Record<string, unknown> = {}) => ({
    TableName: TABLE,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': `TENANTS#${shard}` },
    Limit: limit,
    ExclusiveStartKey: undefined,
    ...extra,
  });

  it('returns every tenant by name, shard after shard, with documents formatted, to a platform administrator', async () => {
    const first = tenantItem(tenantId, 'acme', { document: '12ABC34501DE35', brandName: 'ACME', phone: '+5511987654321' });
    const second = tenantItem(otherTenantId, 'globex', { document: '52998224725' });
    ddb.on(QueryCommand).resolves({ Items: [] });
    // Shard `a` answers in two DynamoDB pages (its 1 MB limit), then `g` holds the other tenant.
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TENANTS#a' } })
      .resolvesOnce({ Items: [first], LastEvaluatedKey: { pk: first.pk, sk: first.sk, gsi1pk: 'TENANTS#a', gsi1sk: 'acme' } })
      .resolves({ Items: [] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TENANTS#g' } }).resolves({ Items: [second] });

    const result = await list(caller({ platformAdmin: true }));

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: [
        {
          id: tenantId,
          name: 'acme',
          brandName: 'ACME',
          document: '12.ABC.345/01DE-35',
          address: null,
          phone: '+5511987654321',
          logoUrl: null,
          plan: 'STARTER',
          mfaPolicy: 'OFF',
          stockLowThresholdDays: null,
        },
        {
          id: otherTenantId,
          name: 'globex',
          brandName: null,
          document: '529.982.247-25',
          address: null,
          phone: null,
          logoUrl: null,
          plan: 'STARTER',
          mfaPolicy: 'OFF',
          stockLowThresholdDays: null,
        },
      ],
    });
    // Every shard once (`a` twice: its second DynamoDB page), each asking for what the page
    // still lacked plus one when its wave started.
    const queries = ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);
    const shardsRead = queries.map((input) => (input.ExpressionAttributeValues as Record<string, string>)[':pk']);
    expect(shardsRead.filter((pk) => pk !== 'TENANTS#a').sort()).toEqual(
      SHARDS.filter((shard) => shard !== 'a')
        .map((shard) => `TENANTS#${shard}`)
        .sort(),
    );
    expect(queries.filter((input) => (input.ExpressionAttributeValues as Record<string, string>)[':pk'] === 'TENANTS#a')).toEqual([
      shardQuery('a', 101),
      shardQuery('a', 100, { ExclusiveStartKey: { pk: first.pk, sk: first.sk, gsi1pk: 'TENANTS#a', gsi1sk: 'acme' } }),
    ]);
    expect(queries.every((input) => input.IndexName === 'gsi1' && (input.Limit ?? 0) <= 101)).toBe(true);
  });

  it('stops at the page and one more, names the next page in Link, and follows it from where it stood', async () => {
    const first = tenantItem(tenantId, 'acme');
    const second = tenantItem(otherTenantId, 'globex');
    ddb.on(QueryCommand).resolves({ Items: [] });
    // Shard `a` holds only acme: read again after it, it has nothing more.
    ddb
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TENANTS#a' } })
      .resolvesOnce({ Items: [first] })
      .resolves({ Items: [] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TENANTS#g' } }).resolves({ Items: [second] });
    const page = (query: Record<string, string>) =>
      listTenants(
        proxyEvent({
          method: 'GET',
          resource: '/tenants',
          query,
          requestId: REQUEST_ID,
          authorizer: caller({ platformAdmin: true }),
          headers: { Origin: ALLOWED_ORIGIN },
        }),
        lambdaContext(),
      );

    const answer = parsed(await page({ limit: '1' }));
    expect(answer).toEqual({
      statusCode: 200,
      headers: { ...jsonHeaders(), Link: expect.stringMatching(/^<\/tenants\?limit=1&cursor=[\w.-]+>; rel="next"$/) },
      body: [expect.objectContaining({ name: 'acme' })],
    });
    // Waves of 1, 2, 4, 8 and 16 shards: g (the 17th) is in the fifth, and nothing after it is read.
    expect(
      ddb
        .commandCalls(QueryCommand)
        .map((call) => (call.args[0].input.ExpressionAttributeValues as Record<string, string>)[':pk'])
        .sort(),
    ).toEqual(
      SHARDS.slice(0, 31)
        .map((shard) => `TENANTS#${shard}`)
        .sort(),
    );

    const firstPageQueries = ddb.commandCalls(QueryCommand).length;
    const link = String(answer.headers?.Link ?? '');
    const cursor = new URLSearchParams(link.slice(link.indexOf('?') + 1, link.indexOf('>'))).get('cursor') ?? '';
    expect(parsed(await page({ limit: '1', cursor })).body).toEqual([expect.objectContaining({ name: 'globex' })]);
    expect(ddb.commandCalls(QueryCommand)[firstPageQueries]?.args[0].input).toEqual(
      shardQuery('a', 2, { ExclusiveStartKey: { pk: first.pk, sk: first.sk, gsi1pk: 'TENANTS#a', gsi1sk: 'acme' } }),
    );
  });

  it('returns 403 to a tenant administrator without the platform profile, reading nothing', async () => {
    const result = await list(caller());

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'The administrator profile is required', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 401 without an authorizer context', async () => {
    const result = await list(null);

    expect(result.statusCode).toBe(401);
    expect(result.headers?.['Content-Type']).toBe('application/problem+json');
  });
});

describe('PATCH /tenants/{id}', () => {
  const cancelled = (codes: string[]) =>
    new TransactionCanceledException({
      message: 'Transaction cancelled',
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: codes.map((Code) => ({ Code })),
    });
  const writtenEntry = (call = 0) =>
    ddb.commandCalls(TransactWriteCommand)[call]?.args[0].input.TransactItems?.[1]?.Put?.Item as AuditEntry & Record<string, unknown>;
  /** The entry as recorded: its copy's fields, with the origin (IP address, User-Agent) its origin item holds. */
  const writtenOrigin = (call = 0) =>
    ddb.commandCalls(TransactWriteCommand)[call]?.args[0].input.TransactItems?.at(-1)?.Put?.Item as Pick<AuditEntry, 'sourceIp' | 'userAgent'>;
  const entryOf = ({ id, occurredAt, actor, action, resource, requestId, changes }: AuditEntry, { sourceIp, userAgent } = writtenOrigin()): AuditEntry => ({
    id,
    occurredAt,
    actor,
    action,
    resource,
    requestId,
    sourceIp,
    userAgent,
    changes,
  });
  const expiresAtEpoch = () => Math.floor(NOW.getTime() / 1000) + storeConfig().AUDIT_RETENTION_DAYS * 86_400;

  it('lets a tenant administrator set and clear profile fields, with the audit entry of the change in the same transaction', async () => {
    ddb.on(GetCommand).resolves({ Item: tenantItem(tenantId, 'acme', { brandName: 'ACME', phone: '+5511900000000', revision: 4 }) });
    ddb.on(TransactWriteCommand).resolves({});

    const result = await update(tenantId, { phone: '+55 (11) 98765-4321', document: '11222333000181', brandName: null }, caller());

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: {
        id: tenantId,
        name: 'acme',
        brandName: null,
        document: '11.222.333/0001-81',
        address: null,
        phone: '+5511987654321',
        logoUrl: null,
        plan: 'STARTER',
        mfaPolicy: 'OFF',
        stockLowThresholdDays: null,
      },
    });
    expect(ddb.commandCalls(GetCommand)[0]?.args[0].input).toEqual({ TableName: TABLE, Key: keys.tenant(tenantId), ConsistentRead: true });
    const entry = writtenEntry();
    expect(entry).toMatchObject({
      pk: `TENANT#${tenantId}#AUDIT`,
      action: 'tenant.updated',
      actor: { type: 'user', id: expect.any(String), name: expect.any(String) },
      resource: { type: 'tenant', id: tenantId },
      requestId: REQUEST_ID,
      occurredAt: NOW.toISOString(),
      changes: [
        { field: 'brandName', before: 'ACME', after: null },
        { field: 'document', before: null, after: '11222333000181' },
        { field: 'phone', before: '+5511900000000', after: '+5511987654321' },
      ],
    });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input).toEqual({
      TransactItems: [
        {
          Update: {
            TableName: TABLE,
            Key: keys.tenant(tenantId),
            UpdateExpression: 'SET #f1 = :v1, #f2 = :v2, #f3 = :v3, #f4 = :v4 REMOVE #f0',
            ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#revision) OR #revision = :read)',
            ExpressionAttributeNames: { '#f0': 'brandName', '#f1': 'document', '#f2': 'phone', '#f3': 'updatedAt', '#f4': 'revision', '#revision': 'revision' },
            ExpressionAttributeValues: { ':v1': '11222333000181', ':v2': '+5511987654321', ':v3': NOW.toISOString(), ':v4': 5, ':read': 4 },
          },
        },
        // The trail, the caller's list and the tenant's list, then the entry's origin once.
        ...auditItems({ scope: { tenantId }, entry: entryOf(entry), expiresAtEpoch: expiresAtEpoch() }),
      ],
    });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems).toHaveLength(5);
    expect(writtenOrigin()).toMatchObject({ pk: `TENANT#${tenantId}#AUDIT#ORIGIN`, sourceIp: '203.0.113.10', userAgent: null });
  });

  it('lets a tenant administrator set the second-factor policy (a stored tenant without one reads as OFF), and refuses an unknown one', async () => {
    ddb.on(GetCommand).resolves({ Item: tenantItem(tenantId, 'acme', { revision: 2 }) });
    ddb.on(TransactWriteCommand).resolves({});

    const result = await update(tenantId, { mfaPolicy: 'ADMINS' }, caller());

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: {
        id: tenantId,
        name: 'acme',
        brandName: null,
        document: null,
        address: null,
        phone: null,
        logoUrl: null,
        plan: 'STARTER',
        mfaPolicy: 'ADMINS',
        stockLowThresholdDays: null,
      },
    });
    const entry = writtenEntry();
    expect(entry).toMatchObject({
      action: 'tenant.updated',
      resource: { type: 'tenant', id: tenantId },
      changes: [{ field: 'mfaPolicy', before: 'OFF', after: 'ADMINS' }],
    });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update).toMatchObject({
      UpdateExpression: 'SET #f0 = :v0, #f1 = :v1, #f2 = :v2',
      ExpressionAttributeNames: { '#f0': 'mfaPolicy', '#f1': 'updatedAt', '#f2': 'revision', '#revision': 'revision' },
      ExpressionAttributeValues: { ':v0': 'ADMINS', ':v1': NOW.toISOString(), ':v2': 3, ':read': 2 },
    });

    ddb.reset();
    const unknown = await update(tenantId, { mfaPolicy: 'SOMETIMES' }, caller());

    expect(parsed(unknown)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'mfaPolicy: must be one of OFF, ADMINS, ALL', REQUEST_ID, [
        { field: 'mfaPolicy', message: 'must be one of OFF, ADMINS, ALL' },
      ]),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it("lets a tenant administrator set the stock-low threshold in days (exact, at most 2 places) and turn it off with null, recorded in the change's entry", async () => {
    ddb.on(GetCommand).resolves({ Item: tenantItem(tenantId, 'acme', { revision: 2 }) });
    ddb.on(TransactWriteCommand).resolves({});

    const set = parsed(await update(tenantId, { stockLowThresholdDays: 7.5 }, caller()));
    expect(set.statusCode).toBe(200);
    expect(set.body).toMatchObject({ id: tenantId, stockLowThresholdDays: 7.5 });
    expect(writtenEntry()).toMatchObject({ action: 'tenant.updated', changes: [{ field: 'stockLowThresholdDays', before: null, after: 7.5 }] });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update).toMatchObject({
      UpdateExpression: 'SET #f0 = :v0, #f1 = :v1, #f2 = :v2',
      ExpressionAttributeNames: { '#f0': 'stockLowThresholdDays', '#f1': 'updatedAt', '#f2': 'revision', '#revision': 'revision' },
      ExpressionAttributeValues: { ':v0': 7.5, ':v1': NOW.toISOString(), ':v2': 3, ':read': 2 },
    });

    ddb.reset();
    ddb.on(GetCommand).resolves({ Item: tenantItem(tenantId, 'acme', { revision: 3, stockLowThresholdDays: 7.5 }) });
    ddb.on(TransactWriteCommand).resolves({});
    const off = parsed(await update(tenantId, { stockLowThresholdDays: null }, caller()));
    expect(off.body).toMatchObject({ stockLowThresholdDays: null });
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Update).toMatchObject({
      UpdateExpression: 'SET #f1 = :v1, #f2 = :v2 REMOVE #f0',
      ExpressionAttributeNames: { '#f0': 'stockLowThresholdDays' },
    });

    ddb.reset();
    for (const [value, message] of [
      [0, 'must be greater than 0 (null turns it off)'],
      [366, 'must be at most 365'],
      [2.345, 'must have at most 2 decimal places'],
      ['7', 'Invalid input: expected number, received string'],
    ] as const) {
      const refused = parsed(await update(tenantId, { stockLowThresholdDays: value }, caller()));
      expect(refused.statusCode, String(value)).toBe(400);
      expect((refused.body as { errors: unknown[] }).errors, String(value)).toEqual([{ field: 'stockLowThresholdDays', message }]);
    }
    expect(ddb.calls()).toHaveLength(0);
  });

  it('reads again when another change got in between, and records the change from the state it replaced', async () => {
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: tenantItem(tenantId, 'acme', { brandName: 'ACME' }) })
      .resolves({ Item: tenantItem(tenantId, 'acme', { brandName: 'ACME Foods', revision: 1 }) });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(cancelled(['ConditionalCheckFailed', 'None', 'None', 'None']))
      .resolves({});

    const result = await update(tenantId, { brandName: 'Acme Inc' }, caller());

    expect(result.statusCode).toBe(200);
    const writes = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems?.[0]?.Update);
    expect(writes.map((write) => write?.ExpressionAttributeValues?.[':read'])).toEqual([0, 1]);
    expect(writtenEntry(1).changes).toEqual([{ field: 'brandName', before: 'ACME Foods', after: 'Acme Inc' }]);
  });

  it('returns 404, not 403, for another tenant, without touching it', async () => {
    const result = await update(otherTenantId, { brandName: 'Mine now' }, caller());

    expect(parsed(result)).toEqual({ statusCode: 404, headers: problemHeaders(), body: problem('not-found', 'Not found', 404, 'No such tenant', REQUEST_ID) });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 403 to a member of the tenant', async () => {
    const result = await update(tenantId, { brandName: 'Renamed' }, caller({ role: 'MEMBER' }));

    expect(parsed(result)).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Only an administrator of the tenant may change it', REQUEST_ID),
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 404 to a platform administrator when the tenant does not exist, writing nothing', async () => {
    ddb.on(GetCommand).resolves({});

    const result = await update(otherTenantId, { brandName: 'Globex' }, caller({ platformAdmin: true }));

    expect(parsed(result)).toEqual({ statusCode: 404, headers: problemHeaders(), body: problem('not-found', 'Not found', 404, 'No such tenant', REQUEST_ID) });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('returns 400 when the path id is not a UUID', async () => {
    const result = await update('acme', { brandName: 'ACME' }, caller());

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'id: must be a UUID', REQUEST_ID, [{ field: 'id', message: 'must be a UUID' }]),
    });
  });

  it('returns 400 for an empty change set and for a logo that is not https', async () => {
    const empty = await update(tenantId, {}, caller());
    const insecure = await update(tenantId, { logoUrl: 'http://cdn.example.com/logo.png' }, caller());

    expect(JSON.parse(empty.body)).toMatchObject({ status: 400, errors: [{ field: '', message: 'at least one field is required' }] });
    expect(JSON.parse(insecure.body)).toMatchObject({ status: 400, errors: [{ field: 'logoUrl', message: 'must be an https URL' }] });
    expect(ddb.calls()).toHaveLength(0);
  });
});
