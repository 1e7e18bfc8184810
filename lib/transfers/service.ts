import { randomUUID } from 'node:crypto';
import { auditRecord } from '../audit/record';
import type { Caller } from '../auth/principal';
import { config } from '../config';
import { cursorRefused } from '../domain/cursor';
import { dayOf } from '../domain/days';
import { parseScaled, QUANTITY_PLACES, scaledToNumber, UNIT_COST_PLACES } from '../domain/decimal';
import { ValidationError } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { quantityFitsUnit, type Movement } from '../inventory/model';
import { historyRange } from '../inventory/service';
import { openPageCursor, sealPageCursor } from '../pages';
import type { Transfer } from './model';
import { readTransferPage, recordTransfer } from './repository';
import { createTransferBatch } from './batch-service';
import { transferViewOf } from './views';
import type { ListTransfersInput, TransferBatchView, TransferBody, TransferView } from './schemas';

/**
 * Transfers between warehouses: one transaction moves the units and their value (./repository),
 * audited as `transfer.created` with a `stock_transfer.created` event; a list of them, newest
 * first, by product and/or warehouse.
 */

/** POST /inventory/transfers: one product (`productId` and `quantity`), or several (`items`) all or none. */
export async function createTransfers(
  principal: Caller,
  input: TransferBody,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<TransferView | TransferBatchView> {
  const { items, productId, quantity, ...place } = input;
  if (items) return createTransferBatch(principal, { ...place, items }, nowMs, idempotency);
  // The body's schema admits exactly one of the two shapes.
  if (productId === undefined || quantity === undefined) throw ValidationError.of('items', 'give productId and quantity, or items');
  return createTransfer(principal, { ...place, productId, quantity }, nowMs, idempotency);
}

type SingleTransfer = Omit<TransferBody, 'items' | 'productId' | 'quantity'> & { productId: string; quantity: number };

/** Move `quantity` of a product between two warehouses of the tenant: 201, 409 not enough stock, 404 product or warehouse, 400 a fraction of a whole unit. */
export async function createTransfer(principal: Caller, input: SingleTransfer, nowMs: number, idempotency?: IdempotentWrite): Promise<TransferView> {
  const occurredMs = input.occurredAt ? Date.parse(input.occurredAt) : nowMs;
  if (occurredMs > nowMs) throw ValidationError.of('occurredAt', 'must not be in the future');
  const quantity = parseScaled(input.quantity, QUANTITY_PLACES);
  if (quantity === undefined) throw ValidationError.of('quantity', `must have at most ${QUANTITY_PLACES} decimal places`);
  const id = randomUUID();
  const occurredAt = new Date(occurredMs).toISOString();
  const createdAt = new Date(nowMs).toISOString();
  const day = dayOf(occurredMs, config().BUSINESS_TIME_ZONE);
  const audit = auditRecord(
    {
      scope: { tenantId: principal.tenantId },
      action: 'transfer.created',
      resource: { type: 'transfer', id },
      eventFields: { productId: input.productId, fromWarehouseId: input.fromWarehouseId, toWarehouseId: input.toWarehouseId, quantity: input.quantity },
    },
    nowMs,
  );
  const transfer = await recordTransfer(
    principal.tenantId,
    { productId: input.productId, fromWarehouseId: input.fromWarehouseId, toWarehouseId: input.toWarehouseId, quantity },
    {
      admit: (product) => {
        if (!quantityFitsUnit(quantity, product.unit)) {
          throw ValidationError.of('quantity', `must be a whole number: the product is counted in ${product.unit}, which takes no fractions`);
        }
      },
      build: ({ value, costMethod, fromCompanyId, toCompanyId, fromAfter, toAfter }) => {
        const side = (type: 'TRANSFER_OUT' | 'TRANSFER_IN', warehouseId: string, counterpartWarehouseId: string): Movement => ({
          id: randomUUID(),
          tenantId: principal.tenantId,
          productId: input.productId,
          warehouseId,
          type,
          quantity: input.quantity,
          // What a TRANSFER_IN carries as its destination's last cost: the source's (10^-4 per unit).
          unitCost: type === 'TRANSFER_IN' && fromAfter.lastCost > 0n ? scaledToNumber(fromAfter.lastCost, UNIT_COST_PLACES) : null,
          transferId: id,
          counterpartWarehouseId,
          occurredAt,
          createdAt,
          day,
        });
        const out = side('TRANSFER_OUT', input.fromWarehouseId, input.toWarehouseId);
        const into = side('TRANSFER_IN', input.toWarehouseId, input.fromWarehouseId);
        const transfer: Transfer = {
          id,
          productId: input.productId,
          fromWarehouseId: input.fromWarehouseId,
          toWarehouseId: input.toWarehouseId,
          fromCompanyId,
          toCompanyId,
          quantity,
          value,
          costMethod,
          note: input.note ?? null,
          batchId: null,
          occurredAt,
          createdAt,
          outMovementId: out.id,
          inMovementId: into.id,
          fromAfter: { quantity: fromAfter.quantity, averageCost: fromAfter.averageCost, lastCost: fromAfter.lastCost },
          toAfter: { quantity: toAfter.quantity, averageCost: toAfter.averageCost, lastCost: toAfter.lastCost },
        };
        return { transfer, out, in: into };
      },
    },
    audit,
    idempotency && { write: idempotency, view: transferViewOf },
  );
  return transferViewOf(transfer);
}

/** A page of the tenant's transfers, newest first: one Query of the list of exactly the filters given. */
export async function listTransfers(principal: Caller, input: ListTransfersInput): Promise<{ items: TransferView[]; nextCursor: string | null }> {
  const { first, last } = historyRange(input);
  const scope = { productId: input.productId, warehouseId: input.warehouseId };
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'transfers', ...scope, from: input.from, to: input.to } };
  const position = await openPageCursor(input.cursor, cursorScope);
  const after = position?.sk;
  if (position && !after) throw cursorRefused();
  const { transfers, nextSk } =
    first > last
      ? { transfers: [] }
      : await readTransferPage(principal.tenantId, {
          scope,
          fromSk: new Date(first).toISOString(),
          toSk: `${new Date(last).toISOString()}#~`,
          limit: input.limit,
          ...(after ? { afterSk: after } : {}),
        });
  return { items: transfers.map(transferViewOf), nextCursor: await sealPageCursor(nextSk === undefined ? undefined : { sk: nextSk }, cursorScope) };
}
