import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { auditItems } from '../audit/repository';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { TRANSFER_ITEMS } from '../db/item-types';
import { keys } from '../db/keys';
import { queryNewestFirst } from '../db/query';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import type { CostMethod } from '../domain/companies';
import { QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { NotFound } from '../errors';
import { completionItem, keyTakenOver } from '../idempotency/repository';
import type { IdempotentWrite } from '../idempotency/model';
import { applyMovement, lastCostAfter, transferOut } from '../inventory/costing';
import { coverageStateOf, coverageVersionCondition } from '../inventory/coverage-repository';
import type { Balance, Movement, Product } from '../inventory/model';
import { toProduct } from '../inventory/product-repository';
import { assertPlaceExists, balancePut, historyEntries, toBalance, warehouseRefusal, warehouseTotalsUpdate } from '../inventory/repository';
import type { Transfer } from './model';

/**
 * A transfer in ONE transaction: the source's balance down and the destination's up (each
 * conditioned on the version read), both warehouses' totals by exact deltas (each conditioned
 * on its company not being halted), a check that the product is as read (its status and unit
 * admitted the transfer), the two movements' stock-history entries (8 each), the transfer's
 * entries in its lists (6), the key's completion, the audit entry and its event: at most
 * 2 + 2 + 1 + 16 + 6 + 1 + 2 = 30 items. The product's on-hand does not change. A condition
 * lost to a concurrent writer re-reads and recomputes, so stock never goes below zero and
 * parallel transfers out of one balance move exactly what it held.
 */

/** What the caller decides once the transfer's place is read: the transfer's fields and the two movements, or an error. */
export interface TransferPlan {
  /** Throws for what the product does not take (a fraction of a whole unit). */
  admit: (product: Product) => void;
  /** The transfer and its two movements, from the value and method the source gave. */
  build: (moved: { value: bigint; costMethod: CostMethod; fromCompanyId: string | null; toCompanyId: string | null; fromAfter: Balance; toAfter: Balance }) => {
    transfer: Transfer;
    out: Movement;
    in: Movement;
  };
}

export const exactBalance = (balance: Balance) => ({
  quantity: balance.quantity,
  value: balance.totalCost,
  averageCost: balance.averageCost,
  lastCost: balance.lastCost,
});

export const costMethodOf = (company: Record<string, unknown> | undefined): CostMethod =>
  company?.costMethod === 'REPLACEMENT' ? 'REPLACEMENT' : 'WEIGHTED_AVERAGE';

export async function recordTransfer(
  tenantId: string,
  place: { productId: string; fromWarehouseId: string; toWarehouseId: string; quantity: bigint },
  plan: TransferPlan,
  audit: AuditRecord,
  idempotent?: { write: IdempotentWrite; view: (transfer: Transfer) => unknown },
): Promise<Transfer> {
  const { productId, fromWarehouseId, toWarehouseId, quantity } = place;
  return withOptimisticRetries<Transfer>(async () => {
    const [sourceItem, destinationItem, productItem, fromWarehouse, toWarehouse] = await getMany([
      keys.stock(tenantId, productId, fromWarehouseId),
      keys.stock(tenantId, productId, toWarehouseId),
      keys.product(tenantId, productId),
      keys.warehouse(tenantId, fromWarehouseId),
      keys.warehouse(tenantId, toWarehouseId),
    ]);
    if (!productItem) throw new NotFound('No such product');
    if (!fromWarehouse) throw new NotFound('No such warehouse (fromWarehouseId)');
    if (!toWarehouse) throw new NotFound('No such warehouse (toWarehouseId)');
    const product = toProduct(productItem);
    plan.admit(product);
    const fromCompanyId = typeof fromWarehouse.companyId === 'string' ? fromWarehouse.companyId : null;
    const toCompanyId = typeof toWarehouse.companyId === 'string' ? toWarehouse.companyId : null;
    const [company] = fromCompanyId === null ? [undefined] : await getMany([keys.company(tenantId, fromCompanyId)]);
    const costMethod = costMethodOf(company);

    const source = toBalance(sourceItem);
    const destination = toBalance(destinationItem);
    let moved: ReturnType<typeof transferOut>;
    try {
      moved = transferOut(exactBalance(source), quantity, costMethod);
    } catch (error) {
      if (source.version === 0) await assertPlaceExists({ tenantId, productId, warehouseId: fromWarehouseId });
      throw error;
    }
    const carriedLastCost = source.lastCost > 0n ? source.lastCost : undefined;
    const arriving = { type: 'TRANSFER_IN' as const, quantity, value: moved.value, ...(carriedLastCost === undefined ? {} : { unitCost: carriedLastCost }) };
    const landed = applyMovement(exactBalance(destination), arriving);
    const fromAfter: Balance = {
      quantity: moved.after.quantity,
      totalCost: moved.after.value,
      averageCost: moved.after.averageCost,
      lastCost: source.lastCost,
      version: source.version + 1,
    };
    const toAfter: Balance = {
      quantity: landed.quantity,
      totalCost: landed.value,
      averageCost: landed.averageCost,
      lastCost: lastCostAfter(destination.lastCost, arriving),
      version: destination.version + 1,
    };
    const { transfer, out, in: into } = plan.build({ value: moved.value, costMethod, fromCompanyId, toCompanyId, fromAfter, toAfter });

    const state = coverageStateOf(productItem);
    const { condition, values } = coverageVersionCondition(state.version);
    const items: TransactItem[] = [
      balancePut(tenantId, productId, fromWarehouseId, source, fromAfter),
      balancePut(tenantId, productId, toWarehouseId, destination, toAfter),
      warehouseTotalsUpdate(tenantId, fromWarehouseId, source, fromAfter),
      warehouseTotalsUpdate(tenantId, toWarehouseId, destination, toAfter),
      {
        // The product as read: its unit and status admitted the transfer (every change of it moves its coverage version).
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.product(tenantId, productId),
          ConditionExpression: `attribute_exists(pk) AND ${condition}`,
          ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
        },
      },
      ...historyEntries(out, fromAfter).map((entry) => withTransferValue(entry, undefined)),
      ...historyEntries(into, toAfter).map((entry) => withTransferValue(entry, moved.value)),
      ...transferEntries(tenantId, transfer),
    ];
    const keyIndex = items.length;
    if (idempotent) items.push(completionItem(idempotent.write, idempotent.view(transfer)));
    items.push(...auditItems(audit));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: transfer };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (idempotent) keyTakenOver(error, keyIndex);
      if (codes[2] === 'ConditionalCheckFailed') throw await warehouseRefusal(tenantId, fromWarehouseId);
      if (codes[3] === 'ConditionalCheckFailed') throw await warehouseRefusal(tenantId, toWarehouseId);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/** A TRANSFER_IN's history entries carry the exact value it brought (the replay of its balance reads it). */
export function withTransferValue(entry: TransactItem, value: bigint | undefined): TransactItem {
  if (value === undefined || !entry.Put) return entry;
  return { Put: { ...entry.Put, Item: { ...entry.Put.Item, transferValue: storedDecimal(value, VALUE_PLACES) } } };
}

/** The scopes a transfer is listed in: all, its product, each warehouse, and the product in each warehouse. */
function scopesOf(transfer: Pick<Transfer, 'productId' | 'fromWarehouseId' | 'toWarehouseId'>) {
  return [
    {},
    { productId: transfer.productId },
    { warehouseId: transfer.fromWarehouseId },
    { warehouseId: transfer.toWarehouseId },
    { productId: transfer.productId, warehouseId: transfer.fromWarehouseId },
    { productId: transfer.productId, warehouseId: transfer.toWarehouseId },
  ];
}

export const balanceAttributes = (balance: Transfer['fromAfter']) => ({
  quantity: storedDecimal(balance.quantity, QUANTITY_PLACES),
  averageCost: storedDecimal(balance.averageCost, UNIT_COST_PLACES),
  lastCost: storedDecimal(balance.lastCost, UNIT_COST_PLACES),
});

export function transferEntries(tenantId: string, transfer: Transfer): TransactItem[] {
  const { batchId, ...fields } = transfer;
  const item = {
    ...fields,
    ...(batchId === null ? {} : { batchId }),
    type: TRANSFER_ITEMS.entry,
    quantity: storedDecimal(transfer.quantity, QUANTITY_PLACES),
    value: storedDecimal(transfer.value, VALUE_PLACES),
    fromAfter: balanceAttributes(transfer.fromAfter),
    toAfter: balanceAttributes(transfer.toAfter),
  };
  return scopesOf(transfer).map((scope) => ({
    Put: { TableName: tableName(), Item: { ...keys.transferEntry(tenantId, scope, transfer.occurredAt, transfer.id), ...item } },
  }));
}

export const balanceOf = (stored: unknown): Transfer['fromAfter'] => {
  const fields = (stored ?? {}) as Record<string, unknown>;
  return {
    quantity: scaledFrom(fields.quantity, QUANTITY_PLACES),
    averageCost: scaledFrom(fields.averageCost, UNIT_COST_PLACES),
    lastCost: scaledFrom(fields.lastCost, UNIT_COST_PLACES),
  };
};

const toTransfer = (item: Record<string, unknown>): Transfer => ({
  id: String(item.id),
  productId: String(item.productId),
  fromWarehouseId: String(item.fromWarehouseId),
  toWarehouseId: String(item.toWarehouseId),
  fromCompanyId: typeof item.fromCompanyId === 'string' ? item.fromCompanyId : null,
  toCompanyId: typeof item.toCompanyId === 'string' ? item.toCompanyId : null,
  quantity: scaledFrom(item.quantity, QUANTITY_PLACES),
  value: scaledFrom(item.value, VALUE_PLACES),
  costMethod: item.costMethod === 'REPLACEMENT' ? 'REPLACEMENT' : 'WEIGHTED_AVERAGE',
  note: typeof item.note === 'string' ? item.note : null,
  batchId: typeof item.batchId === 'string' ? item.batchId : null,
  occurredAt: String(item.occurredAt),
  createdAt: String(item.createdAt),
  outMovementId: String(item.outMovementId),
  inMovementId: String(item.inMovementId),
  fromAfter: balanceOf(item.fromAfter),
  toAfter: balanceOf(item.toAfter),
});

/** A page of one list of transfers, newest first, within `[fromSk, toSk]`, after the entry `afterSk`. */
export async function readTransferPage(
  tenantId: string,
  request: { scope: { productId?: string | undefined; warehouseId?: string | undefined }; fromSk: string; toSk: string; limit: number; afterSk?: string },
): Promise<{ transfers: Transfer[]; nextSk?: string }> {
  const { items, nextSk } = await queryNewestFirst(keys.transfersOf(tenantId, request.scope).pk, request);
  return { transfers: items.map(toTransfer), ...(nextSk === undefined ? {} : { nextSk }) };
}
