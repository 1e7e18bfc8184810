import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { Conflict, NotFound } from '../errors';
import {
  HALTED_COMPANY_STATUSES,
  STOCK_LOW_WINDOW_DAYS,
  type Balance,
  type CoverageReading,
  type Movement,
  type Product,
  type SalesSeries,
  type StoredMovement,
  type Warehouse,
} from './model';
import type { DomainEvent } from '../events/model';
import type { IdempotentWrite } from '../idempotency/model';
import { INVENTORY_ITEMS } from '../db/item-types';
import { auditItems, eventPut } from '../audit/repository';
import { completionItem, completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';

import { QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { getMany } from '../db/batch';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { db, tableName, type TransactItem } from '../db/client';
import { fieldsOf, pick, withoutNulls } from '../db/items';
import { gsi1, keys, stringShard, type HistoryScope } from '../db/keys';
import { queryAll, queryNewestFirst, queryPage } from '../db/query';
import { sortName } from '../db/name-order';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { seriesOf } from './sales-series';
import { valueAt } from './costing';
import { coverageEntryWrites, coverageStateOf, coverageVersionCondition } from './coverage-repository';
import { stockLowThresholdOf } from '../tenants/repository';
import { toProduct } from './product-repository';

const WAREHOUSE_FIELDS = fieldsOf<Warehouse>()([
  'id',
  'name',
  'createdAt',
  'totalItems',
  'totalProducts',
  'totalValue',
  'totalReplacementValue',
  'companyId',
  'companyStatus',
]);
/** The fields every movement's record has (`lastCostAfter`, only those recorded since balances kept it, and the transfer's, are read apart). */
const STORED_MOVEMENT_FIELDS = fieldsOf<Omit<StoredMovement, 'lastCostAfter' | 'transferId' | 'counterpartWarehouseId' | 'transferValue'>>()([
  'id',
  'tenantId',
  'productId',
  'warehouseId',
  'movementType',
  'quantity',
  'unitCost',
  'occurredAt',
  'createdAt',
  'day',
  'balanceAfter',
  'averageCostAfter',
]);

/** A movement as its stock-history entries store it (the same item in each of its eight lists). */
function historyItem(movement: Movement, after: Balance): Record<string, unknown> {
  const { type: movementType, transferId, counterpartWarehouseId, ...fields } = movement;
  return {
    ...fields,
    // Only a transfer's two sides name it (the others read them as null).
    ...(transferId === null ? {} : { transferId, counterpartWarehouseId }),
    // `type` names the item kind everywhere; the movement's own type is `movementType`.
    type: INVENTORY_ITEMS.movement,
    movementType,
    balanceAfter: storedDecimal(after.quantity, QUANTITY_PLACES),
    averageCostAfter: storedDecimal(after.averageCost, UNIT_COST_PLACES),
    lastCostAfter: storedDecimal(after.lastCost, UNIT_COST_PLACES),
  };
}

/** The movement's put into each stock-history list it belongs to (keys.history). */
export function historyEntries(movement: Movement, after: Balance): TransactItem[] {
  const item = historyItem(movement, after);
  const { productId, warehouseId, type } = movement;
  const scopes: HistoryScope[] = [];
  for (const withProduct of [true, false])
    for (const withWarehouse of [true, false])
      for (const withType of [false, true])
        scopes.push({ ...(withProduct ? { productId } : {}), ...(withWarehouse ? { warehouseId } : {}), ...(withType ? { type } : {}) });
  return scopes.map((scope) => ({
    Put: { TableName: tableName(), Item: { ...keys.history(movement.tenantId, scope, movement.occurredAt, movement.id), ...item } },
  }));
}

const toStoredMovement = (item: Record<string, unknown>): StoredMovement => ({
  ...pick<Omit<StoredMovement, 'lastCostAfter' | 'transferId' | 'counterpartWarehouseId' | 'transferValue'>>(item, STORED_MOVEMENT_FIELDS),
  transferId: typeof item.transferId === 'string' ? item.transferId : null,
  counterpartWarehouseId: typeof item.counterpartWarehouseId === 'string' ? item.counterpartWarehouseId : null,
  ...(item.transferValue === undefined ? {} : { transferValue: scaledFrom(item.transferValue, VALUE_PLACES) }),
  balanceAfter: scaledFrom(item.balanceAfter, QUANTITY_PLACES),
  averageCostAfter: scaledFrom(item.averageCostAfter, UNIT_COST_PLACES),
  ...(item.lastCostAfter === undefined ? {} : { lastCostAfter: scaledFrom(item.lastCostAfter, UNIT_COST_PLACES) }),
});

/** The maintained totals are exact decimals (../decimals); one never written reads as 0. */
const toWarehouse = (item: Record<string, unknown>): Warehouse => ({
  ...pick<Warehouse>(item, WAREHOUSE_FIELDS),
  totalItems: scaledFrom(item.totalItems, QUANTITY_PLACES),
  totalProducts: Number(item.totalProducts ?? 0),
  totalValue: scaledFrom(item.totalValue, VALUE_PLACES),
  totalReplacementValue: scaledFrom(item.totalReplacementValue, VALUE_PLACES),
  companyId: typeof item.companyId === 'string' ? item.companyId : null,
  companyStatus: typeof item.companyStatus === 'string' ? (item.companyStatus as Warehouse['companyStatus']) : null,
});

/** What a warehouse's listing entry holds (a warehouse never changes name). */
export type WarehouseListing = Pick<Warehouse, 'id' | 'name' | 'createdAt' | 'companyId'>;
const WAREHOUSE_LISTING_FIELDS = fieldsOf<WarehouseListing>()(['id', 'name', 'createdAt', 'companyId']);
/** A listing entry's fields (one written before warehouses had a company has none: null). */
const toWarehouseListing = (item: Record<string, unknown>): WarehouseListing => ({
  ...pick<WarehouseListing>(item, WAREHOUSE_LISTING_FIELDS),
  companyId: typeof item.companyId === 'string' ? item.companyId : null,
});

/**
 * The stored balance, or all zeros (version 0) before the first movement. A balance written
 * before balances kept a last cost reads its average cost as one (lib/integrity: the same rule).
 */
export const toBalance = (item: Record<string, unknown> | undefined): Balance => ({
  quantity: scaledFrom(item?.quantity, QUANTITY_PLACES),
  totalCost: scaledFrom(item?.totalCost, VALUE_PLACES),
  averageCost: scaledFrom(item?.averageCost, UNIT_COST_PLACES),
  lastCost: scaledFrom(item?.lastCost ?? item?.averageCost, UNIT_COST_PLACES),
  version: Number(item?.version ?? 0),
});

const warehouseAttributes = ({ companyId, companyStatus, ...warehouse }: Warehouse) => ({
  ...warehouse,
  ...(companyId === null ? {} : { companyId }),
  ...(companyStatus === null ? {} : { companyStatus }),
  totalItems: storedDecimal(warehouse.totalItems, QUANTITY_PLACES),
  totalValue: storedDecimal(warehouse.totalValue, VALUE_PLACES),
  totalReplacementValue: storedDecimal(warehouse.totalReplacementValue, VALUE_PLACES),
});

/** A balance as its item stores it: exact decimals (every field: a new one is a compile error here). */
const balanceAttributes = (balance: Balance): Record<keyof Balance, unknown> => ({
  quantity: storedDecimal(balance.quantity, QUANTITY_PLACES),
  totalCost: storedDecimal(balance.totalCost, VALUE_PLACES),
  averageCost: storedDecimal(balance.averageCost, UNIT_COST_PLACES),
  lastCost: storedDecimal(balance.lastCost, UNIT_COST_PLACES),
  version: balance.version,
});

/**
 * A new warehouse and its audit entry; with an Idempotency-Key, the key's answer (`view`)
 * commits with it. A warehouse of a company is made only while the company is ACTIVE, and
 * moves the company's revision: a status change that listed the company's warehouses before
 * this one existed then reads again, so no warehouse misses its company's status (409 when
 * the company left ACTIVE meanwhile).
 */
export async function insertWarehouse(tenantId: string, warehouse: Warehouse, audit: AuditRecord, key?: KeyCompletion): Promise<void> {
  const guard: TransactItem[] =
    warehouse.companyId === null
      ? []
      : [
          {
            Update: {
              TableName: tableName(),
              Key: keys.company(tenantId, warehouse.companyId),
              UpdateExpression: 'ADD #revision :one',
              ConditionExpression: 'attribute_exists(pk) AND #status = :active',
              ExpressionAttributeNames: { '#revision': 'revision', '#status': 'status' },
              ExpressionAttributeValues: { ':one': 1, ':active': 'ACTIVE' },
            },
          },
        ];
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.warehouse(tenantId, warehouse.id), type: INVENTORY_ITEMS.warehouse, ...warehouseAttributes(warehouse) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.warehouseListing(tenantId, sortName(warehouse.name), warehouse.id),
          type: INVENTORY_ITEMS.warehouseListing,
          ...withoutNulls(pick<WarehouseListing>(warehouse, WAREHOUSE_LISTING_FIELDS)),
        },
      },
    },
    ...guard,
    ...completionItems(key),
    ...auditItems(audit),
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    keyTakenOver(error, 2 + guard.length);
    if (guard.length > 0 && cancellationCodes(error)[2] === 'ConditionalCheckFailed') {
      throw new Conflict('The company left ACTIVE while the warehouse was being made: a warehouse can only be made for an ACTIVE company');
    }
    throw error;
  }
}

