import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { auditItems } from '../audit/repository';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { PURCHASE_ORDER_ITEMS } from '../db/item-types';
import { keys, type Key } from '../db/keys';
import { queryNewestFirst } from '../db/query';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { NotFound } from '../errors';
import { completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';
import { OPEN_STATUSES, remainingOf, type PurchaseOrder, type PurchaseOrderStatus } from './model';

/**
 * Purchase orders. Every write is one transaction: the order (conditioned on the version read,
 * or, new, on its company's sequence being where it was read), its list entries, what it puts
 * on order in its warehouse, and the audit entry with its event.
 */

/** The lists an order is in: all, its status's, its supplier's, its company's. */
const listsOf = (order: Pick<PurchaseOrder, 'status' | 'supplierId' | 'companyId'>): string[] => [
  '*',
  `STATUS#${order.status}`,
  `SUPPLIER#${order.supplierId}`,
  `COMPANY#${order.companyId}`,
];

/** The list a filter reads: the most selective one given. */
export const listOf = (filters: { status?: PurchaseOrderStatus | undefined; supplierId?: string | undefined; companyId?: string | undefined }): string =>
  filters.supplierId
    ? `SUPPLIER#${filters.supplierId}`
    : filters.companyId
      ? `COMPANY#${filters.companyId}`
      : filters.status
        ? `STATUS#${filters.status}`
        : '*';

const entryPut = (tenantId: string, list: string, order: PurchaseOrder): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.purchaseOrderEntry(tenantId, list, order.createdAt, order.id), type: PURCHASE_ORDER_ITEMS.entry, orderId: order.id },
  },
});

function orderItem(tenantId: string, order: PurchaseOrder): Record<string, unknown> {
  const { expectedAt, notes, sentAt, cancelledAt, items, ...fields } = order;
  return {
    ...keys.purchaseOrder(tenantId, order.id),
    type: PURCHASE_ORDER_ITEMS.order,
    ...fields,
    ...(expectedAt === null ? {} : { expectedAt }),
    ...(notes === null ? {} : { notes }),
    ...(sentAt === null ? {} : { sentAt }),
    ...(cancelledAt === null ? {} : { cancelledAt }),
    items: items.map((item) => ({
      productId: item.productId,
      quantity: storedDecimal(item.quantity, QUANTITY_PLACES),
      unitCost: storedDecimal(item.unitCost, UNIT_COST_PLACES),
      received: storedDecimal(item.received, QUANTITY_PLACES),
    })),
  };
}

export function toOrder(item: Record<string, unknown>): PurchaseOrder {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: String(item.id),
    number: Number(item.number),
    companyId: String(item.companyId),
    supplierId: String(item.supplierId),
    warehouseId: String(item.warehouseId),
    status: item.status as PurchaseOrderStatus,
    expectedAt: text(item.expectedAt),
    notes: text(item.notes),
    items: ((item.items ?? []) as Record<string, unknown>[]).map((line) => ({
      productId: String(line.productId),
      quantity: scaledFrom(line.quantity, QUANTITY_PLACES),
      unitCost: scaledFrom(line.unitCost, UNIT_COST_PLACES),
      received: scaledFrom(line.received, QUANTITY_PLACES),
    })),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    sentAt: text(item.sentAt),
    cancelledAt: text(item.cancelledAt),
    version: Number(item.version),
  };
}

export async function findOrder(tenantId: string, orderId: string): Promise<PurchaseOrder | undefined> {
  const [item] = await getMany([keys.purchaseOrder(tenantId, orderId)]);
  return item ? toOrder(item) : undefined;
}

/**
 * What an order puts on order in its warehouse while it is open: each item's remaining units.
 * The change from `before` to `after` (either may be undefined: not open) as ADDs.
 */
export function onOrderWrites(tenantId: string, before: PurchaseOrder | undefined, after: PurchaseOrder | undefined): TransactItem[] {
  const open = (order: PurchaseOrder | undefined) => (order && OPEN_STATUSES.includes(order.status) ? order : undefined);
  const deltas = new Map<string, { warehouseId: string; productId: string; delta: bigint }>();
  const add = (order: PurchaseOrder | undefined, sign: 1n | -1n) => {
    const opened = open(order);
    if (!opened) return;
    for (const item of opened.items) {
      const at = `${opened.warehouseId}|${item.productId}`;
      const entry = deltas.get(at) ?? { warehouseId: opened.warehouseId, productId: item.productId, delta: 0n };
      entry.delta += sign * remainingOf(item);
      deltas.set(at, entry);
    }
  };
  add(before, -1n);
  add(after, 1n);
  return [...deltas.values()]
    .filter((entry) => entry.delta !== 0n)
    .map((entry) => ({
      Update: {
        TableName: tableName(),
        Key: keys.onOrder(tenantId, entry.warehouseId, entry.productId),
        UpdateExpression: 'SET #type = :type, productId = :product ADD quantity :delta',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: {
          ':type': PURCHASE_ORDER_ITEMS.onOrder,
          ':product': entry.productId,
          ':delta': storedDecimal(entry.delta, QUANTITY_PLACES),
        },
      },
    }));
}

