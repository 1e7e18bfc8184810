import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as listAuditEvents } from '../../functions/audit/list-audit-events';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { parsed } from './responses';

/**
 * GET /audit-events' storage contract: each page is one Query on the list the
 * first filter names (resource, actor, action on gsi1, type on gsi1, else the trail); any
 * further filter is a filter expression on what that Query reads.
 */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const admin = testPrincipal({ role: 'ADMIN' });
const trail = `TENANT#${admin.tenantId}#AUDIT`;
const userId = randomUUID();
const resourceId = randomUUID();
const ALL = { ':from': '2000-01-01T00:00:00.000Z', ':to': '9999-12-31T23:59:59.999Z#~' };

const get = (query: Record<string, string>, principal: Principal = admin) =>
  listAuditEvents(
    proxyEvent({ method: 'GET', resource: '/audit-events', query, authorizer: toAuthorizerContext(principal), headers: { Origin: ALLOWED_ORIGIN } }),
    lambdaContext(),
  );

const entry = (occurredAt: string) => ({
  id: randomUUID(),
  occurredAt,
  actor: { type: 'user', id: userId, name: 'Ana' },
  action: 'user.role_changed',
  resource: { type: 'user', id: resourceId },
  requestId: 'r-1',
  sourceIp: '203.0.113.9',
  userAgent: 'test',
  changes: [{ field: 'role', before: 'MEMBER', after: 'ADMIN' }],
});

const queries = () => ddb.commandCalls(QueryCommand).map((call) => call.args[0].input);

beforeEach(() => {
  ddb.reset();
  ddb.on(QueryCommand).resolves({ Items: [] });
});

describe('GET /audit-events: the list each filter reads', () => {
  const onTable = (key: string, extra: Record<string, unknown> = {}) => ({
    TableName: TABLE,
    ConsistentRead: true,
    KeyConditionExpression: '#key = :key AND #sort BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#key': 'pk', '#sort': 'sk', ...((extra.names as object) ?? {}) },
    ExpressionAttributeValues: { ':key': key, ...ALL, ...((extra.values as object) ?? {}) },
    ...(extra.filter ? { FilterExpression: extra.filter } : {}),
    ScanIndexForward: false,
    Limit: 51,
  });
  const onGsi1 = (key: string, extra: Record<string, unknown> = {}) => {
    const { ConsistentRead: _consistent, ...base } = onTable(key, extra);
    return { ...base, IndexName: 'gsi1', ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#key': 'gsi1pk', '#sort': 'gsi1sk' } };
  };

  it.each([
    ['no filter: the whole trail', {}, onTable(trail)],
    ['resourceId: the resource list', { resourceId }, onTable(`${trail}#RESOURCE#${resourceId}`)],
    ['actorId: the actor list', { actorId: userId }, onTable(`${trail}#ACTOR#${userId}`)],
    ['actorId=system: the system actor list', { actorId: 'system' }, onTable(`${trail}#ACTOR#system`)],
    ['action: gsi1 by action', { action: 'user.removed' }, onGsi1(`${trail}#ACTION#user.removed`)],
    ['resourceType: gsi1 by type', { resourceType: 'supplier' }, onGsi1(`${trail}#TYPE#supplier`)],
    [
      'resourceId and actorId: the resource list, the actor checked',
      { resourceId, actorId: userId },
      onTable(`${trail}#RESOURCE#${resourceId}`, {
        filter: '#actor.#id = :actorId',
        names: { '#actor': 'actor', '#id': 'id' },
        values: { ':actorId': userId },
      }),
    ],
    [
      'resourceId and actorId=system: the system actor is checked by its type (it has no id)',
      { resourceId, actorId: 'system' },
      onTable(`${trail}#RESOURCE#${resourceId}`, {
        filter: '#actor.#actorType = :actorId',
        names: { '#actor': 'actor', '#actorType': 'type' },
        values: { ':actorId': 'system' },
      }),
    ],
    [
      'actorId and action: the actor list, the action checked',
      { actorId: userId, action: 'user.removed' },
      onTable(`${trail}#ACTOR#${userId}`, { filter: '#action = :action', names: { '#action': 'action' }, values: { ':action': 'user.removed' } }),
    ],
    [
      'action and resourceType: gsi1 by action, the type checked',
      { action: 'supplier.created', resourceType: 'supplier' },
      onGsi1(`${trail}#ACTION#supplier.created`, {
        filter: '#resource.#type = :resourceType',
        names: { '#resource': 'resource', '#type': 'type' },
        values: { ':resourceType': 'supplier' },
      }),
    ],
  ])('%s', async (_name, query, expected) => {
    expect(parsed(await get(query as Record<string, string>)).statusCode).toBe(200);
    expect(queries()).toEqual([expected]);
    expect(ddb.calls()).toHaveLength(1);
  });

  it('reads the platform trail for a platform administrator with scope=platform', async () => {
    const root = testPrincipal({ role: 'ADMIN', platformAdmin: true });
    expect(parsed(await get({ scope: 'platform' }, root)).statusCode).toBe(200);
    expect(queries()).toEqual([onTable('PLATFORM#AUDIT')]);
  });

  it('bounds the sort key by the business days given (São Paulo, UTC-3)', async () => {
    await get({ from: '2026-10-01', to: '2026-10-31' });
    expect(queries()[0]?.ExpressionAttributeValues).toEqual({ ':key': trail, ':from': '2026-10-01T03:00:00.000Z', ':to': '2026-11-01T02:59:59.999Z#~' });
  });
});

