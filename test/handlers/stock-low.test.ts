import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as createMovement } from '../../functions/inventory/create-movement';
import { toAuthorizerContext } from '../../lib/auth/principal';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { parsed } from './responses';

/**
 * `product.stock_low` in the movement's own transaction (the outbox, lib/events): the event's
 * put is in the one TransactWriteItems that records the movement, beside the movement's own
 * event, at the same instant; the threshold is read in the movement's one BatchGetItem.
 */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const principal = testPrincipal({ role: 'MEMBER' });
const { tenantId } = principal;
const productId = randomUUID();
const warehouseId = randomUUID();
const authorizer = toAuthorizerContext(principal);

/** 20 units in the warehouse and over all, 60 sold in the last 30 days (2 a day): 10 days of coverage. */
const stock = {
  pk: `TENANT#${tenantId}#STOCK`,
  sk: `${productId}#${warehouseId}`,
  type: 'Stock',
  productId,
  warehouseId,
  quantity: 20,
  totalCost: 40,
  averageCost: 2,
  version: 4,
};
const product = (onHand: number) => ({
  pk: `TENANT#${tenantId}`,
  sk: `PRODUCT#${productId}`,
  type: 'Product',
  id: productId,
  sku: 'CAFE-500',
  name: 'Café 500 g',
  // Sold by the kilo: the movements below sell halves.
  unit: 'KG',
  createdAt: '2026-09-01T00:00:00.000Z',
  onHand,
  coverageVersion: 7,
  coverageSold: { 7: 14000, 30: 60000, 90: 150000 },
});
const tenant = (threshold?: number) => ({
  pk: `TENANT#${tenantId}`,
  sk: 'PROFILE',
  type: 'Tenant',
  id: tenantId,
  name: 'loja',
  ...(threshold === undefined ? {} : { stockLowThresholdDays: threshold }),
});

const stores = (...items: Record<string, unknown>[]) => ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: items } });

const move = async (body: Record<string, unknown>) =>
  parsed(
    await createMovement(
      proxyEvent({
        method: 'POST',
        resource: '/inventory/movements',
        body: { productId, warehouseId, ...body },
        authorizer,
        headers: { Origin: ALLOWED_ORIGIN, 'Content-Type': 'application/json' },
      }),
      lambdaContext(),
    ),
  );

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input.TransactItems ?? []);
const eventsIn = (items: ReturnType<typeof transactions>[number]) => items.flatMap((item) => (item.Put?.Item?.type === 'Event' ? [item.Put.Item] : []));
const readKeys = () => ddb.commandCalls(BatchGetCommand).map((call) => call.args[0].input.RequestItems?.[TABLE]?.Keys);

beforeEach(() => {
  ddb.reset();
  ddb.on(TransactWriteCommand).resolves({});
});

