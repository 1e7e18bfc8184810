import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { Conflict, NotFound } from '../errors';
import { coverageOrder, DEFAULT_UNIT, INDEXED_COVERAGE_DAYS, type Product, type ProductStatus, type ProductUnit } from './model';
import { INVENTORY_ITEMS } from '../db/item-types';
import { auditItems } from '../audit/repository';
import { completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';
import { settleAll } from '../domain/concurrency';
import { formatScaled, MONEY_PLACES, QUANTITY_PLACES } from '../domain/decimal';
import { getMany } from '../db/batch';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { db, tableName, type TransactItem } from '../db/client';
import { failedConditions } from '../db/conditions';
import { keys } from '../db/keys';
import { queryAll, queryPage } from '../db/query';
import { normalizeText } from '../db/name-order';
import { FIELD_SEPARATOR, type SearchRecord } from '../search/model';
import { searchDeltaPut } from '../search/repository';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { categoryCountChange } from '../categories/repository';
import { linkCount, noLinksCheck } from '../supplier-products/repository';
import { coverageEntryWrites, coverageStateOf, coverageVersionCondition, newProductCoverage, registerCoverageTenant } from './coverage-repository';

/**
 * The product as master data: its item, the sentinels that keep its SKU and its GTIN unique in
 * the tenant, its entry in the list of its status, its search record and its coverage entries.
 * Each holds the product's listing (every field but the stock), so a list page, a barcode
 * lookup and a search page are each one read; every create, change and delete writes them
 * all in one transaction with its audit entry, so they never disagree (lib/integrity checks).
 */

/** A product without its stock: what its sentinels and list entries hold and a view shows. */
export type ProductListing = Omit<Product, 'onHand'>;

/** The product's optional fields: stored only when set (null is absent). */
const OPTIONAL_TEXT = ['description', 'brand', 'gtin', 'ncm', 'cest', 'categoryId'] as const;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The listing an item holds (the product item, a sentinel or a list entry). An item written
 * before products had these fields reads with their defaults: no optional field, UN, ACTIVE,
 * changed when created, version 1.
 */
export function listingOf(item: Record<string, unknown>): ProductListing {
  const createdAt = String(item.createdAt);
  return {
    id: String(item.productId ?? item.id),
    sku: String(item.sku),
    name: String(item.name),
    description: text(item.description),
    brand: text(item.brand),
    unit: (typeof item.unit === 'string' ? item.unit : DEFAULT_UNIT) as ProductUnit,
    gtin: text(item.gtin),
    ncm: text(item.ncm),
    cest: text(item.cest),
    salePrice: item.salePrice === undefined || item.salePrice === null ? null : scaledFrom(item.salePrice, MONEY_PLACES),
    status: item.status === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE',
    categoryId: text(item.categoryId),
    createdAt,
    updatedAt: typeof item.updatedAt === 'string' ? item.updatedAt : createdAt,
    version: typeof item.version === 'number' ? item.version : 1,
  };
}

/** A product item as a Product (its listing and its on-hand quantity). */
export const toProduct = (item: Record<string, unknown>): Product => ({ ...listingOf(item), onHand: scaledFrom(item.onHand, QUANTITY_PLACES) });

/** The listing as items store it: the optional fields only when set, the price an exact decimal. */
function listingAttributes(listing: ProductListing): Record<string, unknown> {
  const attributes: Record<string, unknown> = {
    id: listing.id,
    sku: listing.sku,
    name: listing.name,
    unit: listing.unit,
    status: listing.status,
    createdAt: listing.createdAt,
    updatedAt: listing.updatedAt,
    version: listing.version,
  };
  for (const field of OPTIONAL_TEXT) if (listing[field] !== null) attributes[field] = listing[field];
  if (listing.salePrice !== null) attributes.salePrice = storedDecimal(listing.salePrice, MONEY_PLACES);
  return attributes;
}

/** A product's entry in the list of its status (the migration writes those of products from before the lists). */
export const statusEntryItem = (tenantId: string, listing: ProductListing): Record<string, unknown> => ({
  ...keys.productStatusEntry(tenantId, listing.status, listing.sku),
  type: INVENTORY_ITEMS.productStatusEntry,
  ...listingAttributes(listing),
  productId: listing.id,
});

/** A product's entries in its category's lists, every status (`ALL`) and its own (none without a category). */
export const categoryEntryItems = (tenantId: string, listing: ProductListing): Record<string, unknown>[] =>
  listing.categoryId === null
    ? []
    : ['ALL', listing.status].map((list) => ({
        ...keys.productCategoryEntry(tenantId, listing.categoryId as string, list, listing.sku),
        type: INVENTORY_ITEMS.productCategoryEntry,
        ...listingAttributes(listing),
        productId: listing.id,
      }));

/** The keys of the category entries `before` had and `after` no longer has at the same place. */
function movedCategoryEntries(tenantId: string, before: ProductListing, after: ProductListing): TransactItem[] {
  if (before.categoryId === null) return [];
  const kept = new Set(after.categoryId === null ? [] : ['ALL', after.status].map((list) => `${after.categoryId}#${list}#${after.sku}`));
  return ['ALL', before.status]
    .filter((list) => !kept.has(`${before.categoryId}#${list}#${before.sku}`))
    .map((list) => ({ Delete: { TableName: tableName(), Key: keys.productCategoryEntry(tenantId, before.categoryId as string, list, before.sku) } }));
}

/** The puts of the listing's copies: its SKU sentinel, its status list entry, its category list entries and its GTIN sentinel (each conditioned as `conditions` says). */
function listingPuts(
  tenantId: string,
  listing: ProductListing,
  conditions: { sku: boolean; gtin: boolean },
): { items: TransactItem[]; skuAt: number; gtinAt?: number } {
  const attributes = { ...listingAttributes(listing), productId: listing.id };
  const fresh = 'attribute_not_exists(pk)';
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.productSku(tenantId, listing.sku), type: INVENTORY_ITEMS.productSku, ...attributes },
        ...(conditions.sku ? { ConditionExpression: fresh } : {}),
      },
    },
    { Put: { TableName: tableName(), Item: statusEntryItem(tenantId, listing) } },
    ...categoryEntryItems(tenantId, listing).map((Item) => ({ Put: { TableName: tableName(), Item } })),
  ];
  if (listing.gtin === null) return { items, skuAt: 0 };
  items.push({
    Put: {
      TableName: tableName(),
      Item: { ...keys.productGtin(tenantId, listing.gtin), type: INVENTORY_ITEMS.productGtin, ...attributes },
      ...(conditions.gtin ? { ConditionExpression: fresh } : {}),
    },
  });
  return { items, skuAt: 0, gtinAt: items.length - 1 };
}

