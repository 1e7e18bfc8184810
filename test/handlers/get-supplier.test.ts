import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as getSupplier } from '../../functions/suppliers/get-supplier';
import { keys } from '../../lib/db/keys';
import { lambdaContext } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { storedSupplierItem, supplierIdEvent } from '../support/suppliers';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'get-supplier-1';

/** Any session of the tenant may read a supplier: a member, not only an administrator. */
const principal = testPrincipal({ role: 'MEMBER' });
const { tenantId } = principal;
const supplierId = randomUUID();

/** The stored item: the supplier with its keys, timestamps, sort name and version. */
const supplierItem = (extra: Record<string, unknown> = {}) =>
  storedSupplierItem(tenantId, supplierId, { email: 'compras@acme.example', phone: '+5511987654321', updatedAt: '2026-11-02T00:00:00.000Z', ...extra });

const read = (id: string) => getSupplier(supplierIdEvent('GET', id, principal, REQUEST_ID), lambdaContext());

beforeEach(() => {
  ddb.reset();
});

describe('GET /suppliers/{id}', () => {
  it("returns 200 with the supplier view (no timestamps, sort name or version; document formatted) from one consistent GetItem of the caller's tenant", async () => {
    ddb.on(GetCommand).resolves({ Item: supplierItem() });

    const result = await read(supplierId);

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: {
        id: supplierId,
        name: 'Acme',
        corporateName: 'Acme Comércio LTDA',
        document: '11.222.333/0001-81',
        email: 'compras@acme.example',
        phone: '+5511987654321',
        active: true,
      },
    });
    expect(ddb.calls()).toHaveLength(1);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: keys.supplier(tenantId, supplierId), ConsistentRead: true },
    ]);
  });

  it('answers null for an e-mail and a phone the item does not hold', async () => {
    ddb.on(GetCommand).resolves({ Item: supplierItem({ email: undefined, phone: undefined, document: '52998224725', active: false }) });

    const result = await read(supplierId);

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: { id: supplierId, name: 'Acme', corporateName: 'Acme Comércio LTDA', document: '529.982.247-25', email: null, phone: null, active: false },
    });
  });

  it("returns 404 when the caller's tenant has no such supplier (unknown, deleted or another tenant's)", async () => {
    ddb.on(GetCommand).resolves({});

    const result = await read(supplierId);

    expect(parsed(result)).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, 'No such supplier', REQUEST_ID),
    });
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: keys.supplier(tenantId, supplierId), ConsistentRead: true },
    ]);
  });

  it('returns 400 naming `id` for an id that is not a UUID, reading nothing', async () => {
    const result = await read('not-a-uuid');

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'id: must be a UUID', REQUEST_ID, [{ field: 'id', message: 'must be a UUID' }]),
    });
    expect(ddb.calls()).toHaveLength(0);
  });
});
