import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { auditItems } from '../audit/repository';
import { QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { db, tableName, type TransactItem } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import {
  CATEGORY_ITEMS,
  COUNT_ITEMS,
  INVENTORY_ITEMS,
  PURCHASE_ORDER_ITEMS,
  SUPPLIER_ITEMS,
  SUPPLIER_PRODUCT_ITEMS,
  USER_ITEMS,
  WEBHOOK_ITEMS,
} from '../db/item-types';
import { toOrder } from '../purchase-orders/repository';
import { toSupplierProduct } from '../supplier-products/repository';
import { COVERAGE_MARKER_SK, gsi1, keys } from '../db/keys';
import { coverageStateOf } from '../inventory/coverage-repository';
import { readAllLines, toCount } from '../counts/repository';
import { shardOf } from '../inventory/repository';
import { later, isTombstone, type VersionedRecord } from '../search/model';
import { readSearchChunks, readSearchLog } from '../search/repository';
import type { SearchList } from '../db/keys';
import { INDEXED_COVERAGE_DAYS, type MovementType } from '../inventory/model';
import type {
  BalanceRecord,
  CategoryRecord,
  CountRecord,
  CoverageEntryRecord,
  ItemKey,
  MovementRecord,
  ProductRecord,
  ReplayedBalance,
  SalesDayRecord,
  SentinelRecord,
  UniqueRecord,
  WarehouseRecord,
  WarehouseTotals,
  SupplierLinksRecord,
  PurchasingRecord,
} from './checks';

/**
 * What the integrity checker reads and mends. Reads are consistent Queries of one partition
 * (or one sort-key prefix of it) in bounded pages, never a Scan: a tenant's items are found by
 * their keys. A repair is one conditioned write: it applies only while the item still holds
 * what the check read, so a change made meanwhile is never overwritten.
 */

/** Items a read page holds at most. */
const PAGE_ITEMS = 500;

async function* pages(pk: string, skPrefix?: string): AsyncGenerator<Record<string, unknown>[]> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: skPrefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
        ExpressionAttributeValues: skPrefix ? { ':pk': pk, ':prefix': skPrefix } : { ':pk': pk },
        ConsistentRead: true,
        Limit: PAGE_ITEMS,
        ExclusiveStartKey: startKey,
      }),
    );
    yield page.Items ?? [];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Every item of the partition (or prefix) whose `type` is `type`, decoded, read page by page. */
async function readAll<T>(pk: string, skPrefix: string | undefined, type: string | undefined, decode: (item: Record<string, unknown>) => T): Promise<T[]> {
  const records: T[] = [];
  for await (const page of pages(pk, skPrefix)) for (const item of page) if (type === undefined || item.type === type) records.push(decode(item));
  return records;
}

const keyOf = (item: Record<string, unknown>): ItemKey => ({ pk: String(item.pk), sk: String(item.sk) });

export const readWarehouses = (tenantId: string): Promise<WarehouseRecord[]> =>
  readAll(keys.warehousesOfTenant(tenantId).pk, keys.warehousesOfTenant(tenantId).skPrefix, INVENTORY_ITEMS.warehouse, (item) => ({
    ...keyOf(item),
    id: String(item.id),
    totalItems: scaledFrom(item.totalItems, QUANTITY_PLACES),
    totalProducts: Number(item.totalProducts ?? 0),
    totalValue: scaledFrom(item.totalValue, VALUE_PLACES),
    totalReplacementValue: scaledFrom(item.totalReplacementValue, VALUE_PLACES),
  }));

