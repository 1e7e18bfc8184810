import { UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { moneyOf, quantityOf } from '../inventory/rounding';
import type { Transfer, TransferBatch } from './model';
import type { TransferBatchView, TransferView } from './schemas';

/** What the API shows of transfers: quantities to 3 decimals, values in cents, costs to 4 places. */

const balanceView = (balance: Transfer['fromAfter']) => ({
  quantity: quantityOf(balance.quantity),
  averageCost: moneyOf(balance.averageCost, UNIT_COST_PLACES),
  lastCost: moneyOf(balance.lastCost, UNIT_COST_PLACES),
});

export const transferViewOf = (transfer: Transfer): TransferView => ({
  id: transfer.id,
  productId: transfer.productId,
  fromWarehouseId: transfer.fromWarehouseId,
  toWarehouseId: transfer.toWarehouseId,
  fromCompanyId: transfer.fromCompanyId,
  toCompanyId: transfer.toCompanyId,
  quantity: quantityOf(transfer.quantity),
  value: moneyOf(transfer.value, VALUE_PLACES),
  costMethod: transfer.costMethod,
  note: transfer.note,
  occurredAt: transfer.occurredAt,
  createdAt: transfer.createdAt,
  batchId: transfer.batchId,
  from: { movementId: transfer.outMovementId, balance: balanceView(transfer.fromAfter) },
  to: { movementId: transfer.inMovementId, balance: balanceView(transfer.toAfter) },
});

/**
 * A transfer of several products once every line arrived (the only state the API answers with:
 * a request returns when its lines arrived, or fails and they arrive in the background). Its
 * value is the lines' exact values summed, rounded once.
 */
export function transferBatchViewOf(batch: TransferBatch): TransferBatchView {
  const items = batch.lines.map((line) => {
    if (line.toAfter === null) throw new Error(`Transfer ${batch.id} is still in transit: its view is of its arrival`);
    return transferViewOf({ ...line, toAfter: line.toAfter });
  });
  return {
    id: batch.id,
    status: batch.status,
    fromWarehouseId: batch.fromWarehouseId,
    toWarehouseId: batch.toWarehouseId,
    fromCompanyId: batch.fromCompanyId,
    toCompanyId: batch.toCompanyId,
    costMethod: batch.costMethod,
    value: moneyOf(
      batch.lines.reduce((sum, line) => sum + line.value, 0n),
      VALUE_PLACES,
    ),
    note: batch.note,
    occurredAt: batch.occurredAt,
    createdAt: batch.createdAt,
    completedAt: batch.completedAt,
    items,
  };
}