describe('POST /inventory/movements and product.stock_low', () => {
  it("writes the event in the movement's one transaction when a sale takes coverage from at the threshold to below it", async () => {
    stores(stock, product(20), tenant(10));

    const answer = await move({ type: 'SALE', quantity: 0.5 });
    expect(answer.statusCode).toBe(201);
    const { id: movementId } = answer.body as { id: string };

    // The threshold comes in the one BatchGetItem the movement makes anyway.
    expect(readKeys()).toEqual([
      [
        { pk: `TENANT#${tenantId}#STOCK`, sk: `${productId}#${warehouseId}` },
        { pk: `TENANT#${tenantId}`, sk: `PRODUCT#${productId}` },
        { pk: `TENANT#${tenantId}`, sk: 'PROFILE' },
      ],
    ]);
    const all = transactions();
    expect(all).toHaveLength(1);
    const [transaction = []] = all;
    const [movementEvent, low] = eventsIn(transaction);
    expect(movementEvent?.event).toMatchObject({ type: 'stock_movement.created', data: { id: movementId } });
    const timestamp = (movementEvent?.event as { timestamp: string }).timestamp;
    // 19.5 units at 2 a day: 9.75 days.
    expect(low).toEqual({
      pk: `TENANT#${tenantId}#EVENTS`,
      sk: expect.stringMatching(new RegExp(`^${timestamp.replace(/[.]/g, '\\.')}#[0-9a-f-]{36}$`)) as unknown,
      gsi1pk: `TENANT#${tenantId}#EVENTS#product.stock_low`,
      gsi1sk: expect.stringMatching(/#[0-9a-f-]{36}$/) as unknown,
      type: 'Event',
      event: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
        type: 'product.stock_low',
        timestamp,
        data: { id: productId, tenantId, sku: 'CAFE-500', warehouseId, coverageDays: '9.75', thresholdDays: '10' },
      },
      ttl: Math.floor(Date.parse(timestamp) / 1000) + 30 * 24 * 3600,
    });
    expect(low?.sk).toBe(`${timestamp}#${(low?.event as { id: string }).id}`);
    expect(low?.gsi1sk).toBe(low?.sk);
    // After the movement's audit entry and event: last, so no condition's index moved.
    expect(transaction.at(-1)?.Put?.Item).toBe(low);
    // The product's update is conditioned on the coverage version the crossing was computed from.
    expect(transaction[2]?.Update).toMatchObject({
      ConditionExpression: 'attribute_exists(pk) AND coverageVersion = :coverageVersion',
      ExpressionAttributeValues: { ':onHand': 19.5, ':coverageVersion': 7 },
    });
  });

  it('writes none when the product was already below, stays at or above, or the threshold is off', async () => {
    for (const [onHand, threshold, quantity] of [
      [19.5, 10, 1], // 9.75 days → 9.25: already below
      [30, 10, 10], // 15 → 10 days: at, not below
      [20, undefined, 5], // off (the default)
    ] as const) {
      ddb.reset();
      ddb.on(TransactWriteCommand).resolves({});
      stores({ ...stock, quantity: 40 }, product(onHand), tenant(threshold));
      expect((await move({ type: 'SALE', quantity })).statusCode).toBe(201);
      expect(
        eventsIn(transactions()[0] ?? []).map((item) => (item.event as { type: string }).type),
        `${onHand} ${threshold}`,
      ).toEqual(['stock_movement.created']);
    }
  });

  it('writes nothing at all for a refused movement (409, not enough stock)', async () => {
    stores(stock, product(20), tenant(10));
    const answer = await move({ type: 'SALE', quantity: 25 });
    expect(answer.statusCode).toBe(409);
    expect(transactions()).toHaveLength(0);
  });

  it('reads no threshold for an IN, which only raises coverage', async () => {
    stores(stock, product(20), tenant(10));
    expect((await move({ type: 'IN', quantity: 1, unitCost: 2 })).statusCode).toBe(201);
    expect(readKeys()[0]).toHaveLength(2);
    expect(eventsIn(transactions()[0] ?? [])).toHaveLength(1);
  });

  it('recomputes the crossing when a concurrent movement changed the product first: it crossed, so this one writes none', async () => {
    ddb
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [TABLE]: [stock, product(20), tenant(10)] } })
      // Another warehouse's sale got in: 19 on hand, 9.5 days, under a newer coverage version.
      .resolves({ Responses: { [TABLE]: [stock, { ...product(19), coverageVersion: 8 }, tenant(10)] } });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'Transaction cancelled',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: [{ Code: 'None' }, { Code: 'None' }, { Code: 'ConditionalCheckFailed' }],
        }),
      )
      .resolves({});

    expect((await move({ type: 'SALE', quantity: 0.5 })).statusCode).toBe(201);
    const [first = [], second = []] = transactions();
    expect(eventsIn(first).map((item) => (item.event as { type: string }).type)).toEqual(['stock_movement.created', 'product.stock_low']);
    expect(eventsIn(second).map((item) => (item.event as { type: string }).type)).toEqual(['stock_movement.created']);
  });
});