export const readProducts = (tenantId: string): Promise<ProductRecord[]> =>
  readAll(keys.productsOfTenant(tenantId).pk, keys.productsOfTenant(tenantId).skPrefix, INVENTORY_ITEMS.product, (item) => {
    const coverage = coverageStateOf(item);
    return {
      ...keyOf(item),
      id: String(item.id),
      sku: String(item.sku),
      name: String(item.name),
      gtin: typeof item.gtin === 'string' ? item.gtin : null,
      status: item.status === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE',
      categoryId: typeof item.categoryId === 'string' ? item.categoryId : null,
      onHand: scaledFrom(item.onHand, QUANTITY_PLACES),
      coverageVersion: coverage.version,
      ...(coverage.sold ? { sold: coverage.sold } : {}),
    };
  });

/** Every entry of every indexed coverage window (not its marker). */
export async function readCoverageEntries(tenantId: string): Promise<CoverageEntryRecord[]> {
  const windows = await Promise.all(
    INDEXED_COVERAGE_DAYS.map((days) =>
      readAll(keys.coverageIndexOf(tenantId, days).pk, undefined, undefined, (item) => ({
        ...keyOf(item),
        days,
        name: String(item.name),
        onHand: scaledFrom(item.onHand, QUANTITY_PLACES),
        sold: scaledFrom(item.sold, 0),
      })),
    ),
  );
  return windows.flat().filter((entry) => entry.sk !== COVERAGE_MARKER_SK);
}

export const readBalances = (tenantId: string): Promise<BalanceRecord[]> =>
  readAll(keys.stock(tenantId, '', '').pk, undefined, INVENTORY_ITEMS.stock, (item) => ({
    ...keyOf(item),
    productId: String(item.productId),
    warehouseId: String(item.warehouseId),
    quantity: scaledFrom(item.quantity, QUANTITY_PLACES),
    totalCost: scaledFrom(item.totalCost, VALUE_PLACES),
    averageCost: scaledFrom(item.averageCost, UNIT_COST_PLACES),
    lastCost: item.lastCost === undefined ? undefined : scaledFrom(item.lastCost, UNIT_COST_PLACES),
    version: Number(item.version ?? 0),
    indexed: item.gsi1pk === gsi1.warehouseStock(tenantId, String(item.warehouseId), String(item.productId)).gsi1pk && item.gsi1sk === item.productId,
  }));

/** Every stock count of the tenant with its lines and the entries of its list by difference (the ranks they hold). */
export async function readCounts(tenantId: string): Promise<CountRecord[]> {
  const counts = await readAll(keys.tenant(tenantId).pk, 'COUNT#', COUNT_ITEMS.count, (item) => ({ ...keyOf(item), count: toCount(item) }));
  return Promise.all(
    counts.map(async ({ pk, sk, count }) => {
      const lines = await readAllLines(tenantId, count.id);
      const ranks = await readAll(keys.countLineRanksOf(tenantId, count.id).pk, undefined, COUNT_ITEMS.rank, (item) => ({
        ...keyOf(item),
        productId: String(item.productId),
      }));
      return { pk, sk, count, lines, ranks };
    }),
  );
}

