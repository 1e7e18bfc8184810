import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import { auditRecord } from '../audit/record';
import { callerId, type Caller } from '../auth/principal';
import { config } from '../config';
import { countMovement } from '../metrics';
import {
  findProduct,
  findWarehouse,
  insertProduct,
  insertWarehouse,
  listProductPage,
  listWarehousePage,
  productListingOf,
  productSearchSource,
  readHistoryPage,
  recordMovement,
  type BalanceRule,
  type StockLowRule,
} from './repository';
import { searchList } from '../search/engine';
import { consumeLimit, type ScopedLimit } from '../rate-limit';
import { searchQuery } from '../search/query';
import type { ListProductsInput } from './queries';
import type { SearchRecord } from '../search/model';
import { keyOrderedPage, openPageCursor, sealPageCursor, type Page, type PageRequest } from '../pages';
import { NotFound, ValidationError } from '../errors';
import { cursorRefused } from '../domain/cursor';
import { addDays, dayOf, dayStartMs, isDay } from '../domain/days';
import { parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { applyMovement } from './costing';
import { stockLowEvent } from './stock-low';
import { moneyOf, quantityOf } from './rounding';
import type { IdempotentWrite } from '../idempotency/model';
import type { Balance, Movement, MovementType, Product, ProductInput, Warehouse, WarehouseInput } from './model';
import {
  OCCURRED_AT_FLOOR_MS,
  type movementBody,
  type MovementHistoryInput,
  type MovementHistoryPage,
  type MovementView,
  type ProductView,
  type WarehouseView,
} from './schemas';

/** The view's fields of a stored warehouse or product. */
const warehouseViewOf = ({ id, name, createdAt }: Warehouse): WarehouseView => ({ id, name, createdAt });
const productViewOf = ({ id, sku, name, createdAt }: Product): ProductView => ({ id, sku, name, createdAt });

export async function createWarehouse(principal: Caller, input: WarehouseInput, nowMs: number, idempotency?: IdempotentWrite): Promise<WarehouseView> {
  const warehouse: Warehouse = { id: randomUUID(), ...input, createdAt: new Date(nowMs).toISOString(), totalItems: 0n, totalProducts: 0, totalValue: 0n };
  const view = warehouseViewOf(warehouse);
  const audit = auditRecord({ scope: { tenantId: principal.tenantId }, action: 'warehouse.created', resource: { type: 'warehouse', id: warehouse.id } }, nowMs);
  await insertWarehouse(principal.tenantId, warehouse, audit, idempotency && { write: idempotency, view });
  return view;
}

/** One warehouse of the caller's tenant; 404 for an unknown id or another tenant's. */
export async function getWarehouse(principal: Caller, warehouseId: string): Promise<WarehouseView> {
  const warehouse = await findWarehouse(principal.tenantId, warehouseId);
  if (!warehouse) throw new NotFound('No such warehouse');
  return warehouseViewOf(warehouse);
}

/** A page of the tenant's warehouses by name (case- and accent-insensitive), one Query. */
export async function listWarehouses(principal: Caller, page: PageRequest): Promise<Page<WarehouseView>> {
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'warehouses' } }, page, (at) => listWarehousePage(principal.tenantId, at));
}

export async function createProduct(
  principal: Pick<Caller, 'tenantId'>,
  input: ProductInput,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<ProductView> {
  const product: Product = { id: randomUUID(), ...input, createdAt: new Date(nowMs).toISOString(), onHand: 0n };
  const view = productViewOf(product);
  const audit = auditRecord(
    { scope: { tenantId: principal.tenantId }, action: 'product.created', resource: { type: 'product', id: product.id }, eventFields: { sku: product.sku } },
    nowMs,
  );
  await insertProduct(principal.tenantId, product, audit, idempotency && { write: idempotency, view });
  return view;
}

/** One product of the caller's tenant; 404 for an unknown id or another tenant's. */
export async function getProduct(principal: Caller, productId: string): Promise<ProductView> {
  const product = await findProduct(principal.tenantId, productId);
  if (!product) throw new NotFound('No such product');
  return productViewOf(product);
}

/**
 * A page of the tenant's products by SKU (code-point order): one Query of the SKU sentinels,
 * or, with a `search`, the products whose SKU or name holds it (case- and
 * accent-insensitive), from the in-memory search (lib/search/engine). Each user's searches
 * are limited (`searches`: the manifest's; undefined for the benchmarks).
 */
export async function listProducts(principal: Caller, query: ListProductsInput, nowMs: number, searches: ScopedLimit | undefined): Promise<Page<ProductView>> {
  const search = query.search === undefined ? undefined : searchQuery(query.search);
  if (search && searches) await consumeLimit(searches, { ip: '', userId: callerId(principal) }, nowMs);
  if (!search) return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'products' } }, query, (at) => listProductPage(principal.tenantId, at));
  // The same order and pages, from the in-memory search; a cursor is bound to its search.
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'products', search: search.text } }, query, async ({ limit, afterSk }) => {
    const { records } = await searchList(productSearchSource, principal.tenantId, search, {
      limit: limit + 1,
      ...(afterSk === undefined ? {} : { afterKey: afterSk }),
    });
    const items = records.slice(0, limit).map(productListingOf);
    return { items, ...(records.length > limit ? { lastSk: (records[limit - 1] as SearchRecord).key } : {}) };
  });
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