/**
 * The writes a status change of a company makes beside it: each of its warehouses takes the
 * new status, which its movements are conditioned on.
 */
export async function companyStatusWrites(tenantId: string, companyId: string, status: NonNullable<Warehouse['companyStatus']>): Promise<TransactItem[]> {
  return (await listWarehouses(tenantId))
    .filter((warehouse) => warehouse.companyId === companyId)
    .map((warehouse) => ({
      Update: {
        TableName: tableName(),
        Key: keys.warehouse(tenantId, warehouse.id),
        UpdateExpression: 'SET companyStatus = :status',
        ConditionExpression: 'attribute_exists(pk) AND companyId = :company',
        ExpressionAttributeValues: { ':status': status, ':company': companyId },
      },
    }));
}

/** One warehouse of a tenant (consistent: a GET right after the create finds it), or none. */
export async function findWarehouse(tenantId: string, warehouseId: string): Promise<Warehouse | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.warehouse(tenantId, warehouseId), ConsistentRead: true }));
  return Item ? toWarehouse(Item) : undefined;
}

/** Every warehouse of a tenant, with its maintained totals (no stock item is read). */
export async function listWarehouses(tenantId: string): Promise<Warehouse[]> {
  const { pk, skPrefix } = keys.warehousesOfTenant(tenantId);
  return (await queryAll(pk, { skPrefix })).map(toWarehouse);
}