/**
 * The characters of a description a search record keeps: enough for a list, short enough
 * that a chunk of a few hundred records stays far under DynamoDB's 400 KB item limit. A
 * longer description is cut and marked, and a search page reads those products' items.
 */
export const SEARCH_DESCRIPTION_CHARACTERS = 160;

/**
 * A product as the in-memory search holds it (lib/search): by SKU; the SKU, the name and the
 * brand normalized as the text a query matches, the GTIN as digits; its view the listing as
 * items store it (the price an exact decimal text), the description cut to
 * SEARCH_DESCRIPTION_CHARACTERS and marked `descriptionCut` when it was longer. A search page
 * is then one read of the log, plus one BatchGetItem only for the cut ones.
 */
export function productSearchRecord(listing: ProductListing): SearchRecord {
  const { salePrice, description } = listing;
  const cut = description !== null && description.length > SEARCH_DESCRIPTION_CHARACTERS;
  const view: Record<string, unknown> = {
    ...listingAttributes({ ...listing, salePrice: null, description: cut ? description.slice(0, SEARCH_DESCRIPTION_CHARACTERS) : description }),
    ...(salePrice === null ? {} : { salePrice: formatScaled(salePrice, MONEY_PLACES) }),
    ...(cut ? { descriptionCut: true } : {}),
  };
  return {
    id: listing.id,
    version: listing.version,
    key: listing.sku,
    words: [normalizeText(listing.sku), normalizeText(listing.name), normalizeText(listing.brand ?? '')].join(FIELD_SEPARATOR),
    digits: listing.gtin ?? '',
    view: JSON.stringify(view),
  };
}

