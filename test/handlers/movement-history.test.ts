import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as createMovement } from '../../functions/inventory/create-movement';
import { handler as listMovements } from '../../functions/inventory/list-movements';
import { toAuthorizerContext } from '../../lib/auth/principal';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { testPrincipal } from '../support/principal';
import { jsonHeaders, parsed } from './responses';

/**
 * The stock history's storage contract: a movement is written into the eight lists
 * its filters can ask for, in the movement's own transaction, and a page is one Query on the
 * list of exactly the filters given (no Scan, no filter expression).
 */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const principal = testPrincipal({ role: 'MEMBER' });
const { tenantId } = principal;
const productId = randomUUID();
const warehouseId = randomUUID();
const authorizer = toAuthorizerContext(principal);
const headers = { Origin: ALLOWED_ORIGIN };

const stored = {
  id: randomUUID(),
  tenantId,
  productId,
  warehouseId,
  type: 'Movement',
  movementType: 'SALE',
  quantity: 2.5,
  unitCost: null,
  occurredAt: '2026-10-04T10:00:00.000Z',
  createdAt: '2026-10-04T10:00:01.000Z',
  day: '2026-10-04',
  balanceAfter: 7.5,
  averageCostAfter: 2.3333,
};
const view = {
  id: stored.id,
  productId,
  warehouseId,
  type: 'SALE',
  quantity: 2.5,
  unitCost: null,
  transferId: null,
  counterpartWarehouseId: null,
  occurredAt: stored.occurredAt,
  createdAt: stored.createdAt,
  // Recorded before balances kept a last cost: unknown.
  balance: { quantity: 7.5, averageCost: 2.33, lastCost: null },
};

beforeEach(() => ddb.reset());

describe('GET /inventory/movements', () => {
  const get = (query: Record<string, string>) =>
    listMovements(proxyEvent({ method: 'GET', resource: '/inventory/movements', query, authorizer, headers }), lambdaContext());

  it('reads one page with one consistent Query, newest first, one entry past the page to know if another follows', async () => {
    ddb.on(QueryCommand).resolves({ Items: [{ pk: 'ignored', sk: 'x', ...stored }] });

    expect(parsed(await get({}))).toEqual({ statusCode: 200, headers: jsonHeaders(), body: { items: [view], nextCursor: null } });
    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input)).toEqual([
      {
        TableName: TABLE,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': `TENANT#${tenantId}#MOVEMENTS#*#*`, ':from': '2000-01-01T00:00:00.000Z', ':to': '9999-12-31T23:59:59.999Z#~' },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: 51,
      },
    ]);
    expect(ddb.calls()).toHaveLength(1);
  });

  it('reads the list of exactly the filters given, within the range, and starts after the cursor', async () => {
    const entry = (index: number) => ({
      ...stored,
      pk: `TENANT#${tenantId}#MOVEMENTS#${productId}#*#SALE`,
      sk: `2026-10-0${index}T10:00:00.000Z#${stored.id}`,
    });
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [entry(5), entry(4)] })
      .resolvesOnce({ Items: [entry(3)] });
    const query = { productId, type: 'SALE', from: '2026-10-01', to: '2026-10-31T23:59:59Z', limit: '1' };

    const first = parsed(await get(query));
    expect(first.body).toEqual({ items: [view], nextCursor: expect.any(String) });
    const second = parsed(await get({ ...query, cursor: (first.body as { nextCursor: string }).nextCursor }));
    expect(second.body).toEqual({ items: [view], nextCursor: null });

    const pk = `TENANT#${tenantId}#MOVEMENTS#${productId}#*#SALE`;
    const page = { TableName: TABLE, KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to', ScanIndexForward: false, ConsistentRead: true, Limit: 2 };
    // From the first instant of 2026-10-01 in São Paulo (03:00 UTC).
    const values = { ':pk': pk, ':from': '2026-10-01T03:00:00.000Z', ':to': '2026-10-31T23:59:59.000Z#~' };
    expect(ddb.commandCalls(QueryCommand).map((call) => call.args[0].input)).toEqual([
      { ...page, ExpressionAttributeValues: values },
      { ...page, ExpressionAttributeValues: values, ExclusiveStartKey: { pk, sk: entry(5).sk } },
    ]);
  });
});