describe('GET /audit-events: pages and refusals', () => {
  it('answers the entries read, newest first, each with its origin read in one BatchGetItem (a filtered list), and a cursor that starts the next Query after the last one', async () => {
    const items = ['2026-10-05', '2026-10-04', '2026-10-03'].map((day) => entry(`${day}T10:00:00.000Z`));
    const list = `${trail}#RESOURCE#${resourceId}`;
    // The copies hold no origin; it is an item apart, under the trail's ORIGIN partition.
    const stored = items.map(({ sourceIp: _ip, userAgent: _agent, ...item }) => ({
      pk: list,
      sk: `${item.occurredAt}#${item.id}`,
      type: 'AuditEntry',
      ttl: 1,
      ...item,
    }));
    const originKey = (item: (typeof items)[number]) => ({ pk: `${trail}#ORIGIN`, sk: `${item.occurredAt}#${item.id}` });
    const live = Math.floor(Date.now() / 1000) + 86_400;
    const origin = (item: (typeof items)[number], ttl: number) => ({
      ...originKey(item),
      type: 'AuditOrigin',
      sourceIp: item.sourceIp,
      userAgent: item.userAgent,
      ttl,
    });
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: stored })
      .resolvesOnce({ Items: stored.slice(2) });
    // The first entry's origin is there; the third's is past its time (TTL has not removed it yet).
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [TABLE]: [origin(items[0]!, live)] } })
      .resolvesOnce({ Responses: { [TABLE]: [origin(items[2]!, Math.floor(Date.now() / 1000) - 1)] } });

    const first = parsed(await get({ resourceId, limit: '2' }));
    expect(first.body).toEqual({ items: [items[0], { ...items[1], sourceIp: null, userAgent: null }], nextCursor: expect.any(String) });
    const second = parsed(await get({ resourceId, limit: '2', cursor: (first.body as { nextCursor: string }).nextCursor }));
    expect(second.body).toEqual({ items: [{ ...items[2], sourceIp: null, userAgent: null }], nextCursor: null });
    expect(queries()[1]?.ExclusiveStartKey).toEqual({ pk: list, sk: stored[1]?.sk });
    expect(ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input)).toEqual([
      { RequestItems: { [TABLE]: { Keys: [originKey(items[0]!), originKey(items[1]!)], ConsistentRead: true } } },
      { RequestItems: { [TABLE]: { Keys: [originKey(items[2]!)], ConsistentRead: true } } },
    ]);
  });

  it('asks again for the origins a BatchGetItem left unprocessed', async () => {
    const item = entry('2026-10-05T10:00:00.000Z');
    const { sourceIp: _ip, userAgent: _agent, ...copy } = item;
    const key = { pk: `${trail}#ORIGIN`, sk: `${item.occurredAt}#${item.id}` };
    ddb.on(QueryCommand).resolves({ Items: [{ pk: `${trail}#ACTOR#${userId}`, sk: key.sk, type: 'AuditEntry', ttl: 1, ...copy }] });
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [TABLE]: [] }, UnprocessedKeys: { [TABLE]: { Keys: [key] } } })
      .resolvesOnce({
        Responses: {
          [TABLE]: [{ ...key, type: 'AuditOrigin', sourceIp: item.sourceIp, userAgent: item.userAgent, ttl: Math.floor(Date.now() / 1000) + 86_400 }],
        },
      });

    expect(parsed(await get({ actorId: userId })).body).toEqual({ items: [item], nextCursor: null });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(2);
  });

  it("reads a page of the whole trail's origins as the origin list's same range: one Query, no BatchGetItem", async () => {
    const items = ['2026-10-05', '2026-10-04', '2026-10-03'].map((day) => entry(`${day}T10:00:00.000Z`));
    const stored = items.map(({ sourceIp: _ip, userAgent: _agent, ...item }) => ({
      pk: trail,
      sk: `${item.occurredAt}#${item.id}`,
      type: 'AuditEntry',
      ttl: 1,
      ...item,
    }));
    const origin = (item: (typeof items)[number]) => ({
      pk: `${trail}#ORIGIN`,
      sk: `${item.occurredAt}#${item.id}`,
      type: 'AuditOrigin',
      sourceIp: item.sourceIp,
      userAgent: item.userAgent,
      ttl: Math.floor(Date.now() / 1000) + 86_400,
    });
    ddb.on(QueryCommand, { KeyConditionExpression: '#key = :key AND #sort BETWEEN :from AND :to' }).resolves({ Items: stored });
    // The second entry has no origin (a job's); the range is read oldest first.
    ddb.on(QueryCommand, { KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last' }).resolves({ Items: [origin(items[0]!)] });

    expect(parsed(await get({ limit: '2' })).body).toEqual({
      items: [items[0], { ...items[1], sourceIp: null, userAgent: null }],
      nextCursor: expect.any(String),
    });
    expect(queries()[1]).toEqual({
      TableName: TABLE,
      ConsistentRead: true,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
      ExpressionAttributeValues: { ':pk': `${trail}#ORIGIN`, ':first': stored[1]?.sk, ':last': stored[0]?.sk },
    });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('refuses a cursor used with other filters, as a 400 naming cursor', async () => {
    const item = entry('2026-10-05T10:00:00.000Z');
    ddb.on(QueryCommand).resolves({ Items: [item, item].map((each) => ({ pk: trail, sk: `${each.occurredAt}#${each.id}`, ...each })) });
    const first = parsed(await get({ limit: '1' }));
    const cursor = (first.body as { nextCursor: string }).nextCursor;
    const refused = parsed(await get({ limit: '1', cursor, action: 'user.removed' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toEqual(expect.objectContaining({ errors: [{ field: 'cursor', message: expect.any(String) }] }));
  });

  it.each([
    ['a member', testPrincipal({ role: 'MEMBER' }), {}],
    ['a member, even a platform administrator, for the tenant trail', testPrincipal({ role: 'MEMBER', platformAdmin: true }), {}],
    ['a tenant administrator for the platform trail', admin, { scope: 'platform' }],
  ])('answers 403 to %s without reading', async (_name, principal, query) => {
    expect(parsed(await get(query, principal)).statusCode).toBe(403);
    expect(ddb.calls()).toHaveLength(0);
  });

  it.each([
    ['actorId', { actorId: 'someone' }],
    ['action', { action: 'user.deleted' }],
    ['resourceType', { resourceType: 'order' }],
    ['resourceId', { resourceId: 'a#b' }],
    ['resourceId', { resourceId: 'x'.repeat(101) }],
    ['from', { from: '2026-02-30' }],
    ['to', { to: 'yesterday' }],
    ['to', { from: '2026-10-02', to: '2026-10-01' }],
    ['limit', { limit: '0' }],
    ['limit', { limit: '101' }],
    ['scope', { scope: 'everyone' }],
    ['sort', { sort: 'asc' }],
  ])('answers 400 naming %s without reading', async (field, query) => {
    const answer = parsed(await get(query));
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toEqual(expect.objectContaining({ errors: [expect.objectContaining({ field })] }));
    expect(ddb.calls()).toHaveLength(0);
  });
});
