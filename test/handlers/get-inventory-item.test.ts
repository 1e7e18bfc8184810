import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getProduct } from '../../functions/inventory/get-product';
import { handler as getWarehouse } from '../../functions/inventory/get-warehouse';
import { toAuthorizerContext } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'get-inventory-item-1';
const principal = testPrincipal({ role: 'MEMBER' });
const { tenantId } = principal;
const id = randomUUID();

const event = (resource: string, itemId: string) =>
  proxyEvent({
    method: 'GET',
    resource,
    path: resource.replace('{id}', itemId),
    pathParameters: { id: itemId },
    requestId: REQUEST_ID,
    authorizer: toAuthorizerContext(principal),
    headers: { Origin: ALLOWED_ORIGIN },
  });

/** Each route, its stored item (with the maintained totals the view leaves out) and its view. */
const CASES = [
  {
    name: 'GET /inventory/warehouses/{id}',
    handler: getWarehouse,
    resource: '/inventory/warehouses/{id}',
    key: keys.warehouse(tenantId, id),
    item: {
      ...keys.warehouse(tenantId, id),
      type: 'Warehouse',
      id,
      name: 'Central',
      createdAt: '2026-11-01T00:00:00.000Z',
      totalItems: 12.5,
      totalProducts: 2,
      totalValue: 100.25,
    },
    // A warehouse stored before warehouses had a company reads with none.
    view: { id, name: 'Central', companyId: null, createdAt: '2026-11-01T00:00:00.000Z' },
    headers: {},
    missing: 'No such warehouse',
  },
  {
    name: 'GET /inventory/products/{id}',
    handler: getProduct,
    resource: '/inventory/products/{id}',
    key: keys.product(tenantId, id),
    item: { ...keys.product(tenantId, id), type: 'Product', id, sku: 'CAFE-1', name: 'Café 1kg', createdAt: '2026-11-01T00:00:00.000Z', onHand: 7.25 },
    // A product stored before products had more fields reads with their defaults, at version 1.
    view: {
      id,
      sku: 'CAFE-1',
      name: 'Café 1kg',
      description: null,
      brand: null,
      unit: 'UN',
      gtin: null,
      ncm: null,
      cest: null,
      salePrice: null,
      status: 'ACTIVE',
      categoryId: null,
      createdAt: '2026-11-01T00:00:00.000Z',
      updatedAt: '2026-11-01T00:00:00.000Z',
      version: 1,
    },
    headers: { ETag: '"1"' },
    missing: 'No such product',
  },
];

beforeEach(() => {
  ddb.reset();
});

describe.each(CASES)('$name', ({ handler, resource, key, item, view, headers, missing }) => {
  it("returns 200 with the view, from one consistent GetItem of the caller's tenant", async () => {
    ddb.on(GetCommand).resolves({ Item: item });

    expect(parsed(await handler(event(resource, id), lambdaContext()))).toEqual({ statusCode: 200, headers: { ...jsonHeaders(), ...headers }, body: view });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([{ TableName: TABLE, Key: key, ConsistentRead: true }]);
  });

  it("returns 404 when the caller's tenant has no such item", async () => {
    ddb.on(GetCommand).resolves({});

    expect(parsed(await handler(event(resource, id), lambdaContext()))).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, missing, REQUEST_ID),
    });
  });

  it('returns 400 naming `id` for an id that is not a UUID, reading nothing', async () => {
    const result = parsed(await handler(event(resource, 'nope'), lambdaContext()));

    expect(result.statusCode).toBe(400);
    expect(result.body).toEqual(expect.objectContaining({ errors: [{ field: 'id', message: expect.any(String) }] }));
    expect(ddb.calls()).toHaveLength(0);
  });
});
