import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import { auditRecord } from '../audit/record';
import { callerId, type Caller } from '../auth/principal';
import { config } from '../config';
import { countMovement } from '../metrics';
import { findWarehouse, insertWarehouse, listWarehousePage, readHistoryPage, recordMovement, type BalanceRule, type StockLowRule } from './repository';
import {
  findProduct,
  findProductByGtin,
  insertProduct,
  listProductPage,
  modifyProduct,
  productSearchRecord,
  productSearchSource,
  readProductListings,
  removeProduct,
  searchRecordListing,
  searchRecordFilters,
  type ProductListing,
} from './product-repository';
import { searchList } from '../search/engine';
import { consumeLimit, type ScopedLimit } from '../rate-limit';
import { searchQuery } from '../search/query';
import type { ListProductsInput } from './queries';
import { FIELD_SEPARATOR, type SearchQuery, type SearchRecord } from '../search/model';
import { keyOrderedPage, openPageCursor, sealPageCursor, type Page, type PageRequest } from '../pages';
import { Conflict, NotFound, ValidationError } from '../errors';
import { cursorRefused } from '../domain/cursor';
import { matchedVersions, requireMatch, versionEtag } from '../domain/etag';
import { addDays, dayOf, dayStartMs, isDay } from '../domain/days';
import { formatScaled, MONEY_PLACES, parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { applyMovement, lastCostAfter } from './costing';
import { getCompany, oldestActiveCompany } from '../companies/repository';
import { stockLowEvent } from './stock-low';
import { moneyOf, quantityOf } from './rounding';
import type { IdempotentWrite } from '../idempotency/model';
import {
  DEFAULT_UNIT,
  PRODUCT_MASTER_FIELDS,
  quantityFitsUnit,
  REFUSED_WHEN_INACTIVE,
  type Balance,
  type Movement,
  type MovementType,
  type Product,
  type ProductInput,
  type Warehouse,
  type WarehouseInput,
} from './model';
import { changesOf } from '../audit/record';
import {
  OCCURRED_AT_FLOOR_MS,
  type movementBody,
  type MovementHistoryInput,
  type MovementHistoryPage,
  type MovementView,
  type ProductView,
  type UpdateProductBody,
  type WarehouseView,
} from './schemas';

/** The view's fields of a stored warehouse or product (the price in currency, to the cent, from the exact cents). */
const warehouseViewOf = ({ id, name, createdAt, companyId }: Pick<Warehouse, 'id' | 'name' | 'createdAt' | 'companyId'>): WarehouseView => ({
  id,
  name,
  companyId,
  createdAt,
});
export const productViewOf = ({ onHand: _onHand, ...listing }: ProductListing & { onHand?: bigint }): ProductView => ({
  ...listing,
  salePrice: listing.salePrice === null ? null : moneyOf(listing.salePrice, MONEY_PLACES),
});

/** The ETag of a product view: its version, quoted (a strong validator: the version changes with every field the view shows). */
export const productEtag = versionEtag;

/**
 * The company a new warehouse's stock belongs to: the one given, which must be the tenant's
 * (404) and ACTIVE (409); else the tenant's oldest ACTIVE company; else none (a tenant
 * without companies keeps an unassigned warehouse, as the dashboard lists it).
 */
async function owningCompany(tenantId: string, companyId: string | undefined): Promise<string | null> {
  if (companyId !== undefined) {
    const company = await getCompany(tenantId, companyId);
    if (!company) throw new NotFound('No such company');
    if (company.status !== 'ACTIVE') throw new Conflict(`The company is ${company.status}: a warehouse can only be made for an ACTIVE company`);
    return company.id;
  }
  return (await oldestActiveCompany(tenantId))?.id ?? null;
}

export async function createWarehouse(principal: Caller, input: WarehouseInput, nowMs: number, idempotency?: IdempotentWrite): Promise<WarehouseView> {
  const companyId = await owningCompany(principal.tenantId, input.companyId);
  const warehouse: Warehouse = {
    id: randomUUID(),
    name: input.name,
    companyId,
    // Only an ACTIVE company gets a warehouse (insertWarehouse holds it so until the warehouse is written).
    companyStatus: companyId === null ? null : 'ACTIVE',
    createdAt: new Date(nowMs).toISOString(),
    totalItems: 0n,
    totalProducts: 0,
    totalValue: 0n,
    totalReplacementValue: 0n,
  };
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
  const createdAt = new Date(nowMs).toISOString();
  const product: Product = {
    id: randomUUID(),
    sku: input.sku,
    name: input.name,
    description: input.description ?? null,
    brand: input.brand ?? null,
    unit: input.unit ?? DEFAULT_UNIT,
    gtin: input.gtin ?? null,
    ncm: input.ncm ?? null,
    cest: input.cest ?? null,
    salePrice: input.salePrice === undefined ? null : exactly(input.salePrice, MONEY_PLACES),
    status: input.status ?? 'ACTIVE',
    categoryId: input.categoryId ?? null,
    createdAt,
    updatedAt: createdAt,
    version: 1,
    onHand: 0n,
  };
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
 * Change a product's fields (any of them, at least one; null clears an optional one). With an
 * `If-Match`, only the version it names is changed (412 otherwise, nothing written); without,
 * the change applies to the product as it is. 409 for a SKU or a GTIN another product has,
 * and for a whole-unit change while a fraction is on hand. One transaction with its audit
 * entry (each changed field before and after) and its `product.updated` event.
 */
export async function updateProduct(
  principal: Caller,
  productId: string,
  changes: UpdateProductBody,
  ifMatch: string | undefined,
  nowMs: number,
): Promise<ProductView> {
  const expected = matchedVersions(ifMatch, 'product');
  const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as UpdateProductBody;
  const updated = await modifyProduct(
    principal.tenantId,
    productId,
    (current) => {
      requireMatch(expected, current.version, 'product');
      const { onHand: _onHand, ...listing } = current;
      const next: ProductListing = {
        ...listing,
        ...given,
        salePrice: given.salePrice === undefined ? current.salePrice : given.salePrice === null ? null : exactly(given.salePrice, MONEY_PLACES),
        updatedAt: new Date(nowMs).toISOString(),
        version: current.version + 1,
      };
      if (!quantityFitsUnit(current.onHand, next.unit)) {
        throw new Conflict(
          `The product has ${formatScaled(current.onHand, QUANTITY_PLACES)} on hand, which ${next.unit} does not count: adjust the stock to a whole quantity before changing the unit`,
        );
      }
      return next;
    },
    (before, after) =>
      auditRecord(
        {
          scope: { tenantId: principal.tenantId },
          action: 'product.updated',
          resource: { type: 'product', id: productId },
          changes: changesOf(productViewOf(before), productViewOf(after), PRODUCT_MASTER_FIELDS),
          eventFields: { sku: after.sku, status: after.status },
        },
        nowMs,
      ),
  );
  return productViewOf(updated);
}

/** Delete a product that never had a movement (204); 409 for one that did (deactivate it instead), 404 for none. */
export async function deleteProduct(principal: Caller, productId: string, nowMs: number): Promise<void> {
  await removeProduct(principal.tenantId, productId, (product) =>
    auditRecord(
      { scope: { tenantId: principal.tenantId }, action: 'product.deleted', resource: { type: 'product', id: productId }, eventFields: { sku: product.sku } },
      nowMs,
    ),
  );
}

/**
 * A page of the tenant's products by SKU (code-point order), of one status (ACTIVE unless
 * asked) or all: one Query of the list of that status, or, with a `search`, the products
 * whose SKU, name, brand or GTIN holds it (case- and accent-insensitive), from the in-memory
 * search (lib/search/engine), completed from their items. A `gtin` finds the one product that
 * has it with one read (any status, unless one is asked). Each user's searches are limited
 * (`searches`: the manifest's; undefined for the benchmarks).
 */
export async function listProducts(principal: Caller, query: ListProductsInput, nowMs: number, searches: ScopedLimit | undefined): Promise<Page<ProductView>> {
  const categoryId = query.categoryId;
  if (query.gtin !== undefined) {
    // One product at most: no page follows, so no cursor was ever sealed for this scope and any is refused.
    await openPageCursor(query.cursor, { tenantId: principal.tenantId, filters: { list: 'products', gtin: query.gtin } });
    const found = await findProductByGtin(principal.tenantId, query.gtin);
    const text = query.search === undefined ? undefined : searchQuery(query.search);
    const shown =
      found &&
      (query.status === undefined || query.status === 'ALL' || query.status === found.status) &&
      (categoryId === undefined || categoryId === found.categoryId) &&
      (!text || recordMatches(productSearchRecord(found), text));
    return { items: shown ? [productViewOf(found)] : [], nextCursor: null };
  }
  const status = query.status ?? 'ACTIVE';
  const search = query.search === undefined ? undefined : searchQuery(query.search);
  if (search && searches) await consumeLimit(searches, { ip: '', userId: callerId(principal) }, nowMs);
  const filters = { list: 'products', status, ...(categoryId === undefined ? {} : { categoryId }) };
  if (!search) {
    return keyOrderedPage({ tenantId: principal.tenantId, filters }, query, async (at) => {
      const page = await listProductPage(principal.tenantId, status, at, categoryId);
      return { items: page.items.map(productViewOf), ...(page.lastSk === undefined ? {} : { lastSk: page.lastSk }) };
    });
  }
  // The same order and pages, from the in-memory search (filtered in memory on the status and
  // the category its records hold); a cursor is bound to its search, status and category.
  const where =
    status === 'ALL' && categoryId === undefined
      ? undefined
      : (record: SearchRecord) => {
          const held = searchRecordFilters(record);
          return (status === 'ALL' || held.status === status) && (categoryId === undefined || held.categoryId === categoryId);
        };
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { ...filters, search: search.text } }, query, async ({ limit, afterSk }) => {
    const { records } = await searchList(productSearchSource, principal.tenantId, search, {
      limit: limit + 1,
      count: false,
      ...(afterSk === undefined ? {} : { afterKey: afterSk }),
      ...(where ? { where } : {}),
    });
    const items = await searchPageListings(principal.tenantId, records.slice(0, limit));
    return { items: items.map(productViewOf), ...(records.length > limit ? { lastSk: (records[limit - 1] as SearchRecord).key } : {}) };
  });
}