/** A product with its rolled-up sales (null before the first roll-up). */
export interface ProductWithSales {
  product: Product;
  sales: SalesSeries | null;
}

/** The tenant's product items and their rolled-up sales items, in one Query. */
async function readProductItems(tenantId: string): Promise<Record<string, unknown>[]> {
  const { pk, skPrefix } = keys.productsOfTenant(tenantId);
  return queryAll(pk, { skPrefix });
}

/** Every product of a tenant with its sales series, in one Query (the coverage read). */
export async function readProductsWithSales(tenantId: string): Promise<ProductWithSales[]> {
  const items = await readProductItems(tenantId);
  const sales = new Map<string, SalesSeries>();
  for (const item of items) if (item.type === INVENTORY_ITEMS.productSales) sales.set(item.productId as string, seriesOf(item));
  return items
    .filter((item) => item.type === INVENTORY_ITEMS.product)
    .map(toProduct)
    .map((product) => ({ product, sales: sales.get(product.id) ?? null }));
}

/** A page of the tenant's warehouses by name (one Query), after the entry `afterSk`. */
export async function listWarehousePage(tenantId: string, page: { limit: number; afterSk?: string }): Promise<{ items: WarehouseListing[]; lastSk?: string }> {
  const { items, more } = await queryPage(keys.warehouseListingOf(tenantId).pk, page);
  return { items: items.map(toWarehouseListing), ...(more ? { lastSk: items.at(-1)?.sk as string } : {}) };
}

/** What a movement does to a balance; throws Conflict for stock that is not there. */
export type BalanceRule = (current: Balance) => Balance;

