import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as deleteSupplier } from '../../functions/suppliers/delete-supplier';
import { keys } from '../../lib/db/keys';
import { lambdaContext } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { testPrincipal } from '../support/principal';
import { storedSupplierItem, supplierIdEvent } from '../support/suppliers';
import { CORS_HEADERS, parsed, problem, problemHeaders, SECURITY_HEADERS } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'delete-supplier-1';

const principal = testPrincipal({ role: 'ADMIN' });
const { tenantId } = principal;
const supplierId = randomUUID();

const supplierItem = (extra: Record<string, unknown> = {}) => storedSupplierItem(tenantId, supplierId, extra);

/** A DELETE from a browser that names itself (its User-Agent goes into the audit entry). */
const remove = (id: string) => {
  const event = supplierIdEvent('DELETE', id, principal, REQUEST_ID);
  return deleteSupplier({ ...event, headers: { ...event.headers, 'User-Agent': 'vitest' } }, lambdaContext());
};

/** The audit entry's puts, last in the transaction: the trail's, the caller's and the supplier's copies. */
const auditPuts = () =>
  expectedAuditPuts({
    table: TABLE,
    trail: { tenantId },
    action: 'supplier.deleted',
    actor: { type: 'user', id: principal.userId, name: principal.name },
    resource: { type: 'supplier', id: supplierId },
    requestId: REQUEST_ID,
    sourceIp: '203.0.113.10',
    userAgent: 'vitest',
  });

/** The one transaction of a delete that read `sortName`, `document` and `version`. */
const deletion = (sortName: string, document: string, version: number) => ({
  TransactItems: [
    {
      Delete: {
        TableName: TABLE,
        Key: keys.supplier(tenantId, supplierId),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': version },
      },
    },
    { Delete: { TableName: TABLE, Key: keys.supplierDocument(tenantId, document) } },
    { Delete: { TableName: TABLE, Key: keys.supplierIndexEntry(tenantId, sortName, supplierId) } },
    // The count: one less.
    {
      Update: {
        TableName: TABLE,
        Key: keys.supplierStats(tenantId),
        UpdateExpression: 'ADD #count :minusOne',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':minusOne': -1 },
      },
    },
    // And its block's, conditioned on the block not having been split (lib/suppliers/blocks-repository).
    {
      Update: {
        TableName: TABLE,
        Key: keys.supplierBlock(tenantId, ''),
        UpdateExpression: 'ADD n :delta, writes :one',
        ConditionExpression: 'version = :version AND (attribute_not_exists(frozenUntil) OR frozenUntil < :now)',
        ExpressionAttributeValues: { ':one': 1, ':delta': -1, ':version': 7, ':now': expect.any(Number) },
      },
    },
    // The search's tombstone: the version after the one deleted (lib/search/engine).
    {
      Put: {
        TableName: TABLE,
        Item: { ...keys.searchDelta(tenantId, 'suppliers', supplierId, version + 1), type: 'SearchDelta', r: JSON.stringify([supplierId, version + 1]) },
      },
    },
    // No product linked to it meanwhile (lib/supplier-products).
    {
      ConditionCheck: {
        TableName: TABLE,
        Key: keys.supplierLinkCount(tenantId, 'supplier', supplierId),
        ConditionExpression: 'attribute_not_exists(pk) OR #count = :zero',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':zero': 0 },
      },
    },
    // And the audit entry, which commits only with the delete.
    ...auditPuts(),
  ],
});

/** The tenant's first (and only) block, which every entry belongs to. */
const block = { ...keys.supplierBlock(tenantId, ''), n: 5, version: 7, writes: 12 };

const NO_CONTENT = { statusCode: 204, headers: { 'Cache-Control': 'no-store', ...CORS_HEADERS, ...SECURITY_HEADERS }, body: '' };

beforeEach(() => {
  ddb.reset();
  ddb.on(QueryCommand).resolves({ Items: [block] });
  // The supplier's count of products: none.
  ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] } });
});

describe('DELETE /suppliers/{id}', () => {
  it('returns 204 with no body and removes the supplier, its document sentinel and index entry and one from the count, with its audit entry, in one transaction', async () => {
    ddb.on(GetCommand).resolves({ Item: supplierItem() });
    ddb.on(TransactWriteCommand).resolves({});

    const result = await remove(supplierId);

    expect(parsed(result)).toEqual(NO_CONTENT);
    expect(ddb.commandCalls(GetCommand).map((call) => call.args[0].input)).toEqual([
      { TableName: TABLE, Key: keys.supplier(tenantId, supplierId), ConsistentRead: true },
    ]);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([deletion('acme', '11222333000181', 3)]);
  });

  it('returns 409 while the supplier sells products, writing nothing', async () => {
    ddb.on(GetCommand).resolves({ Item: supplierItem() });
    ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [{ ...keys.supplierLinkCount(tenantId, 'supplier', supplierId), count: 2 }] } });

    const result = await remove(supplierId);

    expect(parsed(result)).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem(
        'conflict',
        'Conflict',
        409,
        'The supplier sells 2 products here: remove them from it (DELETE /suppliers/{id}/products/{productId}) before deleting it',
        REQUEST_ID,
      ),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it("returns 404 when the caller's tenant has no such supplier, writing nothing", async () => {
    ddb.on(GetCommand).resolves({});

    const result = await remove(supplierId);

    expect(parsed(result)).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, 'No such supplier', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('reads again when an update got there first, and removes the index entry and sentinel the supplier has now', async () => {
    ddb
      .on(GetCommand)
      .resolvesOnce({ Item: supplierItem() })
      .resolves({ Item: supplierItem({ name: 'Zeta', sortName: 'zeta', document: '52998224725', version: 4 }) });
    ddb
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'Transaction cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
        }),
      )
      .resolves({});

    const result = await remove(supplierId);

    expect(parsed(result)).toEqual(NO_CONTENT);
    expect(ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input)).toEqual([
      deletion('acme', '11222333000181', 3),
      deletion('zeta', '52998224725', 4),
    ]);
  });

  it('returns 404 when a parallel delete got there first', async () => {
    ddb.on(GetCommand).resolvesOnce({ Item: supplierItem() }).resolves({});
    ddb.on(TransactWriteCommand).rejects(
      new TransactionCanceledException({
        message: 'Transaction cancelled',
        $metadata: {},
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }, { Code: 'None' }],
      }),
    );

    const result = await remove(supplierId);

    expect(parsed(result)).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, 'No such supplier', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('returns 400 naming `id` for an id that is not a UUID, reading nothing', async () => {
    const result = await remove('not-a-uuid');

    expect(result.statusCode).toBe(400);
    expect((JSON.parse(result.body) as { errors: { field: string }[] }).errors).toEqual([expect.objectContaining({ field: 'id' })]);
    expect(ddb.calls()).toHaveLength(0);
  });
});