/** What the tenant's suppliers sell (lib/supplier-products): both sides' lists of every supplier and product with a count, the counts, the codes and the preferred markers. */
export async function readSupplierLinks(tenantId: string): Promise<SupplierLinksRecord> {
  const counts = await readAll(keys.tenant(tenantId).pk, 'LINKS#', SUPPLIER_PRODUCT_ITEMS.count, (item) => {
    const [, side, id] = String(item.sk).split('#');
    return { ...keyOf(item), side: side === 'SUPPLIER' ? ('supplier' as const) : ('product' as const), id: String(id), count: Number(item.count ?? 0) };
  });
  const link = (item: Record<string, unknown>) => ({ ...keyOf(item), link: toSupplierProduct(item) });
  const lists = await Promise.all(
    counts.map((count) =>
      readAll(
        count.side === 'supplier' ? keys.supplierProductsOf(tenantId, count.id).pk : keys.productSuppliersOf(tenantId, count.id).pk,
        undefined,
        SUPPLIER_PRODUCT_ITEMS.link,
        link,
      ),
    ),
  );
  const suppliers = [...new Set(counts.filter((count) => count.side === 'supplier').map((count) => count.id))];
  const codes = (
    await Promise.all(
      suppliers.map((supplierId) =>
        readAll(`${keys.tenant(tenantId).pk}#SUPPLIER_CODES#${supplierId}`, undefined, SUPPLIER_PRODUCT_ITEMS.code, (item) => ({
          ...keyOf(item),
          supplierId,
          productId: String(item.productId),
          code: String(item.code),
        })),
      ),
    )
  ).flat();
  const preferred = await readAll(keys.tenant(tenantId).pk, 'PREFERRED_SUPPLIER#', SUPPLIER_PRODUCT_ITEMS.preferred, (item) => ({
    ...keyOf(item),
    productId: String(item.productId),
    supplierId: String(item.supplierId),
  }));
  return {
    counts,
    bySupplier: lists.filter((_, index) => counts[index]?.side === 'supplier').flat(),
    byProduct: lists.filter((_, index) => counts[index]?.side === 'product').flat(),
    codes,
    preferred,
  };
}

/** The tenant's purchase orders, its companies' sequences, and what is on order in each of `warehouseIds`. */
export async function readPurchasing(tenantId: string, warehouseIds: readonly string[]): Promise<PurchasingRecord> {
  const [orders, sequences, onOrder] = await Promise.all([
    readAll(keys.tenant(tenantId).pk, 'PURCHASE_ORDER#', PURCHASE_ORDER_ITEMS.order, (item) => ({ ...keyOf(item), order: toOrder(item) })),
    readAll(keys.tenant(tenantId).pk, 'PURCHASE_ORDER_SEQUENCE#', PURCHASE_ORDER_ITEMS.sequence, (item) => ({
      ...keyOf(item),
      companyId: String(item.sk).slice('PURCHASE_ORDER_SEQUENCE#'.length),
      last: Number(item.last ?? 0),
    })),
    Promise.all(
      warehouseIds.map((warehouseId) =>
        readAll(keys.onOrdersOf(tenantId, warehouseId).pk, undefined, PURCHASE_ORDER_ITEMS.onOrder, (item) => ({
          ...keyOf(item),
          warehouseId,
          productId: String(item.productId),
          quantity: scaledFrom(item.quantity, QUANTITY_PLACES),
        })),
      ),
    ),
  ]);
  return { orders, sequences, onOrder: onOrder.flat() };
}

/** The movements of one product in one warehouse: their record list (every type), page by page. */
export const readMovements = (tenantId: string, productId: string, warehouseId: string): Promise<MovementRecord[]> =>
  readAll(keys.historyOf(tenantId, { productId, warehouseId }).pk, undefined, INVENTORY_ITEMS.movement, (item) => ({
    ...keyOf(item),
    id: String(item.id),
    type: item.movementType as MovementType,
    quantity: scaledFrom(item.quantity, QUANTITY_PLACES),
    ...(item.unitCost === null || item.unitCost === undefined ? {} : { unitCost: scaledFrom(item.unitCost, UNIT_COST_PLACES) }),
    createdAt: String(item.createdAt),
    day: String(item.day),
    balanceAfter: scaledFrom(item.balanceAfter, QUANTITY_PLACES),
    averageCostAfter: scaledFrom(item.averageCostAfter, UNIT_COST_PLACES),
    ...(item.lastCostAfter === undefined ? {} : { lastCostAfter: scaledFrom(item.lastCostAfter, UNIT_COST_PLACES) }),
    ...(item.transferValue === undefined ? {} : { transferValue: scaledFrom(item.transferValue, VALUE_PLACES) }),
  }));