/**
 * The rule's next balance. A rule that refuses (not enough stock) on a balance that was
 * never written may be refusing a product or warehouse that does not exist: that is a 404,
 * which comes before the 409 (docs/api.md, "Request conventions").
 */
async function applyRule(rule: BalanceRule, current: Balance, place: { tenantId: string; productId: string; warehouseId: string }): Promise<Balance> {
  try {
    return rule(current);
  } catch (error) {
    if (error instanceof Conflict && current.version === 0) await assertPlaceExists(place);
    throw error;
  }
}

/** 404 when the product or the warehouse is not the tenant's (one consistent BatchGetItem). */
export async function assertPlaceExists(place: { tenantId: string; productId: string; warehouseId: string }): Promise<void> {
  const [product, warehouse] = await getMany([keys.product(place.tenantId, place.productId), keys.warehouse(place.tenantId, place.warehouseId)]);
  if (!warehouse) throw new NotFound('No such warehouse');
  if (!product) throw new NotFound('No such product');
}

/** Which shard of the pending-sales index a counter goes to. */
export const SALES_PENDING_SHARDS = 8;
export const shardOf = (tenantId: string, productId: string): number => stringShard(`${tenantId}${productId}`, SALES_PENDING_SHARDS);

/**
 * The product's side of a movement: its on-hand quantity, and its coverage entries moved with
 * it (./coverage), conditioned on the coverage version read, so two movements of the product
 * in different warehouses cannot both move its entries from the same place. A product that
 * was not found keeps the plain conditional update, whose failure answers 404.
 */
export function productMove(
  tenantId: string,
  productId: string,
  productItem: Record<string, unknown> | undefined,
  delta: bigint,
): { update: TransactItem; coverage: TransactItem[]; moved?: { product: Product; sold: CoverageReading['sold']; onHandBefore: bigint; onHandAfter: bigint } } {
  const Key = keys.product(tenantId, productId);
  if (!productItem) {
    return {
      update: {
        Update: {
          TableName: tableName(),
          Key,
          UpdateExpression: 'ADD onHand :items',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':items': storedDecimal(delta, QUANTITY_PLACES) },
        },
      },
      coverage: [],
    };
  }
  const product = toProduct(productItem);
  const onHand = product.onHand + delta;
  const state = coverageStateOf(productItem);
  const { condition, values } = coverageVersionCondition(state.version);
  return {
    update: {
      Update: {
        TableName: tableName(),
        Key,
        UpdateExpression: 'SET onHand = :onHand, coverageVersion = :next',
        ConditionExpression: `attribute_exists(pk) AND ${condition}`,
        ExpressionAttributeValues: { ':onHand': storedDecimal(onHand, QUANTITY_PLACES), ':next': state.version + 1, ...values },
      },
    },
    coverage: state.sold ? coverageEntryWrites(tenantId, product, { onHand: product.onHand, sold: state.sold }, { onHand, sold: state.sold }) : [],
    moved: { product, sold: state.sold?.get(STOCK_LOW_WINDOW_DAYS), onHandBefore: product.onHand, onHandAfter: onHand },
  };
}

/** A balance written over the one read, conditioned on its version (a concurrent movement makes the writer read again). */
export function balancePut(tenantId: string, productId: string, warehouseId: string, current: Balance, next: Balance): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.stock(tenantId, productId, warehouseId),
        type: INVENTORY_ITEMS.stock,
        productId,
        warehouseId,
        ...balanceAttributes(next),
        // In its warehouse's list of balances with stock (what a count of the warehouse has in scope) while it has any.
        ...(next.quantity > 0n ? gsi1.warehouseStock(tenantId, warehouseId, productId) : {}),
      },
      ConditionExpression: current.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
      ...(current.version === 0 ? {} : { ExpressionAttributeValues: { ':version': current.version } }),
    },
  };
}

/**
 * A warehouse's totals moved by one balance's change, by exact deltas (units, value at average,
 * value at last cost, products with stock); conditioned on the warehouse existing and its
 * company not being BLOCKED or SUSPENDED (its status is kept on the warehouse).
 */
export function warehouseTotalsUpdate(tenantId: string, warehouseId: string, current: Balance, next: Balance): TransactItem {
  return warehouseTotalsOfChanges(tenantId, warehouseId, [{ current, next }]);
}