/** Whether a search would find the record: its text in one of its words, or its compact form in one of its digit fields (lib/search/ordered-index). */
const recordMatches = (record: SearchRecord, query: SearchQuery): boolean =>
  record.words.split(FIELD_SEPARATOR).some((words) => words.includes(query.text)) ||
  (query.compact !== '' && record.digits.split(FIELD_SEPARATOR).some((digits) => digits.includes(query.compact)));

/**
 * The listings of a search page, in its order: from the records, and for those whose record
 * cut the description (or predates listings in records) from their items, in one BatchGetItem.
 */
async function searchPageListings(tenantId: string, records: SearchRecord[]): Promise<ProductListing[]> {
  const held = records.map(searchRecordListing);
  const missing = records.filter((_, index) => held[index] === undefined).map((record) => record.id);
  const read = new Map((await readProductListings(tenantId, missing)).map((listing) => [listing.id, listing]));
  return records.flatMap((record, index) => {
    const listing = held[index] ?? read.get(record.id);
    return listing ? [listing] : [];
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
    return {
      quantity: next.quantity,
      totalCost: next.value,
      averageCost: next.averageCost,
      lastCost: lastCostAfter(current.lastCost, movement),
      version: current.version,
    };
  };
}

/** A movement as the API shows it, with the balance it left (quantity, average and last unit cost; the last unknown for a movement recorded before balances kept it). */
function movementViewOf(movement: Movement, after: Pick<Balance, 'quantity' | 'averageCost'> & { lastCost: bigint | undefined }): MovementView {
  const { tenantId: _tenant, day: _day, ...recorded } = movement;
  return {
    ...recorded,
    balance: {
      quantity: quantityOf(after.quantity),
      averageCost: moneyOf(after.averageCost, UNIT_COST_PLACES),
      lastCost: after.lastCost === undefined ? null : moneyOf(after.lastCost, UNIT_COST_PLACES),
    },
  };
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
    transferId: null,
    counterpartWarehouseId: null,
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
    (product) => admitMovement(product, movement.type, exactly(input.quantity, QUANTITY_PLACES)),
  );
  countMovement(movement.type);
  return viewOf(balance);
}

