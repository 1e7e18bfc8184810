import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { Principal } from '../auth/principal';
import { config } from '../config';
import { insertProduct, insertWarehouse, listProducts as readProducts, listWarehouses as readWarehouses, recordMovement, type BalanceRule } from '../db/repositories/inventory';
import { Conflict, ValidationError } from '../errors';
import { dayOf } from '../domain/days';
import { roundMoney, roundQuantity } from './rounding';
import type { IdempotentWrite } from '../idempotency/model';
import type { Balance, Movement, MovementType, Product, ProductInput, Warehouse, WarehouseInput } from './model';
import type { movementBody, MovementView, ProductView, WarehouseView } from './schemas';

/** The view's fields of a stored warehouse or product. */
const warehouseViewOf = ({ id, name, createdAt }: Warehouse): WarehouseView => ({ id, name, createdAt });
const productViewOf = ({ id, sku, name, createdAt }: Product): ProductView => ({ id, sku, name, createdAt });

export async function createWarehouse(principal: Principal, input: WarehouseInput, nowMs: number, idempotency?: IdempotentWrite): Promise<WarehouseView> {
  const warehouse: Warehouse = { id: randomUUID(), ...input, createdAt: new Date(nowMs).toISOString(), totalItems: 0, totalProducts: 0, totalValue: 0 };
  const view = warehouseViewOf(warehouse);
  await insertWarehouse(principal.tenantId, warehouse, idempotency && { write: idempotency, view });
  return view;
}

/** The tenant's warehouses by name. */
export async function listWarehouses(principal: Principal): Promise<WarehouseView[]> {
  return (await readWarehouses(principal.tenantId)).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR') || a.id.localeCompare(b.id)).map(warehouseViewOf);
}

export async function createProduct(principal: Principal, input: ProductInput, nowMs: number, idempotency?: IdempotentWrite): Promise<ProductView> {
  const product: Product = { id: randomUUID(), ...input, createdAt: new Date(nowMs).toISOString(), onHand: 0 };
  const view = productViewOf(product);
  await insertProduct(principal.tenantId, product, idempotency && { write: idempotency, view });
  return view;
}

/** The tenant's products by SKU. */
export async function listProducts(principal: Principal): Promise<ProductView[]> {
  return (await readProducts(principal.tenantId)).sort((a, b) => a.sku.localeCompare(b.sku)).map(productViewOf);
}

/**
 * How each movement type changes a balance (weighted average costing):
 * - IN adds units at `unitCost`; the average becomes total cost / quantity.
 * - OUT and SALE take units out at the current average; never below zero (409).
 * - ADJUSTMENT sets the counted quantity; added units are valued at `unitCost` when given,
 *   else at the current average; removed units leave at the average.
 */
export function balanceRule(type: MovementType, quantity: number, unitCost: number | undefined): BalanceRule {
  return (current: Balance): Balance => {
    const settle = (nextQuantity: number, nextCost: number): Balance => ({
      quantity: nextQuantity,
      totalCost: nextQuantity === 0 ? 0 : nextCost,
      averageCost: nextQuantity === 0 ? current.averageCost : nextCost / nextQuantity,
      version: current.version,
    });
    switch (type) {
      case 'IN':
        return settle(current.quantity + quantity, current.totalCost + quantity * (unitCost ?? 0));
      case 'OUT':
      case 'SALE':
        if (current.quantity < quantity) {
          throw new Conflict(`Not enough stock: ${roundQuantity(current.quantity)} on hand, ${quantity} requested`);
        }
        return settle(current.quantity - quantity, current.totalCost - quantity * current.averageCost);
      case 'ADJUSTMENT': {
        const added = quantity - current.quantity;
        const cost = added > 0 ? current.totalCost + added * (unitCost ?? current.averageCost) : quantity * current.averageCost;
        return settle(quantity, cost);
      }
    }
  };
}

/** Record a stock movement (see `recordMovement` for the one transaction it is). */
export async function addMovement(principal: Principal, input: z.output<typeof movementBody>, nowMs: number, idempotency?: IdempotentWrite): Promise<MovementView> {
  const occurredMs = input.occurredAt ? Date.parse(input.occurredAt) : nowMs;
  if (occurredMs > nowMs) throw ValidationError.of('occurredAt', 'must not be in the future');
  const movement: Movement = {
    id: randomUUID(),
    tenantId: principal.tenantId,
    productId: input.productId,
    warehouseId: input.warehouseId,
    type: input.type,
    quantity: input.quantity,
    unitCost: input.unitCost ?? null,
    occurredAt: new Date(occurredMs).toISOString(),
    createdAt: new Date(nowMs).toISOString(),
    day: dayOf(occurredMs, config().BUSINESS_TIME_ZONE),
  };
  const { tenantId: _tenant, day: _day, ...recorded } = movement;
  const viewOf = (balance: Balance): MovementView => ({ ...recorded, balance: { quantity: roundQuantity(balance.quantity), averageCost: roundMoney(balance.averageCost) } });
  const balance = await recordMovement(movement, balanceRule(input.type, input.quantity, input.unitCost), idempotency && { write: idempotency, view: viewOf });
  return viewOf(balance);
}