/** The tenant's daily sales counters, page by page (a movement's counter has no `type`: the partition holds nothing else). */
export const readSalesDays = (tenantId: string): Promise<SalesDayRecord[]> =>
  readAll(keys.salesDaysOf(tenantId).pk, keys.salesDaysOf(tenantId).skPrefix, undefined, (item) => ({
    ...keyOf(item),
    tenantId: String(item.tenantId),
    day: String(item.day),
    productId: String(item.productId),
    units: scaledFrom(item.units, QUANTITY_PLACES),
    seeded: item.seeded === true,
  }));

export const readProductSkus = (tenantId: string): Promise<SentinelRecord[]> =>
  readAll(keys.productSkusOfTenant(tenantId).pk, keys.productSkusOfTenant(tenantId).skPrefix, INVENTORY_ITEMS.productSku, (item) => ({
    ...keyOf(item),
    value: String(item.sk).slice('PRODUCT_SKU#'.length),
    pointsTo: String(item.productId ?? item.id),
  }));

export const readProductGtins = (tenantId: string): Promise<SentinelRecord[]> =>
  readAll(keys.productGtinsOfTenant(tenantId).pk, keys.productGtinsOfTenant(tenantId).skPrefix, INVENTORY_ITEMS.productGtin, (item) => ({
    ...keyOf(item),
    value: String(item.sk).slice('PRODUCT_GTIN#'.length),
    pointsTo: String(item.productId),
  }));

/** Every entry of the status lists: its value is `<status>#<SKU>`, as its key says. */
export const readProductStatusEntries = (tenantId: string): Promise<SentinelRecord[]> =>
  readAll(keys.tenant(tenantId).pk, 'PRODUCT_STATUS#', INVENTORY_ITEMS.productStatusEntry, (item) => ({
    ...keyOf(item),
    value: String(item.sk).slice('PRODUCT_STATUS#'.length),
    pointsTo: String(item.productId),
  }));

/** Every entry of the category lists: its value is `<categoryId>#<ALL or status>#<SKU>`, as its key says. */
export const readProductCategoryEntries = (tenantId: string): Promise<SentinelRecord[]> =>
  readAll(keys.tenant(tenantId).pk, keys.productCategoryEntriesOfTenant(tenantId).skPrefix, INVENTORY_ITEMS.productCategoryEntry, (item) => ({
    ...keyOf(item),
    value: String(item.sk).slice(keys.productCategoryEntriesOfTenant(tenantId).skPrefix.length),
    pointsTo: String(item.productId),
  }));

/** Every category: its id, name and product count. */
export const readCategories = (tenantId: string): Promise<CategoryRecord[]> =>
  readAll(keys.categoriesOfTenant(tenantId).pk, keys.categoriesOfTenant(tenantId).skPrefix, CATEGORY_ITEMS.category, (item) => ({
    ...keyOf(item),
    id: String(item.id),
    name: String(item.name),
    productCount: Number(item.productCount ?? 0),
  }));

/** Every category name sentinel: its value is the normalized name its key holds. */
export const readCategoryNames = (tenantId: string): Promise<SentinelRecord[]> =>
  readAll(keys.categoryNamesOfTenant(tenantId).pk, keys.categoryNamesOfTenant(tenantId).skPrefix, CATEGORY_ITEMS.name, (item) => ({
    ...keyOf(item),
    value: String(item.sk).slice(keys.categoryNamesOfTenant(tenantId).skPrefix.length),
    pointsTo: String(item.categoryId),
  }));

/** A category's product count set to the number of products in it, while it still holds the count the check read. */
export const repairCategoryCount = (category: CategoryRecord, count: number, audit: AuditRecord): Promise<boolean> =>
  repaired(audit, [
    {
      Update: {
        TableName: tableName(),
        Key: { pk: category.pk, sk: category.sk },
        UpdateExpression: 'SET productCount = :count',
        ConditionExpression: 'attribute_exists(pk) AND (productCount = :read OR (attribute_not_exists(productCount) AND :read = :zero))',
        ExpressionAttributeValues: { ':count': count, ':read': category.productCount, ':zero': 0 },
      },
    },
  ]);