/**
 * The same for several balances of the warehouse changed in one transaction (a count's close):
 * their deltas summed. `whateverItsCompany`: conditioned only on the warehouse existing, for
 * units admitted before (a transfer of several products arriving after its departure).
 */
export function warehouseTotalsOfChanges(
  tenantId: string,
  warehouseId: string,
  changes: readonly { current: Balance; next: Balance }[],
  options: { whateverItsCompany?: boolean } = {},
): TransactItem {
  let items = 0n;
  let value = 0n;
  let replacement = 0n;
  let products = 0;
  for (const { current, next } of changes) {
    items += next.quantity - current.quantity;
    value += next.totalCost - current.totalCost;
    replacement += valueAt(next.quantity, next.lastCost) - valueAt(current.quantity, current.lastCost);
    products += current.quantity === 0n && next.quantity > 0n ? 1 : current.quantity > 0n && next.quantity === 0n ? -1 : 0;
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keys.warehouse(tenantId, warehouseId),
      UpdateExpression: 'ADD totalItems :items, totalValue :value, totalReplacementValue :replacement, totalProducts :products',
      ConditionExpression: options.whateverItsCompany
        ? 'attribute_exists(pk)'
        : 'attribute_exists(pk) AND (attribute_not_exists(companyStatus) OR NOT companyStatus IN (:blocked, :suspended))',
      ExpressionAttributeValues: {
        ...(options.whateverItsCompany ? {} : { ':blocked': HALTED_COMPANY_STATUSES[0], ':suspended': HALTED_COMPANY_STATUSES[1] }),
        ':items': storedDecimal(items, QUANTITY_PLACES),
        ':value': storedDecimal(value, VALUE_PLACES),
        ':replacement': storedDecimal(replacement, VALUE_PLACES),
        ':products': products,
      },
    },
  };
}

/**
 * The `product.stock_low` rule a movement applies to its product (lib/inventory/stock-low):
 * the event to write in its transaction when it crossed its tenant's threshold, else none.
 */
export type StockLowRule = (product: Product, reading: CoverageReading) => DomainEvent | undefined;

/**
 * Record a movement: in ONE transaction, the balance of the product in the warehouse
 * (conditional on the version read, so concurrent movements never lose an update), the
 * warehouse totals, the product's on-hand quantity and coverage entries, the movement's
 * stock-history entries, for a sale the day's sales counter (marked pending for the
 * roll-up job), the key's completion, the audit entry with the movement's event, and the
 * product's `product.stock_low` event when the movement took its coverage below the tenant's
 * threshold (`stockLow`): at most 3 + 8 + 6 coverage + 1 + 1 + 4 + 1 = 24 items, well under
 * DynamoDB's 100. The balance and the product are read in one BatchGetItem, with the tenant
 * (its threshold) when the movement may lower the stock and a `stockLow` rule is given. The
 * product's update is conditioned on its coverage version, so the quantity a crossing is
 * computed from is exactly the one replaced: of concurrent movements, one crosses. A
 * condition lost to a concurrent movement, or a transaction conflict, re-reads and
 * recomputes; stock can never go below zero because the rule sees the balance it is
 * conditioned on. `admit` refuses a movement the product does not take (an inactive product,
 * a quantity its unit does not count in), on the product as the transaction is conditioned on.
 */