/** The view a search record holds: an object from the listing; a record written before it held one holds `[status]`. */
const searchView = (record: SearchRecord): unknown => JSON.parse(record.view) as unknown;

/** What a list filters a search record on: its status and category (a record written before it held them: ACTIVE unless it says INACTIVE, no category). */
export function searchRecordFilters(record: SearchRecord): { status: ProductStatus; categoryId: string | null } {
  const view = searchView(record);
  const held: { status?: unknown; categoryId?: unknown } = Array.isArray(view) ? { status: (view as unknown[])[0] } : (view as object);
  return { status: held.status === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE', categoryId: typeof held.categoryId === 'string' ? held.categoryId : null };
}

/** The whole listing a search record holds; undefined when its description was cut, or it is from before records held listings (read its item). */
export function searchRecordListing(record: SearchRecord): ProductListing | undefined {
  const view = searchView(record);
  if (Array.isArray(view) || (view as { descriptionCut?: unknown }).descriptionCut === true) return undefined;
  return listingOf(view as Record<string, unknown>);
}

/** Every product of the tenant as the search holds it, from the SKU sentinels (a list's first search builds its chunks from these). */
async function readAllProductRecords(tenantId: string): Promise<SearchRecord[]> {
  const { pk, skPrefix } = keys.productSkusOfTenant(tenantId);
  return (await completeListings(tenantId, await queryAll(pk, { skPrefix, consistent: true }))).map(productSearchRecord);
}

/** The products' list for lib/search/engine. */
export const productSearchSource = { list: 'products', readAll: readAllProductRecords } as const;

/** Why a GTIN sentinel refused: the product that holds the GTIN, named. */
async function gtinTaken(tenantId: string, gtin: string): Promise<Conflict> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.productGtin(tenantId, gtin), ConsistentRead: true }));
  const holder = Item ? listingOf(Item) : undefined;
  return new Conflict(
    holder
      ? `The GTIN '${gtin}' is already used by product '${holder.sku}' (${holder.id})`
      : `The GTIN '${gtin}' is already used by another product of this tenant`,
  );
}

/**
 * A product in one transaction: its item (with its coverage state), its SKU and GTIN
 * sentinels (409 when the tenant already has either), its status list entry, its coverage
 * entries, its search record and its audit entry. The tenant is registered for the coverage
 * job beside it (the same item for every product, so not in the transaction, where concurrent
 * creates would conflict on it; a registration left by a create that then fails is harmless).
 */
export async function insertProduct(tenantId: string, product: Product, audit: AuditRecord, key?: KeyCompletion): Promise<void> {
  const coverage = newProductCoverage(tenantId, product);
  const listing = listingPuts(tenantId, product, { sku: true, gtin: true });
  const items: TransactItem[] = [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.product(tenantId, product.id),
          type: INVENTORY_ITEMS.product,
          ...listingAttributes(product),
          onHand: storedDecimal(product.onHand, QUANTITY_PLACES),
          ...coverage.attributes,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...listing.items,
  ];
  const categoryAt = product.categoryId === null ? undefined : items.length;
  if (product.categoryId !== null) items.push(categoryCountChange(tenantId, product.categoryId, 1));
  const keyAt = items.length + coverage.writes.length;
  items.push(...coverage.writes, ...completionItems(key), searchDeltaPut(tenantId, 'products', productSearchRecord(product)), ...auditItems(audit));
  const write = () =>
    // Products put in one category at once meet on its count: a transaction that lost that race is tried again.
    withOptimisticRetries<undefined>(async () => {
      try {
        await db().send(new TransactWriteCommand({ TransactItems: items }));
        return { retry: false, value: undefined };
      } catch (error) {
        if (cancellationCodes(error).includes('TransactionConflict')) return { retry: true };
        throw error;
      }
    });
  try {
    // In parallel, but settled both before answering: the transaction's error first (its
    // conditions name a taken SKU, GTIN or key), the registry's otherwise.
    await settleAll([write(), registerCoverageTenant(tenantId)]);
  } catch (error) {
    keyTakenOver(error, keyAt);
    const failed = failedConditions(error);
    if (failed?.includes(1 + listing.skuAt)) throw new Conflict(`The SKU '${product.sku}' is already used in this tenant`);
    if (listing.gtinAt !== undefined && product.gtin !== null && failed?.includes(1 + listing.gtinAt)) throw await gtinTaken(tenantId, product.gtin);
    if (categoryAt !== undefined && failed?.includes(categoryAt)) throw new NotFound('No such category');
    throw error;
  }
}