export const readSuppliers = (tenantId: string): Promise<UniqueRecord[]> =>
  readAll(keys.tenant(tenantId).pk, 'SUPPLIER#', SUPPLIER_ITEMS.supplier, (item) => ({ ...keyOf(item), id: String(item.id), value: String(item.document) }));

export const readSupplierDocuments = (tenantId: string): Promise<SentinelRecord[]> =>
  readAll(keys.tenant(tenantId).pk, 'SUPPLIER_DOCUMENT#', SUPPLIER_ITEMS.document, (item) => ({
    ...keyOf(item),
    value: String(item.sk).slice('SUPPLIER_DOCUMENT#'.length),
    pointsTo: String(item.supplierId),
  }));

/** A maintained count: its item's key, the attribute that holds it, and its value (undefined: never written). */
export type CounterRecord = ItemKey & { attribute: string; count: number | undefined };

async function readCounter(key: ItemKey, attribute: string): Promise<CounterRecord> {
  const [item] = await readAll(key.pk, key.sk, undefined, (found) => found);
  const value = item?.sk === key.sk ? item[attribute] : undefined;
  return { ...key, attribute, count: value === undefined ? undefined : Number(value) };
}

export const readSupplierCount = (tenantId: string): Promise<CounterRecord> => readCounter(keys.supplierStats(tenantId), 'count');
export const readAdminCount = (tenantId: string): Promise<CounterRecord> => readCounter(keys.tenantAdmins(tenantId), 'n');
export const readEndpointCount = (tenantId: string): Promise<CounterRecord> => readCounter(keys.webhookEndpointCount(tenantId), 'n');

/** Each user's session count (its item's `sessionCount`), with how many session items the user holds. */
export async function readSessionCounts(tenantId: string): Promise<{ counter: CounterRecord; sessions: number }[]> {
  const { pk, skPrefix } = keys.usersOfTenant(tenantId);
  const users = await readAll(pk, skPrefix, USER_ITEMS.user, (item) => ({
    counter: {
      ...keyOf(item),
      attribute: 'sessionCount',
      count: item.sessionCount === undefined || item.sessionCount === null ? undefined : Number(item.sessionCount),
    },
    id: String(item.id),
  }));
  return Promise.all(
    users.map(async ({ counter, id }) => {
      const sessions = keys.sessionsOfUser(tenantId, id);
      return { counter, sessions: (await readAll(sessions.pk, sessions.skPrefix, undefined, () => 1)).length };
    }),
  );
}

/** How many of the tenant's users are administrators (what its administrator count counts). */
export async function countAdministrators(tenantId: string): Promise<number> {
  const { pk, skPrefix } = keys.usersOfTenant(tenantId);
  return (await readAll(pk, skPrefix, USER_ITEMS.user, (item) => item.role)).filter((role) => role === 'ADMIN').length;
}

/** How many webhook endpoints the tenant has. */
export async function countEndpoints(tenantId: string): Promise<number> {
  const { pk, skPrefix } = keys.webhookEndpointsOf(tenantId);
  return (await readAll(pk, skPrefix, WEBHOOK_ITEMS.endpoint, () => 1)).length;
}

/**
 * A repair: its conditioned writes and its audit entry (`tenant.repaired`, by the system) in
 * one transaction, so no repair commits unrecorded. False when a condition failed: the item
 * no longer holds what the check read (a write meanwhile), and nothing was changed.
 */
export async function repaired(audit: AuditRecord, writes: TransactItem[]): Promise<boolean> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [...writes, ...auditItems(audit)] }));
    return true;
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'ConditionalCheckFailedException' || name === 'TransactionCanceledException') return false;
    throw error;
  }
}