/**
 * What a product takes: an INACTIVE one no IN or SALE (409: its stock can still leave or be
 * adjusted), and a quantity its unit counts (400: 1.5 UN).
 */
function admitMovement(product: Product, type: MovementType, quantity: bigint): void {
  if (!quantityFitsUnit(quantity, product.unit)) {
    throw ValidationError.of('quantity', `must be a whole number: the product is counted in ${product.unit}, which takes no fractions`);
  }
  if (product.status === 'INACTIVE' && REFUSED_WHEN_INACTIVE.includes(type)) {
    throw new Conflict(`The product is inactive: it takes no ${type} movement (OUT and ADJUSTMENT still clear its stock). Reactivate it first.`);
  }
}

/** The latest instant a history bound can name (a later one sorts wrong as text: `+010000-…`). */
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A `from` bound as epoch ms: a business day's first instant, or the date-time. */
const fromMs = (bound: string, timeZone: string): number => (isDay(bound) ? dayStartMs(bound, timeZone) : Date.parse(bound));
/** A `to` bound as epoch ms: a business day's last instant, or the date-time. */
const toMs = (bound: string, timeZone: string): number =>
  isDay(bound) ? (bound === '9999-12-31' ? LAST_MS : dayStartMs(addDays(bound, 1), timeZone) - 1) : Date.parse(bound);