describe('POST /inventory/movements', () => {
  it('writes the movement into each of its eight history lists in its own transaction', async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] } });
    ddb.on(TransactWriteCommand).resolves({});
    const body = { productId, warehouseId, type: 'IN', quantity: 3, unitCost: 2, occurredAt: '2026-10-01T10:00:00.000Z' };

    const answer = parsed(
      await createMovement(
        proxyEvent({ method: 'POST', resource: '/inventory/movements', body, authorizer, headers: { ...headers, 'Content-Type': 'application/json' } }),
        lambdaContext(),
      ),
    );
    expect(answer.statusCode).toBe(201);
    const { id } = answer.body as { id: string };

    const [transaction] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
    const entries = (transaction ?? []).filter((item) => item.Put?.Item?.type === 'Movement').map((item) => item.Put?.Item ?? {});
    const prefix = `TENANT#${tenantId}#MOVEMENTS`;
    expect(entries.map((entry) => entry.pk).sort()).toEqual(
      [
        `${prefix}#${productId}#${warehouseId}`,
        `${prefix}#${productId}#${warehouseId}#IN`,
        `${prefix}#${productId}#*`,
        `${prefix}#${productId}#*#IN`,
        `${prefix}#*#${warehouseId}`,
        `${prefix}#*#${warehouseId}#IN`,
        `${prefix}#*#*`,
        `${prefix}#*#*#IN`,
      ].sort(),
    );
    const { pk: _pk, ...first } = entries[0] ?? {};
    for (const { pk: _other, ...entry } of entries) expect(entry).toEqual(first);
    expect(first).toEqual({
      sk: `2026-10-01T10:00:00.000Z#${id}`,
      id,
      tenantId,
      productId,
      warehouseId,
      type: 'Movement',
      movementType: 'IN',
      quantity: 3,
      unitCost: 2,
      occurredAt: '2026-10-01T10:00:00.000Z',
      createdAt: expect.any(String),
      day: '2026-10-01',
      balanceAfter: 3,
      averageCostAfter: 2,
      lastCostAfter: 2,
    });
  });

  it("ends the movement's transaction with its audit entry: the trail's, the caller's and the movement's copies", async () => {
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] } });
    ddb.on(TransactWriteCommand).resolves({});
    const body = { productId, warehouseId, type: 'IN', quantity: 3, unitCost: 2, occurredAt: '2026-10-01T10:00:00.000Z' };
    const event = proxyEvent({
      method: 'POST',
      resource: '/inventory/movements',
      body,
      authorizer,
      requestId: 'movement-audit-1',
      headers: { ...headers, 'Content-Type': 'application/json', 'User-Agent': 'vitest' },
    });

    const answer = parsed(await createMovement(event, lambdaContext()));
    expect(answer.statusCode).toBe(201);
    const { id } = answer.body as { id: string };

    const transactions = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
    expect(transactions).toHaveLength(1);
    const [transaction = []] = transactions;
    // The stock balance, the warehouse, the product, the eight history entries, then the entry (three copies, its origin) and the event.
    expect(transaction).toHaveLength(3 + 8 + 3 + 1 + 1);
    expect(transaction.slice(11)).toEqual(
      expectedAuditPuts({
        table: TABLE,
        trail: { tenantId },
        action: 'movement.created',
        actor: { type: 'user', id: principal.userId, name: principal.name },
        resource: { type: 'movement', id },
        requestId: 'movement-audit-1',
        sourceIp: '203.0.113.10',
        userAgent: 'vitest',
        eventFields: { productId, warehouseId, type: 'IN' },
      }),
    );
  });

  it("moves the product's coverage entries in the same transaction, conditioned on its coverage version", async () => {
    const product = {
      pk: `TENANT#${tenantId}`,
      sk: `PRODUCT#${productId}`,
      type: 'Product',
      id: productId,
      sku: 'CAFE-1',
      name: 'Café 1kg',
      createdAt: '2026-09-01T00:00:00.000Z',
      onHand: 4,
      coverageVersion: 3,
      // Thousandths sold in the last 7, 30 and 90 days.
      coverageSold: { 7: 0, 30: 2000, 90: 5000 },
    };
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [product] } });
    ddb.on(TransactWriteCommand).resolves({});
    const body = { productId, warehouseId, type: 'IN', quantity: 3, unitCost: 2, occurredAt: '2026-10-01T10:00:00.000Z' };

    const answer = parsed(
      await createMovement(
        proxyEvent({ method: 'POST', resource: '/inventory/movements', body, authorizer, headers: { ...headers, 'Content-Type': 'application/json' } }),
        lambdaContext(),
      ),
    );
    expect(answer.statusCode).toBe(201);

    const [transaction = []] = ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
    expect(transaction[2]).toEqual({
      Update: {
        TableName: TABLE,
        Key: { pk: `TENANT#${tenantId}`, sk: `PRODUCT#${productId}` },
        UpdateExpression: 'SET onHand = :onHand, coverageVersion = :next',
        ConditionExpression: 'attribute_exists(pk) AND coverageVersion = :coverageVersion',
        ExpressionAttributeValues: { ':onHand': 7, ':next': 4, ':coverageVersion': 3 },
      },
    });
    const index = (days: number) => `TENANT#${tenantId}#COVERAGE#${days}`;
    const entry = (days: number, sk: string, sold: number) => ({ Put: { TableName: TABLE, Item: { pk: index(days), sk, name: 'Café 1kg', onHand: 7, sold } } });
    const moved = transaction.filter((item) => String(item.Put?.Item?.pk ?? item.Delete?.Key?.pk ?? '').includes('#COVERAGE#'));
    expect(moved).toEqual([
      // No sales in 7 days: its place (no coverage, last) does not move; the entry is rewritten.
      entry(7, `N#CAFE-1#${productId}`, 0),
      // 30 days: 4 units at 2 sold in 30 days was 60.00 days; 7 units is 105.00.
      { Delete: { TableName: TABLE, Key: { pk: index(30), sk: `F046000#CAFE-1#${productId}` } } },
      entry(30, `F0510500#CAFE-1#${productId}`, 2000),
      // 90 days: 72.00 days, then 126.00.
      { Delete: { TableName: TABLE, Key: { pk: index(90), sk: `F047200#CAFE-1#${productId}` } } },
      entry(90, `F0512600#CAFE-1#${productId}`, 5000),
    ]);
  });
});