/** The balance set to its replay, while it is still the version the check read. */
export const repairBalance = (balance: BalanceRecord, replayed: ReplayedBalance, audit: AuditRecord): Promise<boolean> =>
  repaired(audit, [
    {
      Update: {
        TableName: tableName(),
        Key: { pk: balance.pk, sk: balance.sk },
        UpdateExpression: 'SET quantity = :quantity, totalCost = :cost, averageCost = :average, lastCost = :last, version = :version',
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: {
          ':quantity': storedDecimal(replayed.quantity, QUANTITY_PLACES),
          ':cost': storedDecimal(replayed.value, VALUE_PLACES),
          ':average': storedDecimal(replayed.averageCost, UNIT_COST_PLACES),
          ':last': storedDecimal(replayed.lastCost, UNIT_COST_PLACES),
          ':version': replayed.version,
          ':read': balance.version,
        },
      },
    },
  ]);

/** The warehouse's totals set to its balances' sums, while they are still what the check read. */
export const repairWarehouseTotals = (warehouse: WarehouseRecord, totals: WarehouseTotals, audit: AuditRecord): Promise<boolean> =>
  repaired(audit, [
    {
      Update: {
        TableName: tableName(),
        Key: { pk: warehouse.pk, sk: warehouse.sk },
        UpdateExpression: 'SET totalItems = :items, totalProducts = :products, totalValue = :value, totalReplacementValue = :replacement',
        ConditionExpression: 'attribute_exists(pk) AND totalItems = :readItems AND totalValue = :readValue',
        ExpressionAttributeValues: {
          ':items': storedDecimal(totals.totalItems, QUANTITY_PLACES),
          ':products': totals.totalProducts,
          ':value': storedDecimal(totals.totalValue, VALUE_PLACES),
          ':replacement': storedDecimal(totals.totalReplacementValue, VALUE_PLACES),
          ':readItems': storedDecimal(warehouse.totalItems, QUANTITY_PLACES),
          ':readValue': storedDecimal(warehouse.totalValue, VALUE_PLACES),
        },
      },
    },
  ]);

export const repairOnHand = (product: ProductRecord, onHand: bigint, audit: AuditRecord): Promise<boolean> =>
  repaired(audit, [
    {
      Update: {
        TableName: tableName(),
        Key: { pk: product.pk, sk: product.sk },
        UpdateExpression: 'SET onHand = :onHand',
        ConditionExpression: 'attribute_exists(pk) AND onHand = :read',
        ExpressionAttributeValues: { ':onHand': storedDecimal(onHand, QUANTITY_PLACES), ':read': storedDecimal(product.onHand, QUANTITY_PLACES) },
      },
    },
  ]);

export const repairCount = (counter: CounterRecord, count: number, audit: AuditRecord): Promise<boolean> =>
  repaired(audit, [
    {
      Update: {
        TableName: tableName(),
        Key: { pk: counter.pk, sk: counter.sk },
        UpdateExpression: 'SET #count = :count',
        ConditionExpression: counter.count === undefined ? 'attribute_not_exists(#count)' : '#count = :read',
        ExpressionAttributeNames: { '#count': counter.attribute },
        ExpressionAttributeValues: { ':count': count, ...(counter.count === undefined ? {} : { ':read': counter.count }) },
      },
    },
  ]);

/**
 * A daily sales counter set to the sum of its day's SALE movements, and marked pending again
 * so that the roll-up folds the difference into the product's series (it adds units less
 * rolledUnits); while it still holds the units the check read (absent: not yet written).
 */