/**
 * The instants a history's `from` and `to` bound (a business day or a date-time each), as
 * epoch ms, within what a movement may carry; `first > last` for a range nothing is in. 400
 * for a `to` before its `from`. The stock history and the transfers read their lists so.
 */
export function historyRange(input: { from?: string | undefined; to?: string | undefined }): { first: number; last: number } {
  const { BUSINESS_TIME_ZONE } = config();
  const first = Math.max(input.from ? fromMs(input.from, BUSINESS_TIME_ZONE) : OCCURRED_AT_FLOOR_MS, OCCURRED_AT_FLOOR_MS);
  const last = Math.min(input.to ? toMs(input.to, BUSINESS_TIME_ZONE) : LAST_MS, LAST_MS);
  if (input.from && input.to && fromMs(input.from, BUSINESS_TIME_ZONE) > last) throw ValidationError.of('to', 'must not be before from');
  return { first, last };
}

/**
 * A page of the stock history (kardex), newest first: one Query on the list of exactly the
 * filters given (lib/db/keys `history`). The cursor is sealed for the tenant and the filters;
 * one from another list or tenant, or edited, is a 400.
 */
export async function listMovementHistory(principal: Caller, input: MovementHistoryInput): Promise<MovementHistoryPage> {
  const { first, last } = historyRange(input);

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
    items: movements.map(({ movementType, balanceAfter, averageCostAfter, lastCostAfter, transferValue: _value, ...movement }) =>
      movementViewOf({ ...movement, type: movementType }, { quantity: balanceAfter, averageCost: averageCostAfter, lastCost: lastCostAfter }),
    ),
    nextCursor: await sealPageCursor(nextSk === undefined ? undefined : { sk: nextSk }, cursorScope),
  };
}