/** One product of a tenant (consistent), or none. */
export async function findProduct(tenantId: string, productId: string): Promise<Product | undefined> {
  const item = await readProductItem(tenantId, productId);
  return item ? toProduct(item) : undefined;
}

async function readProductItem(tenantId: string, productId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.product(tenantId, productId), ConsistentRead: true }));
  return Item;
}

/** The product that has `gtin` in the tenant, from its sentinel: one consistent read. */
export async function findProductByGtin(tenantId: string, gtin: string): Promise<ProductListing | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.productGtin(tenantId, gtin), ConsistentRead: true }));
  return Item ? listingOf(Item) : undefined;
}

/** The product that has `sku` in the tenant, from its sentinel: one consistent read. */
export async function findProductBySku(tenantId: string, sku: string): Promise<ProductListing | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.productSku(tenantId, sku), ConsistentRead: true }));
  return Item && typeof Item.name === 'string' ? listingOf(Item) : Item ? findProduct(tenantId, String(Item.productId ?? Item.id)) : undefined;
}

/** Products by id, read from their items in one consistent BatchGetItem per 100 (a search page's products), in the order of `ids`; one gone meanwhile is left out. */
export async function readProductListings(tenantId: string, ids: readonly string[]): Promise<ProductListing[]> {
  const items = await getMany(ids.map((id) => keys.product(tenantId, id)));
  return items.flatMap((item) => (item ? [listingOf(item)] : []));
}

/**
 * A page of the tenant's products by SKU (code-point order), after the entry `afterSk`: one
 * Query of the SKU sentinels (every product), of the list of one status, or of one of a
 * category's lists (every status, or one). A sentinel written
 * before sentinels held the listing (no `name`) is completed from its product item.
 */
export async function listProductPage(
  tenantId: string,
  status: ProductStatus | 'ALL',
  page: { limit: number; afterSk?: string },
  categoryId?: string,
): Promise<{ items: ProductListing[]; lastSk?: string }> {
  const { pk, skPrefix } =
    categoryId !== undefined
      ? keys.productCategoryList(tenantId, categoryId, status)
      : status === 'ALL'
        ? keys.productSkusOfTenant(tenantId)
        : keys.productStatusList(tenantId, status);
  const { items, more } = await queryPage(pk, { ...page, skPrefix });
  return { items: await completeListings(tenantId, items), ...(more ? { lastSk: items.at(-1)?.sk as string } : {}) };
}

/** The listings of list items, in their order; one written before they held the listing (no `name`) is completed from its product item. */
async function completeListings(tenantId: string, items: Record<string, unknown>[]): Promise<ProductListing[]> {
  const legacy = items.filter((item) => item.name === undefined);
  const completed = new Map(
    (await getMany(legacy.map((item) => keys.product(tenantId, String(item.productId))))).flatMap((item) => (item ? [[String(item.id), item]] : [])),
  );
  return items.flatMap((item) => {
    const source = item.name === undefined ? completed.get(String(item.productId)) : item;
    return source ? [listingOf(source)] : [];
  });
}