export const repairSalesDay = (
  counter: ItemKey & { day: string; productId: string; units: bigint | undefined },
  tenantId: string,
  units: bigint,
  audit: AuditRecord,
): Promise<boolean> =>
  repaired(audit, [
    {
      Update: {
        TableName: tableName(),
        Key: { pk: counter.pk, sk: counter.sk },
        // As a SALE leaves it (lib/inventory/repository), with the units its movements sum to.
        UpdateExpression: 'SET units = :units, tenantId = :tenant, productId = :product, #day = :day, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
        ConditionExpression: counter.units === undefined ? 'attribute_not_exists(pk)' : 'units = :read',
        ExpressionAttributeNames: { '#day': 'day' },
        ExpressionAttributeValues: {
          ':units': storedDecimal(units, QUANTITY_PLACES),
          ':tenant': tenantId,
          ':product': counter.productId,
          ':day': counter.day,
          ...Object.fromEntries(
            Object.entries(gsi1.salesPending(shardOf(tenantId, counter.productId), counter.day, tenantId, counter.productId)).map(([name, value]) => [
              `:${name}`,
              value,
            ]),
          ),
          ...(counter.units === undefined ? {} : { ':read': storedDecimal(counter.units, QUANTITY_PLACES) }),
        },
      },
    },
  ]);

/** An orphaned sentinel removed, while it still points where the check read. */
export const removeSentinel = (sentinel: SentinelRecord, pointer: 'supplierId' | 'productId' | 'categoryId', audit: AuditRecord): Promise<boolean> =>
  repaired(audit, [
    {
      Delete: {
        TableName: tableName(),
        Key: { pk: sentinel.pk, sk: sentinel.sk },
        ConditionExpression: '#pointer = :read',
        ExpressionAttributeNames: { '#pointer': pointer },
        ExpressionAttributeValues: { ':read': sentinel.pointsTo },
      },
    },
  ]);

/** A product's entry in a window written from the product, while its coverage state is the version the check read. */
export const putCoverageEntry = (
  tenantId: string,
  product: ProductRecord,
  days: number,
  entry: { sk: string; onHand: bigint; sold: bigint },
  audit: AuditRecord,
): Promise<boolean> =>
  repaired(audit, [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.coverageEntry(tenantId, days, entry.sk),
          name: product.name,
          onHand: storedDecimal(entry.onHand, QUANTITY_PLACES),
          sold: storedDecimal(entry.sold, 0),
        },
      },
    },
    {
      ConditionCheck: {
        TableName: tableName(),
        Key: { pk: product.pk, sk: product.sk },
        ConditionExpression: 'coverageVersion = :version',
        ExpressionAttributeValues: { ':version': product.coverageVersion },
      },
    },
  ]);

/** An entry that is no product's place removed, while it holds what the check read. */
export const removeCoverageEntry = (entry: CoverageEntryRecord, audit: AuditRecord): Promise<boolean> =>
  repaired(audit, [
    {
      Delete: {
        TableName: tableName(),
        Key: { pk: entry.pk, sk: entry.sk },
        ConditionExpression: 'onHand = :onHand AND sold = :sold',
        ExpressionAttributeValues: { ':onHand': storedDecimal(entry.onHand, QUANTITY_PLACES), ':sold': storedDecimal(entry.sold, 0) },
      },
    },
  ]);

/**
 * The ids a searchable list finds: its chunks' records with every later delta applied (a
 * tombstone removes its id), as a search computes them; undefined for a list never built (a
 * search then reads the records themselves, so it cannot drift).
 */
export async function readIndexedIds(tenantId: string, list: SearchList): Promise<Set<string> | undefined> {
  const log = await readSearchLog(tenantId, list);
  if (!log.manifest) return undefined;
  const { generation, versions } = log.manifest;
  const chunks = await readSearchChunks(
    tenantId,
    list,
    generation,
    [...versions.keys()].filter((chunk) => (versions[chunk] as number) > 0),
  );
  const records = new Map<string, VersionedRecord>();
  for (const chunk of chunks.values()) for (const record of chunk.records) records.set(record.id, later(records.get(record.id), record) as VersionedRecord);
  for (const { record } of log.deltas) records.set(record.id, later(records.get(record.id), record) as VersionedRecord);
  return new Set([...records.values()].filter((record) => !isTombstone(record)).map((record) => record.id));
}