/** A movement as the API shows it, with the balance it left (quantity and average unit cost). */
function movementViewOf(movement: Movement, after: Pick<Balance, 'quantity' | 'averageCost'>): MovementView {
  const { tenantId: _tenant, day: _day, ...recorded } = movement;
  return { ...recorded, balance: { quantity: quantityOf(after.quantity), averageCost: moneyOf(after.averageCost, UNIT_COST_PLACES) } };
}

/**
 * Record a stock movement (see `recordMovement` for the one transaction it is), with the
 * product's `product.stock_low` event when it takes the product's coverage below the
 * tenant's threshold (./stock-low), at the instant of the movement's entry.
 */
export async function addMovement(
  principal: Caller,
  input: z.output<typeof movementBody>,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<MovementView> {
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
  const viewOf = (balance: Balance): MovementView => movementViewOf(movement, balance);
  const audit = auditRecord(
    {
      scope: { tenantId: principal.tenantId },
      action: 'movement.created',
      resource: { type: 'movement', id: movement.id },
      eventFields: { productId: movement.productId, warehouseId: movement.warehouseId, type: movement.type },
    },
    nowMs,
  );
  const stockLow: StockLowRule = (product, reading) =>
    stockLowEvent({ tenantId: principal.tenantId, id: product.id, sku: product.sku }, movement.warehouseId, reading, audit.entry.occurredAt);
  const balance = await recordMovement(
    movement,
    balanceRule(input.type, input.quantity, input.unitCost),
    audit,
    idempotency && { write: idempotency, view: viewOf },
    stockLow,
  );
  countMovement(movement.type);
  return viewOf(balance);
}

/** The latest instant a history bound can name (a later one sorts wrong as text: `+010000-…`). */
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A `from` bound as epoch ms: a business day's first instant, or the date-time. */
const fromMs = (bound: string, timeZone: string): number => (isDay(bound) ? dayStartMs(bound, timeZone) : Date.parse(bound));
/** A `to` bound as epoch ms: a business day's last instant, or the date-time. */
const toMs = (bound: string, timeZone: string): number =>
  isDay(bound) ? (bound === '9999-12-31' ? LAST_MS : dayStartMs(addDays(bound, 1), timeZone) - 1) : Date.parse(bound);

/**
 * A page of the stock history (kardex), newest first: one Query on the list of exactly the
 * filters given (lib/db/keys `history`). The cursor is sealed for the tenant and the filters;
 * one from another list or tenant, or edited, is a 400.
 */
export async function listMovementHistory(principal: Caller, input: MovementHistoryInput): Promise<MovementHistoryPage> {
  const { BUSINESS_TIME_ZONE } = config();
  const first = Math.max(input.from ? fromMs(input.from, BUSINESS_TIME_ZONE) : OCCURRED_AT_FLOOR_MS, OCCURRED_AT_FLOOR_MS);
  const last = Math.min(input.to ? toMs(input.to, BUSINESS_TIME_ZONE) : LAST_MS, LAST_MS);
  if (input.from && input.to && fromMs(input.from, BUSINESS_TIME_ZONE) > last) throw ValidationError.of('to', 'must not be before from');

  const scope = { productId: input.productId, warehouseId: input.warehouseId, type: input.type };
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'movements', ...scope, from: input.from, to: input.to } };
  const position = await openPageCursor(input.cursor, cursorScope);
  const after = position?.sk;
  if (position && !after) throw cursorRefused();

  const { movements, nextSk } =
    first > last
      ? { movements: [] }
      : await readHistoryPage(principal.tenantId, {
          scope,
          // `occurredAt#id`: the instant alone sorts before every entry at it; `~` after every id.
          fromSk: new Date(first).toISOString(),
          toSk: `${new Date(last).toISOString()}#~`,
          limit: input.limit,
          ...(after ? { afterSk: after } : {}),
        });
  return {
    items: movements.map(({ movementType, balanceAfter, averageCostAfter, ...movement }) =>
      movementViewOf({ ...movement, type: movementType }, { quantity: balanceAfter, averageCost: averageCostAfter }),
    ),
    nextCursor: await sealPageCursor(nextSk === undefined ? undefined : { sk: nextSk }, cursorScope),
  };
}