export async function recordMovement(
  movement: Movement,
  rule: BalanceRule,
  audit: AuditRecord,
  idempotent?: { write: IdempotentWrite; view: (balance: Balance) => unknown },
  stockLow?: StockLowRule,
  admit?: (product: Product) => void,
): Promise<Balance> {
  const { tenantId, productId, warehouseId } = movement;
  const stockKey = keys.stock(tenantId, productId, warehouseId);
  // An IN only raises coverage: it never crosses below, so it reads no threshold.
  const watched = stockLow !== undefined && movement.type !== 'IN';
  return withOptimisticRetries<Balance>(async () => {
    const [stockItem, productItem, tenantItem] = await getMany([stockKey, keys.product(tenantId, productId), ...(watched ? [keys.tenant(tenantId)] : [])]);
    // What the product allows (its status, its unit), as read: the product's update below is
    // conditioned on its coverage version, which every change of the product moves.
    if (productItem) admit?.(toProduct(productItem));
    const current = toBalance(stockItem);
    const next = { ...(await applyRule(rule, current, { tenantId, productId, warehouseId })), version: current.version + 1 };
    const product = productMove(tenantId, productId, productItem, next.quantity - current.quantity);

    const items: TransactItem[] = [
      balancePut(tenantId, productId, warehouseId, current, next),
      warehouseTotalsUpdate(tenantId, warehouseId, current, next),
      product.update,
      ...historyEntries(movement, next),
      ...product.coverage,
    ];
    if (movement.type === 'SALE') {
      items.push({
        Update: {
          TableName: tableName(),
          Key: keys.salesDay(tenantId, movement.day, productId),
          UpdateExpression: 'ADD units :units SET tenantId = :tenant, productId = :product, #day = :day, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
          ExpressionAttributeNames: { '#day': 'day' },
          ExpressionAttributeValues: {
            ':units': movement.quantity,
            ':tenant': tenantId,
            ':product': productId,
            ':day': movement.day,
            ...Object.fromEntries(
              Object.entries(gsi1.salesPending(shardOf(tenantId, productId), movement.day, tenantId, productId)).map(([key, value]) => [`:${key}`, value]),
            ),
          },
        },
      });
    }

    const keyIndex = items.length;
    if (idempotent) items.push(completionItem(idempotent.write, idempotent.view(next)));
    // Last: the indexes above are the cancellation reasons read below (the entry's puts have no condition).
    items.push(...auditItems(audit));
    const moved = watched ? product.moved : undefined;
    const low =
      moved &&
      stockLow?.(moved.product, {
        threshold: stockLowThresholdOf(tenantItem),
        sold: moved.sold,
        onHandBefore: moved.onHandBefore,
        onHandAfter: moved.onHandAfter,
      });
    if (low) items.push(eventPut(low));

    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: next };
    } catch (error) {
      keyTakenOver(error, keyIndex);
      const codes = cancellationCodes(error);
      if (codes[1] === 'ConditionalCheckFailed') throw await warehouseRefusal(tenantId, warehouseId);
      // The product's condition is also its coverage version: a product read and then changed is a retry.
      if (codes[2] === 'ConditionalCheckFailed' && !productItem) throw new NotFound('No such product');
      if (codes[2] === 'ConditionalCheckFailed') return { retry: true };
      if (codes[0] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/** Why a warehouse refused a movement: it is not the tenant's (404), or its company is halted (409). */
export async function warehouseRefusal(tenantId: string, warehouseId: string): Promise<NotFound | Conflict> {
  const warehouse = await findWarehouse(tenantId, warehouseId);
  if (!warehouse) return new NotFound('No such warehouse');
  return new Conflict(`The warehouse's company is ${warehouse.companyStatus ?? 'halted'}: its stock takes no movements until the company is ACTIVE again`);
}

/** Movements of a product in a warehouse, oldest first (the soak check sums them). */
export async function listMovements(tenantId: string, productId: string, warehouseId: string): Promise<StoredMovement[]> {
  return (await queryAll(keys.historyOf(tenantId, { productId, warehouseId }).pk, { consistent: true })).map(toStoredMovement);
}

/** A page of one stock-history list, newest first, within `[fromSk, toSk]`, after the entry `afterSk`. */
export interface HistoryPageRequest {
  scope: HistoryScope;
  /** Sort-key bounds, both inclusive (`occurredAt#id`: an instant's prefix bounds every id). */
  fromSk: string;
  toSk: string;
  limit: number;
  /** The sort key of the last entry of the previous page. */
  afterSk?: string;
}

/**
 * One Query, consistent (a movement just recorded is in it), newest first. It asks for one
 * entry more than the page, so `nextSk` is there only when another entry follows: the last
 * page never ends in an empty one.
 */
export async function readHistoryPage(tenantId: string, request: HistoryPageRequest): Promise<{ movements: StoredMovement[]; nextSk?: string }> {
  const { items, nextSk } = await queryNewestFirst(keys.historyOf(tenantId, request.scope).pk, request);
  return { movements: items.map(toStoredMovement), ...(nextSk === undefined ? {} : { nextSk }) };
}