/** Which of `skus` a product of the tenant already has (their sentinels), for an import's dry run. */
export async function takenProductSkus(tenantId: string, skus: readonly string[]): Promise<Set<string>> {
  const found = await getMany(skus.map((sku) => keys.productSku(tenantId, sku)));
  return new Set(skus.filter((_, index) => found[index] !== undefined));
}

/** What a change of a product decides from the product as read: the new listing, or an error to throw. */
export type ProductChange = (current: Product) => ProductListing;

/**
 * Change a product: read it, let `change` compute its new listing (it throws for a stale
 * If-Match or a change the stock does not allow), and write, in ONE transaction conditioned
 * on the version and the coverage version read: the item's fields, its SKU sentinel (moved
 * when the SKU changed: 409 when the new one is taken), its status list entry, its GTIN
 * sentinel (moved or freed; 409 naming the product that has a taken one), its coverage
 * entries (they show the SKU and the name), its search record and the audit entry `audit`
 * makes of the change. A movement or another change committed meanwhile makes it read again,
 * so a movement is always recorded against the status and the unit it read.
 */
export async function modifyProduct(
  tenantId: string,
  productId: string,
  change: ProductChange,
  audit: (before: ProductListing, after: ProductListing) => AuditRecord,
): Promise<ProductListing> {
  return withOptimisticRetries<ProductListing>(async () => {
    const item = await readProductItem(tenantId, productId);
    if (!item) throw new NotFound('No such product');
    const before = toProduct(item);
    const after = change(before);
    const state = coverageStateOf(item);
    const { condition, values } = coverageVersionCondition(state.version);
    const set = { ...listingAttributes(after), coverageVersion: state.version + 1 };
    const removed = [...OPTIONAL_TEXT, 'salePrice'].filter((field) => !(field in set));
    const names: Record<string, string> = {};
    const assignments = Object.entries(set).map(([field, value], index) => {
      names[`#s${index}`] = field;
      return [`#s${index} = :s${index}`, [`:s${index}`, value]] as const;
    });
    removed.forEach((field, index) => (names[`#r${index}`] = field));
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.product(tenantId, productId),
          UpdateExpression: `SET ${assignments.map(([clause]) => clause).join(', ')}${removed.length ? ` REMOVE ${removed.map((_, index) => `#r${index}`).join(', ')}` : ''}`,
          ConditionExpression: `attribute_exists(pk) AND ${atVersion(before.version)} AND ${condition}`,
          ExpressionAttributeNames: { ...names, '#version': 'version' },
          ExpressionAttributeValues: { ...Object.fromEntries(assignments.map(([, value]) => value)), ':version': before.version, ...values },
        },
      },
    ];
    const listing = listingPuts(tenantId, after, { sku: after.sku !== before.sku, gtin: after.gtin !== before.gtin });
    const listingAt = items.length;
    items.push(...listing.items);
    if (after.sku !== before.sku) items.push({ Delete: { TableName: tableName(), Key: keys.productSku(tenantId, before.sku) } });
    if (after.sku !== before.sku || after.status !== before.status) {
      items.push({ Delete: { TableName: tableName(), Key: keys.productStatusEntry(tenantId, before.status, before.sku) } });
    }
    if (before.gtin !== null && after.gtin !== before.gtin) items.push({ Delete: { TableName: tableName(), Key: keys.productGtin(tenantId, before.gtin) } });
    items.push(...movedCategoryEntries(tenantId, before, after));
    let categoryAt: number | undefined;
    if (after.categoryId !== before.categoryId) {
      if (before.categoryId !== null) items.push(categoryCountChange(tenantId, before.categoryId, -1));
      if (after.categoryId !== null) {
        categoryAt = items.length;
        items.push(categoryCountChange(tenantId, after.categoryId, 1));
      }
    }
    if (state.sold && (after.sku !== before.sku || after.name !== before.name)) {
      items.push(
        ...coverageEntryWrites(tenantId, after, { onHand: before.onHand, sold: state.sold, product: before }, { onHand: before.onHand, sold: state.sold }),
      );
    }
    items.push(searchDeltaPut(tenantId, 'products', productSearchRecord(after)), ...auditItems(audit(before, after)));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: after };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return { retry: true };
      if (codes[listingAt + listing.skuAt] === 'ConditionalCheckFailed') throw new Conflict(`The SKU '${after.sku}' is already used in this tenant`);
      if (listing.gtinAt !== undefined && after.gtin !== null && codes[listingAt + listing.gtinAt] === 'ConditionalCheckFailed') {
        throw await gtinTaken(tenantId, after.gtin);
      }
      if (categoryAt !== undefined && codes[categoryAt] === 'ConditionalCheckFailed') throw new NotFound('No such category');
      throw error;
    }
  });
}

