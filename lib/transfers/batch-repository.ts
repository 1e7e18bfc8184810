import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { auditItems } from '../audit/repository';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { TRANSFER_ITEMS } from '../db/item-types';
import { keys } from '../db/keys';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { QUANTITY_PLACES, scaledToNumber, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { Conflict, NotFound, ValidationError } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { completionItem, keyTakenOver } from '../idempotency/repository';
import { applyMovement, lastCostAfter, transferOut } from '../inventory/costing';
import { coverageStateOf, coverageVersionCondition } from '../inventory/coverage-repository';
import { HALTED_COMPANY_STATUSES, type Balance, type Movement, type Product } from '../inventory/model';
import { toProduct } from '../inventory/product-repository';
import { assertPlaceExists, balancePut, historyEntries, toBalance, warehouseRefusal, warehouseTotalsOfChanges } from '../inventory/repository';
import { ARRIVAL_LINES_PER_TRANSACTION, type Transfer, type TransferBatch, type TransferLine } from './model';
import { balanceAttributes, balanceOf, costMethodOf, exactBalance, transferEntries, withTransferValue } from './repository';

/**
 * A transfer of several products (./model `TransferBatch`): its departure in one transaction,
 * its arrival in bounded ones, and what lib/integrity reads of those still in transit.
 */

/** DynamoDB's limit on the items of one transaction. */
const MAX_TRANSACTION_ITEMS = 100;

/** What the caller decides once the products are read: whether each takes its quantity, and the batch's lines. */
export interface BatchPlan {
  /** Throws for a quantity the product does not take (a fraction of a whole unit); `index` is the line's. */
  admit: (product: Product, index: number) => void;
  /** The batch, from what the source gave for each line (its value, and the balance it left). */
  build: (departed: {
    costMethod: TransferBatch['costMethod'];
    fromCompanyId: string | null;
    toCompanyId: string | null;
    lines: { value: bigint; fromAfter: Balance }[];
  }) => TransferBatch;
}

/** What a departure needs to know of each line: its product and quantity (thousandths). */
export interface DepartingLine {
  productId: string;
  quantity: bigint;
}

/**
 * The departure, in ONE transaction: each source balance down (conditioned on its version), the
 * source's totals (conditioned on its company not being halted), the destination checked the
 * same way, each product with a fraction checked as read (its unit admitted the fraction), the
 * batch and its in-transit entry (conditioned on not existing: a batch id is made from the
 * Idempotency-Key when there is one, so a retry whose first request died finds its batch), the
 * audit entry and its event. One product short refuses all (409, nothing written). A batch
 * already there is returned as it is, for the caller to carry on with.
 */
export async function departBatch(
  tenantId: string,
  place: { batchId: string; fromWarehouseId: string; toWarehouseId: string; lines: readonly DepartingLine[] },
  plan: BatchPlan,
  audit: AuditRecord,
): Promise<TransferBatch> {
  const { batchId, fromWarehouseId, toWarehouseId, lines } = place;
  return withOptimisticRetries<TransferBatch>(async () => {
    const read = await getMany([
      keys.transferBatch(tenantId, batchId),
      keys.warehouse(tenantId, fromWarehouseId),
      keys.warehouse(tenantId, toWarehouseId),
      ...lines.map((line) => keys.product(tenantId, line.productId)),
      ...lines.map((line) => keys.stock(tenantId, line.productId, fromWarehouseId)),
    ]);
    const [existing, fromWarehouse, toWarehouse] = read;
    if (existing) return { retry: false, value: toBatch(existing) };
    if (!fromWarehouse) throw new NotFound('No such warehouse (fromWarehouseId)');
    if (!toWarehouse) throw new NotFound('No such warehouse (toWarehouseId)');
    const productItems = read.slice(3, 3 + lines.length);
    const sourceItems = read.slice(3 + lines.length);
    const products = productItems.map((item, index) => {
      if (!item) throw new NotFound(`No such product (items[${index}].productId)`);
      const product = toProduct(item);
      plan.admit(product, index);
      return product;
    });
    const fromCompanyId = typeof fromWarehouse.companyId === 'string' ? fromWarehouse.companyId : null;
    const toCompanyId = typeof toWarehouse.companyId === 'string' ? toWarehouse.companyId : null;
    const [company] = fromCompanyId === null ? [undefined] : await getMany([keys.company(tenantId, fromCompanyId)]);
    const costMethod = costMethodOf(company);

    const sources = sourceItems.map(toBalance);
    const departed: { value: bigint; fromAfter: Balance }[] = [];
    for (const [index, line] of lines.entries()) {
      const source = sources[index] as Balance;
      try {
        const moved = transferOut(exactBalance(source), line.quantity, costMethod);
        departed.push({
          value: moved.value,
          fromAfter: {
            quantity: moved.after.quantity,
            totalCost: moved.after.value,
            averageCost: moved.after.averageCost,
            lastCost: source.lastCost,
            version: source.version + 1,
          },
        });
      } catch (error) {
        if (source.version === 0) await assertPlaceExists({ tenantId, productId: line.productId, warehouseId: fromWarehouseId });
        throw error instanceof Conflict ? new Conflict(`items[${index}] (product ${line.productId}): ${error.message}`) : error;
      }
    }
    const batch = plan.build({ costMethod, fromCompanyId, toCompanyId, lines: departed });

    const productChecks = lines.flatMap((line, index) => {
      // A whole quantity fits every unit; a fraction was admitted by the unit read, which must still be the product's.
      if (line.quantity % 1000n === 0n) return [];
      const { condition, values } = coverageVersionCondition(coverageStateOf(productItems[index] as Record<string, unknown>).version);
      return [
        {
          ConditionCheck: {
            TableName: tableName(),
            Key: keys.product(tenantId, (products[index] as Product).id),
            ConditionExpression: `attribute_exists(pk) AND ${condition}`,
            ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
          },
        } satisfies TransactItem,
      ];
    });
    const changes = lines.map((_, index) => ({ current: sources[index] as Balance, next: (departed[index] as { fromAfter: Balance }).fromAfter }));
    const items: TransactItem[] = [
      ...lines.map((line, index) => balancePut(tenantId, line.productId, fromWarehouseId, changes[index]!.current, changes[index]!.next)),
      warehouseTotalsOfChanges(tenantId, fromWarehouseId, changes),
      {
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.warehouse(tenantId, toWarehouseId),
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(companyStatus) OR NOT companyStatus IN (:blocked, :suspended))',
          ExpressionAttributeValues: { ':blocked': HALTED_COMPANY_STATUSES[0], ':suspended': HALTED_COMPANY_STATUSES[1] },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: batchItem(tenantId, batch),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.transferInTransit(tenantId, batch.id), type: TRANSFER_ITEMS.inTransit, id: batch.id, createdAt: batch.createdAt },
        },
      },
      ...productChecks,
      ...auditItems(audit),
    ];
    if (items.length > MAX_TRANSACTION_ITEMS) {
      throw ValidationError.of('items', `too many lines with a fraction of a unit to move at once (${productChecks.length}): split the transfer`);
    }
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: batch };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[lines.length] === 'ConditionalCheckFailed') throw await warehouseRefusal(tenantId, fromWarehouseId);
      if (codes[lines.length + 1] === 'ConditionalCheckFailed') throw await warehouseRefusal(tenantId, toWarehouseId);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/** The batch, or undefined. */