const exists = (key: Key): TransactItem => ({ ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' } });

/**
 * A new order, numbered by its company's sequence: the sequence's `last` moves from the value
 * read to the order's number in the same transaction (conditioned on it), so of parallel
 * creations each takes the next number and a refused one takes none (no gaps, no duplicates).
 * The supplier, the company and the warehouse are checked to exist in the same transaction.
 */
export async function insertOrder(
  tenantId: string,
  build: (number: number) => PurchaseOrder,
  audit: (order: PurchaseOrder) => AuditRecord,
  key?: (order: PurchaseOrder) => KeyCompletion,
): Promise<PurchaseOrder> {
  return withOptimisticRetries<PurchaseOrder>(async () => {
    const probe = build(0);
    const [sequence] = await getMany([keys.purchaseOrderSequence(tenantId, probe.companyId)]);
    const last = sequence === undefined ? 0 : Number(sequence.last ?? 0);
    const order = build(last + 1);
    const completion = key?.(order);
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.purchaseOrderSequence(tenantId, order.companyId),
          UpdateExpression: 'SET #last = :next, #type = :type',
          ConditionExpression: sequence === undefined ? 'attribute_not_exists(pk)' : '#last = :last',
          ExpressionAttributeNames: { '#last': 'last', '#type': 'type' },
          ExpressionAttributeValues: { ':next': order.number, ':type': PURCHASE_ORDER_ITEMS.sequence, ...(sequence === undefined ? {} : { ':last': last }) },
        },
      },
      exists(keys.company(tenantId, order.companyId)),
      exists(keys.supplier(tenantId, order.supplierId)),
      exists(keys.warehouse(tenantId, order.warehouseId)),
      { Put: { TableName: tableName(), Item: orderItem(tenantId, order), ConditionExpression: 'attribute_not_exists(pk)' } },
      ...listsOf(order).map((list) => entryPut(tenantId, list, order)),
    ];
    const keyAt = items.length;
    items.push(...completionItems(completion), ...auditItems(audit(order)));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: order };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (completion) keyTakenOver(error, keyAt);
      if (codes[1] === 'ConditionalCheckFailed') throw new NotFound('No such company');
      if (codes[2] === 'ConditionalCheckFailed') throw new NotFound('No such supplier');
      if (codes[3] === 'ConditionalCheckFailed') throw new NotFound('No such warehouse');
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/**
 * Change an order: read it, let `change` compute the new one (it throws for what the order's
 * status does not allow, and a 412 for a stale If-Match), and write it conditioned on the
 * version read, with its status entry moved, what it has on order moved, and the audit entry.
 */
export async function modifyOrder(
  tenantId: string,
  orderId: string,
  change: (current: PurchaseOrder) => PurchaseOrder,
  audit: (before: PurchaseOrder, after: PurchaseOrder) => AuditRecord,
): Promise<PurchaseOrder> {
  return withOptimisticRetries<PurchaseOrder>(async () => {
    const before = await findOrder(tenantId, orderId);
    if (!before) throw new NotFound('No such purchase order');
    const after = change(before);
    const items: TransactItem[] = [
      {
        Put: {
          TableName: tableName(),
          Item: orderItem(tenantId, after),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': before.version },
        },
      },
    ];
    if (after.status !== before.status) {
      items.push(
        { Delete: { TableName: tableName(), Key: keys.purchaseOrderEntry(tenantId, `STATUS#${before.status}`, before.createdAt, before.id) } },
        entryPut(tenantId, `STATUS#${after.status}`, after),
      );
    }
    items.push(...onOrderWrites(tenantId, before, after), ...auditItems(audit(before, after)));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: after };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/** A page of one list of orders, newest first, within `[fromSk, toSk]`: one Query, then the orders in one BatchGetItem. */
export async function readOrderPage(
  tenantId: string,
  request: { list: string; fromSk: string; toSk: string; limit: number; afterSk?: string },
): Promise<{ orders: PurchaseOrder[]; nextSk?: string }> {
  const { items, nextSk } = await queryNewestFirst(keys.purchaseOrdersOf(tenantId, request.list).pk, request);
  const found = await getMany(items.map((item) => keys.purchaseOrder(tenantId, String(item.orderId))));
  return { orders: found.flatMap((item) => (item ? [toOrder(item)] : [])), ...(nextSk === undefined ? {} : { nextSk }) };
}

/** What the open orders of a warehouse still expect, by product (thousandths). */
export async function readOnOrder(tenantId: string, warehouseId: string, productIds: readonly string[]): Promise<Map<string, bigint>> {
  const found = await getMany(productIds.map((productId) => keys.onOrder(tenantId, warehouseId, productId)));
  return new Map(found.flatMap((item) => (item ? [[String(item.productId), scaledFrom(item.quantity, QUANTITY_PLACES)] as const] : [])));
}