/** The condition that the product item is still at `version` (an item from before versions has none: version 1). */
const atVersion = (version: number): string => (version === 1 ? '(attribute_not_exists(#version) OR #version = :version)' : '#version = :version');

/** Whether the product has any movement: the first entry of its stock history (one item read). */
async function hasMovements(tenantId: string, productId: string): Promise<boolean> {
  const { items } = await queryPage(keys.historyOf(tenantId, { productId }).pk, { limit: 1, consistent: true });
  return items.length > 0;
}

/**
 * Delete a product that never had a movement, in one transaction conditioned on the version
 * and the coverage version read (a movement recorded meanwhile bumps the latter, so the delete
 * reads again and finds it): the item, its sentinels, its list entry, its coverage entries, a
 * search tombstone and the audit entry. 409 for a product with movements (it has a history:
 * deactivate it), 404 for none.
 */
export async function removeProduct(tenantId: string, productId: string, audit: (product: ProductListing) => AuditRecord): Promise<void> {
  await withOptimisticRetries<undefined>(async () => {
    const item = await readProductItem(tenantId, productId);
    if (!item) throw new NotFound('No such product');
    const product = toProduct(item);
    if (product.onHand !== 0n || (await hasMovements(tenantId, productId))) {
      throw new Conflict('The product has stock movements, so it keeps its history: deactivate it (status INACTIVE) instead');
    }
    const links = await linkCount(tenantId, 'product', productId);
    if (links > 0) throw new Conflict(`${links} supplier${links === 1 ? ' sells' : 's sell'} the product: remove it from them before deleting it`);
    const state = coverageStateOf(item);
    const { condition, values } = coverageVersionCondition(state.version);
    const entries = state.sold
      ? INDEXED_COVERAGE_DAYS.map((days) => keys.coverageEntry(tenantId, days, coverageOrder(product, state.sold?.get(days) ?? 0n, days)))
      : [];
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: tableName(),
          Key: keys.product(tenantId, productId),
          ConditionExpression: `attribute_exists(pk) AND ${atVersion(product.version)} AND ${condition}`,
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': product.version, ...values },
        },
      },
      { Delete: { TableName: tableName(), Key: keys.productSku(tenantId, product.sku) } },
      { Delete: { TableName: tableName(), Key: keys.productStatusEntry(tenantId, product.status, product.sku) } },
      ...(product.gtin === null ? [] : [{ Delete: { TableName: tableName(), Key: keys.productGtin(tenantId, product.gtin) } }]),
      ...categoryEntryItems(tenantId, product).map((entry) => ({
        Delete: { TableName: tableName(), Key: { pk: entry.pk as string, sk: entry.sk as string } },
      })),
      ...(product.categoryId === null ? [] : [categoryCountChange(tenantId, product.categoryId, -1)]),
      ...entries.map((Key) => ({ Delete: { TableName: tableName(), Key } })),
      searchDeltaPut(tenantId, 'products', { id: productId, version: product.version + 1, gone: true }),
      // A supplier linked meanwhile fails the delete, which reads again and refuses.
      noLinksCheck(tenantId, 'product', productId),
    ];
    const linksAt = items.length - 1;
    items.push(...auditItems(audit(product)));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: undefined };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed' || codes[linksAt] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}