export async function findBatch(tenantId: string, batchId: string): Promise<TransferBatch | undefined> {
  const [item] = await getMany([keys.transferBatch(tenantId, batchId)]);
  return item ? toBatch(item) : undefined;
}

/** A line's two movements: TRANSFER_OUT at the source, TRANSFER_IN at the destination, each naming the other warehouse. */
export function movementsOf(tenantId: string, batch: TransferBatch, line: TransferLine): { out: Movement; in: Movement } {
  const side = (type: 'TRANSFER_OUT' | 'TRANSFER_IN', id: string, warehouseId: string, counterpartWarehouseId: string): Movement => ({
    id,
    tenantId,
    productId: line.productId,
    warehouseId,
    type,
    quantity: scaledToNumber(line.quantity, QUANTITY_PLACES),
    // What a TRANSFER_IN carries as its destination's last cost: the source's.
    unitCost: type === 'TRANSFER_IN' && line.fromAfter.lastCost > 0n ? scaledToNumber(line.fromAfter.lastCost, UNIT_COST_PLACES) : null,
    transferId: line.id,
    counterpartWarehouseId,
    occurredAt: batch.occurredAt,
    createdAt: batch.createdAt,
    day: batch.day,
  });
  return {
    out: side('TRANSFER_OUT', line.outMovementId, batch.fromWarehouseId, batch.toWarehouseId),
    in: side('TRANSFER_IN', line.inMovementId, batch.toWarehouseId, batch.fromWarehouseId),
  };
}

