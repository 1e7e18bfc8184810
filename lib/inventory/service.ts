import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { Principal } from '../auth/principal';
import { config } from '../config';
import { findProduct, findWarehouse, insertProduct, insertWarehouse, listProducts as readProducts, listWarehouses as readWarehouses, recordMovement, type BalanceRule } from '../db/repositories/inventory';
import { NotFound, ValidationError } from '../errors';
import { dayOf } from '../domain/days';
import { parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { applyMovement } from './costing';
import { moneyOf, quantityOf } from './rounding';
import type { IdempotentWrite } from '../idempotency/model';
import type { Balance, Movement, MovementType, Product, ProductInput, Warehouse, WarehouseInput } from './model';
import type { movementBody, MovementView, ProductView, WarehouseView } from './schemas';

/** The view's fields of a stored warehouse or product. */
const warehouseViewOf = ({ id, name, createdAt }: Warehouse): WarehouseView => ({ id, name, createdAt });
const productViewOf = ({ id, sku, name, createdAt }: Product): ProductView => ({ id, sku, name, createdAt });

export async function createWarehouse(principal: Principal, input: WarehouseInput, nowMs: number, idempotency?: IdempotentWrite): Promise<WarehouseView> {
  const warehouse: Warehouse = { id: randomUUID(), ...input, createdAt: new Date(nowMs).toISOString(), totalItems: 0n, totalProducts: 0, totalValue: 0n };
  const view = warehouseViewOf(warehouse);
  await insertWarehouse(principal.tenantId, warehouse, idempotency && { write: idempotency, view });
  return view;
}

/** One warehouse of the caller's tenant; 404 for an unknown id or another tenant's. */
export async function getWarehouse(principal: Principal, warehouseId: string): Promise<WarehouseView> {
  const warehouse = await findWarehouse(principal.tenantId, warehouseId);
  if (!warehouse) throw new NotFound('No such warehouse');
  return warehouseViewOf(warehouse);
}

/** The tenant's warehouses by name. */
export async function listWarehouses(principal: Principal): Promise<WarehouseView[]> {
  return (await readWarehouses(principal.tenantId)).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR') || a.id.localeCompare(b.id)).map(warehouseViewOf);
}

export async function createProduct(principal: Principal, input: ProductInput, nowMs: number, idempotency?: IdempotentWrite): Promise<ProductView> {
  const product: Product = { id: randomUUID(), ...input, createdAt: new Date(nowMs).toISOString(), onHand: 0n };
  const view = productViewOf(product);
  await insertProduct(principal.tenantId, product, idempotency && { write: idempotency, view });
  return view;
}

/** One product of the caller's tenant; 404 for an unknown id or another tenant's. */
export async function getProduct(principal: Principal, productId: string): Promise<ProductView> {
  const product = await findProduct(principal.tenantId, productId);
  if (!product) throw new NotFound('No such product');
  return productViewOf(product);
}

/** The tenant's products by SKU. */
export async function listProducts(principal: Principal): Promise<ProductView[]> {
  return (await readProducts(principal.tenantId)).sort((a, b) => a.sku.localeCompare(b.sku)).map(productViewOf);
}

/** A validated input number as an exact scaled integer (the schema allowed only these places). */
function exactly(value: number, places: number): bigint {
  const scaled = parseScaled(value, places);
  if (scaled === undefined) throw new Error(`${value} has more than ${places} decimal places`);
  return scaled;
}

/**
 * How a movement changes a balance: the exact weighted-average rule of ./costing
 * (quantities in thousandths, values in 10^-7, one rounding rule, half to even).
 */
export function balanceRule(type: MovementType, quantity: number, unitCost: number | undefined): BalanceRule {
  const movement = { type, quantity: exactly(quantity, QUANTITY_PLACES), ...(unitCost === undefined ? {} : { unitCost: exactly(unitCost, UNIT_COST_PLACES) }) };
  return (current: Balance): Balance => {
    const next = applyMovement({ quantity: current.quantity, value: current.totalCost, averageCost: current.averageCost }, movement);
    return { quantity: next.quantity, totalCost: next.value, averageCost: next.averageCost, version: current.version };
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
  const viewOf = (balance: Balance): MovementView => ({ ...recorded, balance: { quantity: quantityOf(balance.quantity), averageCost: moneyOf(balance.averageCost, UNIT_COST_PLACES) } });
  const balance = await recordMovement(movement, balanceRule(input.type, input.quantity, input.unitCost), idempotency && { write: idempotency, view: viewOf });
  return viewOf(balance);
}