/**
 * The next lines to arrive, in ONE transaction (ARRIVAL_LINES_PER_TRANSACTION of them, 23 items
 * each): per line the source's TRANSFER_OUT history (the balance it left at departure), the
 * destination's balance up (conditioned on its version) and its TRANSFER_IN history, and the
 * line's entries in the lists of transfers; the destination's totals (not conditioned on its
 * company's status: the units left when the transfer was admitted); the batch's `arrived`
 * (conditioned on the value read, so two runners never apply a line twice), and with the last
 * lines its status COMPLETED, its in-transit entry removed and the key's completion. Returns the
 * batch as it is after, re-read when another runner moved it first.
 */
export async function arriveNext(
  tenantId: string,
  batchId: string,
  completion?: { write: IdempotentWrite; view: (batch: TransferBatch) => unknown },
  nowIso?: string,
): Promise<TransferBatch> {
  return withOptimisticRetries<TransferBatch>(async () => {
    const batch = await findBatch(tenantId, batchId);
    if (!batch) throw new NotFound('No such transfer');
    if (batch.status === 'COMPLETED') return { retry: false, value: batch };
    const arriving = batch.lines.slice(batch.arrived, batch.arrived + ARRIVAL_LINES_PER_TRANSACTION);
    const destinations = (await getMany(arriving.map((line) => keys.stock(tenantId, line.productId, batch.toWarehouseId)))).map(toBalance);
    const items: TransactItem[] = [];
    const changes: { current: Balance; next: Balance }[] = [];
    const lines = [...batch.lines];
    arriving.forEach((line, offset) => {
      const destination = destinations[offset] as Balance;
      const carried = line.fromAfter.lastCost > 0n ? line.fromAfter.lastCost : undefined;
      const landing = { type: 'TRANSFER_IN' as const, quantity: line.quantity, value: line.value, ...(carried === undefined ? {} : { unitCost: carried }) };
      const landed = applyMovement(exactBalance(destination), landing);
      const toAfter: Balance = {
        quantity: landed.quantity,
        totalCost: landed.value,
        averageCost: landed.averageCost,
        lastCost: lastCostAfter(destination.lastCost, landing),
        version: destination.version + 1,
      };
      const fromAfter: Balance = { ...line.fromAfter, totalCost: 0n, version: 0 };
      const transfer: Transfer = { ...line, toAfter: { quantity: toAfter.quantity, averageCost: toAfter.averageCost, lastCost: toAfter.lastCost } };
      const { out, in: into } = movementsOf(tenantId, batch, line);
      lines[batch.arrived + offset] = transfer;
      changes.push({ current: destination, next: toAfter });
      items.push(
        ...historyEntries(out, fromAfter),
        balancePut(tenantId, line.productId, batch.toWarehouseId, destination, toAfter),
        ...historyEntries(into, toAfter).map((entry) => withTransferValue(entry, line.value)),
        ...transferEntries(tenantId, transfer),
      );
    });
    const arrived = batch.arrived + arriving.length;
    const last = arrived === batch.lines.length;
    items.push(warehouseTotalsOfChanges(tenantId, batch.toWarehouseId, changes, { whateverItsCompany: true }));
    const after: TransferBatch = {
      ...batch,
      arrived,
      lines,
      ...(last ? { status: 'COMPLETED' as const, completedAt: nowIso ?? new Date().toISOString() } : {}),
    };
    items.push({
      Put: {
        TableName: tableName(),
        Item: batchItem(tenantId, after),
        ConditionExpression: 'arrived = :arrived',
        ExpressionAttributeValues: { ':arrived': batch.arrived },
      },
    });
    let keyIndex = -1;
    if (last) {
      items.push({ Delete: { TableName: tableName(), Key: keys.transferInTransit(tenantId, batch.id) } });
      if (completion) {
        keyIndex = items.length;
        items.push(completionItem(completion.write, completion.view(after)));
      }
    }
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: after };
    } catch (error) {
      if (keyIndex >= 0) keyTakenOver(error, keyIndex);
      const codes = cancellationCodes(error);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/** The tenant's transfers of several products still in transit (lib/integrity: their units are still on hand). */
export async function readBatchesInTransit(tenantId: string): Promise<TransferBatch[]> {
  const ids: string[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.transfersInTransitOf(tenantId).pk },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) ids.push(String(item.sk));
    start = page.LastEvaluatedKey;
  } while (start);
  const found = await getMany(ids.map((id) => keys.transferBatch(tenantId, id)));
  return found.flatMap((item) => (item ? [toBatch(item)] : []));
}

const lineAttributes = (line: TransferLine) => ({
  id: line.id,
  productId: line.productId,
  quantity: storedDecimal(line.quantity, QUANTITY_PLACES),
  value: storedDecimal(line.value, VALUE_PLACES),
  outMovementId: line.outMovementId,
  inMovementId: line.inMovementId,
  fromAfter: balanceAttributes(line.fromAfter),
  ...(line.toAfter === null ? {} : { toAfter: balanceAttributes(line.toAfter) }),
});

function batchItem(tenantId: string, batch: TransferBatch): Record<string, unknown> {
  const { lines, fromCompanyId, toCompanyId, note, completedAt, ...fields } = batch;
  return {
    ...keys.transferBatch(tenantId, batch.id),
    type: TRANSFER_ITEMS.batch,
    ...fields,
    ...(fromCompanyId === null ? {} : { fromCompanyId }),
    ...(toCompanyId === null ? {} : { toCompanyId }),
    ...(note === null ? {} : { note }),
    ...(completedAt === null ? {} : { completedAt }),
    lines: lines.map(lineAttributes),
  };
}

export function toBatch(item: Record<string, unknown>): TransferBatch {
  const batch = {
    id: String(item.id),
    fromWarehouseId: String(item.fromWarehouseId),
    toWarehouseId: String(item.toWarehouseId),
    fromCompanyId: typeof item.fromCompanyId === 'string' ? item.fromCompanyId : null,
    toCompanyId: typeof item.toCompanyId === 'string' ? item.toCompanyId : null,
    costMethod: item.costMethod === 'REPLACEMENT' ? ('REPLACEMENT' as const) : ('WEIGHTED_AVERAGE' as const),
    note: typeof item.note === 'string' ? item.note : null,
    occurredAt: String(item.occurredAt),
    createdAt: String(item.createdAt),
    day: String(item.day),
    status: item.status === 'COMPLETED' ? ('COMPLETED' as const) : ('IN_TRANSIT' as const),
    arrived: Number(item.arrived ?? 0),
    completedAt: typeof item.completedAt === 'string' ? item.completedAt : null,
  };
  const lines = ((item.lines ?? []) as Record<string, unknown>[]).map((line): TransferLine => ({
    id: String(line.id),
    productId: String(line.productId),
    fromWarehouseId: batch.fromWarehouseId,
    toWarehouseId: batch.toWarehouseId,
    fromCompanyId: batch.fromCompanyId,
    toCompanyId: batch.toCompanyId,
    quantity: scaledFrom(line.quantity, QUANTITY_PLACES),
    value: scaledFrom(line.value, VALUE_PLACES),
    costMethod: batch.costMethod,
    note: batch.note,
    batchId: batch.id,
    occurredAt: batch.occurredAt,
    createdAt: batch.createdAt,
    outMovementId: String(line.outMovementId),
    inMovementId: String(line.inMovementId),
    fromAfter: balanceOf(line.fromAfter),
    toAfter: line.toAfter === undefined ? null : balanceOf(line.toAfter),
  }));
  return { ...batch, lines };
}
