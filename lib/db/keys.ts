import type { AuditScope } from '../audit/model';
import type { IdempotencyCaller } from '../idempotency/model';

/**
 * Pure key builders: one function per item kind or access pattern, nothing else. Every
 * tenant-owned key starts with `TENANT#<tenantId>`, so no read can cross tenants by
 * accident. Global sentinels (`EMAIL#`, `TENANT_NAME#`) exist only to make a value unique
 * across the whole service through a conditional put.
 */

export interface Key {
  pk: string;
  sk: string;
}

/** The partition key prefix of every credentials item: what the IAM policies name. */
export const CREDENTIALS_PK_PREFIX = 'CREDENTIALS#';

/** The partition key prefix of every webhook endpoint's signing secrets. */
export const WEBHOOK_SECRETS_PK_PREFIX = 'WEBHOOK_SECRETS#';

/** How many index partitions the pending webhook deliveries are spread over (gsi1 `webhookDue`). */
export const WEBHOOK_DUE_SHARDS = 4;

const tenantPk = (tenantId: string) => `TENANT#${tenantId}`;
const userPk = (tenantId: string, userId: string) => `TENANT#${tenantId}#USER#${userId}`;

/** The lists the in-memory search serves (lib/search). */
export type SearchList = 'suppliers' | 'products';

/** The partition keys of the search's logs and chunks, as IAM conditions match them: what a searching function may write. */
export const SEARCH_PK_PATTERNS = ['TENANT#*#SEARCH#*', 'TENANT#*#SEARCH_CHUNKS#*'] as const;

/** Which stock-history list: the filters given (a movement is in the eight lists of its own values). */
export interface HistoryScope {
  productId?: string;
  warehouseId?: string;
  type?: string;
}
const historyPk = (tenantId: string, { productId, warehouseId, type }: HistoryScope) =>
  `${tenantPk(tenantId)}#MOVEMENTS#${productId ?? '*'}#${warehouseId ?? '*'}${type ? `#${type}` : ''}`;

const INCIDENTS_PK = 'PLATFORM#INCIDENTS';
const TENANT_DELETIONS_PK = 'TENANT_DELETIONS';

/**
 * How the partitions that are not a tenant's by their key begin (lib/tenant-jobs/ownership
 * finds a tenant's items among them by attribute): the platform's own (its audit trail and
 * incident register, kept when a tenant is deleted), the coverage job's tenant list, the
 * rate-limit counters.
 */
export const PLATFORM_PK_PREFIX = 'PLATFORM#';
export const COVERAGE_TENANTS_PK_PREFIX = 'COVERAGE_TENANTS#';
export const RATE_PK_PREFIX = 'RATE#';
/** The tenant jobs' Scan positions (`scanPosition`): never a tenant's items. */
export const SCAN_POSITION_PK_PREFIX = 'SCAN_POSITION#';
/** Every partition a tenant owns by its key: its own, each `TENANT#<id>#…`, its users' credentials and its endpoints' secrets. */
export const tenantPartitionPrefixes = (tenantId: string) => ({
  exact: tenantPk(tenantId),
  prefixes: [`${tenantPk(tenantId)}#`, `${CREDENTIALS_PK_PREFIX}${tenantId}#`, `${WEBHOOK_SECRETS_PK_PREFIX}${tenantId}#`],
});

const auditPk = (trail: AuditScope) => (trail === 'platform' ? 'PLATFORM#AUDIT' : `${tenantPk(trail.tenantId)}#AUDIT`);
/** Audit entries sort by time (an instant's prefix bounds every id at it), so a range is a key condition. */
const auditSk = (occurredAt: string, entryId: string) => `${occurredAt}#${entryId}`;

/** The coverage index marker's sort key (before every entry's). */
export const COVERAGE_MARKER_SK = '#CURRENT';
export const COVERAGE_TENANT_SHARDS = 8;

/** A stable shard of a string, from 0 to `shards` - 1 (a 31-multiplier hash of its UTF-16 units). */
export function stringShard(value: string, shards: number): number {
  let hash = 0;
  for (const char of value) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % shards;
}

/** The partitions of API keys' last-use addresses (`apiKeyUse`): the authorizer's grant to write their TTL names them. */
export const API_KEY_USE_PK_PREFIX = 'APIKEY_USE#';

export const keys = {
  tenant: (tenantId: string): Key => ({ pk: tenantPk(tenantId), sk: 'PROFILE' }),
  /** Sentinel that makes a tenant name (slug) unique. */
  tenantName: (name: string): Key => ({ pk: `TENANT_NAME#${name}`, sk: 'UNIQUE' }),

  user: (tenantId: string, userId: string): Key => ({ pk: tenantPk(tenantId), sk: `USER#${userId}` }),
  /** A user's entry in the tenant's list by name (`sortName`: lib/db/name-order), holding its id. */
  userListing: (tenantId: string, sortName: string, userId: string): Key => ({ pk: `${tenantPk(tenantId)}#USERS`, sk: `${sortName}#${userId}` }),
  userListingOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#USERS` }),
  /**
   * How many administrators the tenant has: every role change and removal of an
   * administrator updates it in its own transaction, conditioned on leaving at least one.
   */
  tenantAdmins: (tenantId: string): Key => ({ pk: tenantPk(tenantId), sk: 'STATS#ADMINS' }),
  /** Query prefix for every user of a tenant. */
  usersOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'USER#' }),
  /**
   * A user's secrets (password hash, second factor, reset token): a partition of their own,
   * outside the tenant's, so that IAM can refuse it to every function that does not check
   * credentials (`CREDENTIALS_PK_PREFIX`, infra/constructs/functions).
   */
  credentials: (tenantId: string, userId: string): Key => ({ pk: `${CREDENTIALS_PK_PREFIX}${tenantId}#${userId}`, sk: 'SECRETS' }),
  /** Sentinel that makes an e-mail unique service-wide and finds its user at login. */
  email: (email: string): Key => ({ pk: `EMAIL#${email}`, sk: 'UNIQUE' }),

  session: (tenantId: string, userId: string, sessionId: string): Key => ({
    pk: userPk(tenantId, userId),
    sk: `SESSION#${sessionId}`,
  }),
  /** Query prefix for every session of one user. */
  sessionsOfUser: (tenantId: string, userId: string) => ({ pk: userPk(tenantId, userId), skPrefix: 'SESSION#' }),
  /**
   * The whole partition of one user's own items: its sessions, the blacklisted jtis of its
   * logouts and its Idempotency-Keys' records (what anonymizing a removed user deletes).
   */
  userPartition: (tenantId: string, userId: string) => ({ pk: userPk(tenantId, userId) }),
  /** Blacklist entry of a logged-out access token, kept until the token expires. */
  revokedJti: (tenantId: string, userId: string, jti: string): Key => ({ pk: userPk(tenantId, userId), sk: `REVOKED_JTI#${jti}` }),

  invitation: (tenantId: string, email: string): Key => ({ pk: tenantPk(tenantId), sk: `INVITATION#${email}` }),
  invitationsOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'INVITATION#' }),

  /** Companies live under their tenant; `begins_with(sk, 'COMPANY#')` lists them. */
  company: (tenantId: string, companyId: string): Key => ({ pk: tenantPk(tenantId), sk: `COMPANY#${companyId}` }),
  companiesOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'COMPANY#' }),
  /** A company's entry in the tenant's list, oldest first (the company itself is read by id). */
  companyListing: (tenantId: string, createdAt: string, companyId: string): Key => ({ pk: `${tenantPk(tenantId)}#COMPANIES`, sk: `${createdAt}#${companyId}` }),
  companyListingOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#COMPANIES` }),
  /** Sentinel that makes a company's CPF/CNPJ unique across every tenant. */
  companyDocument: (document: string): Key => ({ pk: `COMPANY_DOCUMENT#${document}`, sk: 'UNIQUE' }),

  /** A supplier (full item). */
  supplier: (tenantId: string, supplierId: string): Key => ({ pk: tenantPk(tenantId), sk: `SUPPLIER#${supplierId}` }),
  /** Sentinel that makes a supplier document unique within its tenant. */
  supplierDocument: (tenantId: string, document: string): Key => ({ pk: tenantPk(tenantId), sk: `SUPPLIER_DOCUMENT#${document}` }),
  /** The tenant's supplier count (the `total` of an unfiltered page). */
  supplierStats: (tenantId: string): Key => ({ pk: tenantPk(tenantId), sk: 'STATS#SUPPLIERS' }),
  /**
   * The compact supplier index: one small item per supplier, ordered by its normalized name
   * (`sortName`), holding only what search and paging need. A page reads index entries and
   * then only its own full items; a search reads only index entries.
   */
  supplierIndexEntry: (tenantId: string, sortName: string, supplierId: string): Key => ({
    pk: `${tenantPk(tenantId)}#SUPPLIER_INDEX`,
    sk: `${sortName}#${supplierId}`,
  }),
  supplierIndex: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#SUPPLIER_INDEX` }),
  /**
   * A block of the supplier index: the entries from `firstSk` (an index entry's sort key; ''
   * for the first block) up to the next block's, and how many there are. The blocks tile the
   * index in order, so a page deep in the list finds its place by their counts
   * (lib/suppliers/blocks-repository).
   */
  supplierBlock: (tenantId: string, firstSk: string): Key => ({ pk: `${tenantPk(tenantId)}#SUPPLIER_BLOCKS`, sk: `B#${firstSk}` }),
  supplierBlocksOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#SUPPLIER_BLOCKS` }),

  /**
   * A searchable list's log (lib/search/repository): its manifest (`M`, which chunks
   * hold which version) and, before it in key order, one delta per write since the last
   * fold (`D#<id>#<version>`), all read by one consistent Query per search.
   */
  searchManifest: (tenantId: string, list: SearchList): Key => ({ pk: `${tenantPk(tenantId)}#SEARCH#${list}`, sk: 'M' }),
  searchDelta: (tenantId: string, list: SearchList, id: string, version: number): Key => ({
    pk: `${tenantPk(tenantId)}#SEARCH#${list}`,
    sk: `D#${id}#${version}`,
  }),
  searchLogOf: (tenantId: string, list: SearchList) => ({ pk: `${tenantPk(tenantId)}#SEARCH#${list}` }),
  /** One compressed chunk of a searchable list, of the manifest's generation `generation`. */
  searchChunk: (tenantId: string, list: SearchList, generation: string, chunk: number): Key => ({
    pk: `${tenantPk(tenantId)}#SEARCH_CHUNKS#${list}`,
    sk: `${generation}#${chunk}`,
  }),

  warehouse: (tenantId: string, warehouseId: string): Key => ({ pk: tenantPk(tenantId), sk: `WAREHOUSE#${warehouseId}` }),
  warehousesOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'WAREHOUSE#' }),
  /** A warehouse's entry in the tenant's list by name (`sortName`: lib/db/name-order), holding its view. */
  warehouseListing: (tenantId: string, sortName: string, warehouseId: string): Key => ({
    pk: `${tenantPk(tenantId)}#WAREHOUSES`,
    sk: `${sortName}#${warehouseId}`,
  }),
  warehouseListingOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#WAREHOUSES` }),

  /**
   * A product, and right after it (same prefix) its rolled-up daily sales: the coverage
   * dashboard reads both kinds in one Query, a bounded two items per product.
   */
  product: (tenantId: string, productId: string): Key => ({ pk: tenantPk(tenantId), sk: `PRODUCT#${productId}` }),
  productSales: (tenantId: string, productId: string): Key => ({ pk: tenantPk(tenantId), sk: `PRODUCT#${productId}#SALES` }),
  productsOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'PRODUCT#' }),
  /**
   * Sentinel that makes a SKU unique within its tenant; it holds the product's listing (every
   * change of the product rewrites it), so the SKU-ordered sentinels are also the list of
   * every product (`status=ALL`).
   */
  productSku: (tenantId: string, sku: string): Key => ({ pk: tenantPk(tenantId), sk: `PRODUCT_SKU#${sku}` }),
  productSkusOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'PRODUCT_SKU#' }),
  /** A product's entry in the list of its status, by SKU: the same listing as its SKU sentinel. */
  productStatusEntry: (tenantId: string, status: string, sku: string): Key => ({ pk: tenantPk(tenantId), sk: `PRODUCT_STATUS#${status}#${sku}` }),
  productStatusList: (tenantId: string, status: string) => ({ pk: tenantPk(tenantId), skPrefix: `PRODUCT_STATUS#${status}#` }),
  /** Sentinel that makes a GTIN unique within its tenant, holding the product's listing: a barcode finds its product in one read. */
  productGtin: (tenantId: string, gtin: string): Key => ({ pk: tenantPk(tenantId), sk: `PRODUCT_GTIN#${gtin}` }),
  productGtinsOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'PRODUCT_GTIN#' }),
  /** A product's entries in its category's lists, by SKU: every status (`ALL`) and its own status; the same listing as its SKU sentinel. */
  productCategoryEntry: (tenantId: string, categoryId: string, status: string, sku: string): Key => ({
    pk: tenantPk(tenantId),
    sk: `PRODUCT_CATEGORY#${categoryId}#${status}#${sku}`,
  }),
  productCategoryList: (tenantId: string, categoryId: string, status: string) => ({
    pk: tenantPk(tenantId),
    skPrefix: `PRODUCT_CATEGORY#${categoryId}#${status}#`,
  }),
  productCategoryEntriesOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'PRODUCT_CATEGORY#' }),
  /** A product category: its name and the count of the products in it. */
  category: (tenantId: string, categoryId: string): Key => ({ pk: tenantPk(tenantId), sk: `CATEGORY#${categoryId}` }),
  categoriesOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'CATEGORY#' }),
  /** Sentinel that makes a category's name unique in its tenant (case- and accent-insensitive), keyed by the normalized name: in key order, the list by name. */
  categoryName: (tenantId: string, normalizedName: string): Key => ({ pk: tenantPk(tenantId), sk: `CATEGORY_NAME#${normalizedName}` }),
  categoryNamesOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'CATEGORY_NAME#' }),

  /**
   * The coverage dashboard's precomputed order for one indexed `days` window
   * (lib/inventory/coverage): one entry per product, its sort key the product's place in the
   * dashboard (`coverageOrder`), holding what its item is computed from. Every movement moves
   * its product's entries; the scheduled job moves them as the window moves.
   */
  coverageEntry: (tenantId: string, days: number, order: string): Key => ({ pk: `${tenantPk(tenantId)}#COVERAGE#${days}`, sk: order }),
  coverageIndexOf: (tenantId: string, days: number) => ({ pk: `${tenantPk(tenantId)}#COVERAGE#${days}` }),
  /**
   * The index's marker, first in its partition (`#` sorts before every order, which starts
   * with `F` or `N`): the business day every entry is current for. Absent or another day: the
   * dashboard reads in full.
   */
  coverageMarker: (tenantId: string, days: number): Key => ({ pk: `${tenantPk(tenantId)}#COVERAGE#${days}`, sk: COVERAGE_MARKER_SK }),
  /**
   * A tenant that has products, in one of COVERAGE_TENANT_SHARDS partitions: the tenants whose
   * coverage index the scheduled job keeps current (a tenant without products has none).
   */
  coverageTenant: (tenantId: string): Key => ({ pk: `COVERAGE_TENANTS#${stringShard(tenantId, COVERAGE_TENANT_SHARDS)}`, sk: tenantId }),
  coverageTenantShard: (shard: number) => ({ pk: `COVERAGE_TENANTS#${shard}` }),

  /** The balance of one product in one warehouse (quantity, total cost, version). */
  stock: (tenantId: string, productId: string, warehouseId: string): Key => ({ pk: `${tenantPk(tenantId)}#STOCK`, sk: `${productId}#${warehouseId}` }),
  /**
   * The stock history (kardex). A movement is written once into each list a filter can ask
   * for: the eight combinations of product, warehouse and type, each given or not (`*` for a
   * product or warehouse not given; a UUID is never `*`). Within a list, entries are in time
   * order, so a date range is a key condition and newest first a backward Query. The entry
   * of the product in the warehouse, every type, is the movement's record (the key it has
   * always had).
   */
  history: (tenantId: string, scope: HistoryScope, occurredAt: string, movementId: string): Key => ({
    pk: historyPk(tenantId, scope),
    sk: `${occurredAt}#${movementId}`,
  }),
  historyOf: (tenantId: string, scope: HistoryScope) => ({ pk: historyPk(tenantId, scope) }),
  /**
   * A transfer's entry in a list of the tenant's transfers, newest last in key order
   * (`occurredAt#id`): every transfer (`*#*`), of a product, of a warehouse (each side has its
   * entry), or of both. Each entry holds the whole transfer.
   */
  transferEntry: (
    tenantId: string,
    scope: { productId?: string | undefined; warehouseId?: string | undefined },
    occurredAt: string,
    transferId: string,
  ): Key => ({
    pk: `${tenantPk(tenantId)}#TRANSFERS#${scope.productId ?? '*'}#${scope.warehouseId ?? '*'}`,
    sk: `${occurredAt}#${transferId}`,
  }),
  transfersOf: (tenantId: string, scope: { productId?: string | undefined; warehouseId?: string | undefined }) => ({
    pk: `${tenantPk(tenantId)}#TRANSFERS#${scope.productId ?? '*'}#${scope.warehouseId ?? '*'}`,
  }),
  /** A transfer of several products (lib/transfers `TransferBatch`): its lines and how many have arrived. */
  transferBatch: (tenantId: string, batchId: string): Key => ({ pk: tenantPk(tenantId), sk: `TRANSFER_BATCH#${batchId}` }),
  /** A transfer of several products still IN_TRANSIT: its entry in the tenant's list of them (what lib/integrity counts in transit). */
  transferInTransit: (tenantId: string, batchId: string): Key => ({ pk: `${tenantPk(tenantId)}#TRANSFERS_IN_TRANSIT`, sk: batchId }),
  transfersInTransitOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#TRANSFERS_IN_TRANSIT` }),
  /** What a supplier sells (lib/supplier-products): the link in the supplier's list, by product id. */
  supplierProduct: (tenantId: string, supplierId: string, productId: string): Key => ({
    pk: `${tenantPk(tenantId)}#SUPPLIER_PRODUCTS#${supplierId}`,
    sk: productId,
  }),
  supplierProductsOf: (tenantId: string, supplierId: string) => ({ pk: `${tenantPk(tenantId)}#SUPPLIER_PRODUCTS#${supplierId}` }),
  /** The same link in the product's list of suppliers, by supplier id. */
  productSupplier: (tenantId: string, productId: string, supplierId: string): Key => ({
    pk: `${tenantPk(tenantId)}#PRODUCT_SUPPLIERS#${productId}`,
    sk: supplierId,
  }),
  productSuppliersOf: (tenantId: string, productId: string) => ({ pk: `${tenantPk(tenantId)}#PRODUCT_SUPPLIERS#${productId}` }),
  /** Sentinel that makes a supplier's code for a product unique per supplier (lib/supplier-products `supplierCodeKey`); it names the product. */
  supplierCode: (tenantId: string, supplierId: string, codeKey: string): Key => ({ pk: `${tenantPk(tenantId)}#SUPPLIER_CODES#${supplierId}`, sk: codeKey }),
  /** The product's preferred supplier, if any: at most one, by this one item. */
  preferredSupplier: (tenantId: string, productId: string): Key => ({ pk: tenantPk(tenantId), sk: `PREFERRED_SUPPLIER#${productId}` }),
  /** How many products a supplier sells, and how many suppliers sell a product: neither is deleted while it has any. */
  supplierLinkCount: (tenantId: string, side: 'supplier' | 'product', id: string): Key => ({
    pk: tenantPk(tenantId),
    sk: `LINKS#${side === 'supplier' ? 'SUPPLIER' : 'PRODUCT'}#${id}`,
  }),
  /** A purchase order (lib/purchase-orders). */
  purchaseOrder: (tenantId: string, orderId: string): Key => ({ pk: tenantPk(tenantId), sk: `PURCHASE_ORDER#${orderId}` }),
  /** A company's purchase order sequence: `last`, the number of its latest order. */
  purchaseOrderSequence: (tenantId: string, companyId: string): Key => ({ pk: tenantPk(tenantId), sk: `PURCHASE_ORDER_SEQUENCE#${companyId}` }),
  /**
   * An order's entry in a list of the tenant's orders, newest last in key order
   * (`createdAt#id`): every order (`*`), of a status, of a supplier, of a company. An entry
   * holds only the id; its status entry moves when the status changes.
   */
  purchaseOrderEntry: (tenantId: string, list: string, createdAt: string, orderId: string): Key => ({
    pk: `${tenantPk(tenantId)}#PURCHASE_ORDERS#${list}`,
    sk: `${createdAt}#${orderId}`,
  }),
  purchaseOrdersOf: (tenantId: string, list: string) => ({ pk: `${tenantPk(tenantId)}#PURCHASE_ORDERS#${list}` }),
  /** What the open purchase orders still expect of a product in a warehouse (`quantity`, thousandths): one partition per warehouse. */
  onOrder: (tenantId: string, warehouseId: string, productId: string): Key => ({ pk: `${tenantPk(tenantId)}#ON_ORDER#${warehouseId}`, sk: productId }),
  onOrdersOf: (tenantId: string, warehouseId: string) => ({ pk: `${tenantPk(tenantId)}#ON_ORDER#${warehouseId}` }),
  /** A product's reorder settings (lib/purchasing), for a warehouse or every one (`*`): all in one partition, which suggestions read whole. */
  reorderSettings: (tenantId: string, productId: string, warehouseId: string | null): Key => ({
    pk: `${tenantPk(tenantId)}#REORDER`,
    sk: `${productId}#${warehouseId ?? '*'}`,
  }),
  reorderSettingsOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#REORDER` }),
  /** A stock count's record (lib/counts): its status, scope and maintained totals. */
  count: (tenantId: string, countId: string): Key => ({ pk: tenantPk(tenantId), sk: `COUNT#${countId}` }),
  /**
   * A count's entry in a list of the tenant's counts, newest last in key order
   * (`createdAt#id`): every count (`*`), a warehouse's, or the ACTIVE ones (OPEN or CLOSING:
   * its entry there is removed when it ends). An entry holds only the id.
   */
  countEntry: (tenantId: string, list: string, createdAt: string, countId: string): Key => ({
    pk: `${tenantPk(tenantId)}#COUNTS#${list}`,
    sk: `${createdAt}#${countId}`,
  }),
  countsOf: (tenantId: string, list: string) => ({ pk: `${tenantPk(tenantId)}#COUNTS#${list}` }),
  /** A count's line of one product, in the count's own partition (by product id). */
  countLine: (tenantId: string, countId: string, productId: string): Key => ({ pk: `${tenantPk(tenantId)}#COUNT#${countId}`, sk: `LINE#${productId}` }),
  countLinesOf: (tenantId: string, countId: string) => ({ pk: `${tenantPk(tenantId)}#COUNT#${countId}`, skPrefix: 'LINE#' }),
  /** A line's copy in the count's list by the value of its difference, largest first (`rank`: lib/counts/repository). */
  countLineRank: (tenantId: string, countId: string, rank: string, productId: string): Key => ({
    pk: `${tenantPk(tenantId)}#COUNT#${countId}#BY_DIFFERENCE`,
    sk: `${rank}#${productId}`,
  }),
  countLineRanksOf: (tenantId: string, countId: string) => ({ pk: `${tenantPk(tenantId)}#COUNT#${countId}#BY_DIFFERENCE` }),
  /**
   * Which counts are open in a warehouse: the count of the whole warehouse (`wholeCountId`) and
   * how many counts of some of its products (`scoped`). A count of products also takes one
   * `countProductLock` per product. Written in each count's opening and ending transactions.
   */
  countLock: (tenantId: string, warehouseId: string): Key => ({ pk: tenantPk(tenantId), sk: `COUNT_LOCK#${warehouseId}` }),
  countProductLock: (tenantId: string, warehouseId: string, productId: string): Key => ({
    pk: tenantPk(tenantId),
    sk: `COUNT_LOCK#${warehouseId}#${productId}`,
  }),
  /** Units sold of one product on one business day, as the movements recorded them. */
  salesDay: (tenantId: string, day: string, productId: string): Key => ({ pk: `${tenantPk(tenantId)}#SALES`, sk: `DAY#${day}#${productId}` }),
  /** Query prefix for every daily sales counter of a tenant. */
  salesDaysOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#SALES`, skPrefix: 'DAY#' }),

  /**
   * An Idempotency-Key's record, under its caller: a signed-in user's keys in the user's
   * partition, an API key's in a partition of that key, a public caller's under its IP
   * (POST /tenants). `keyHash` is the key's SHA-256.
   */
  idempotency: (caller: IdempotencyCaller, keyHash: string): Key =>
    'ip' in caller
      ? { pk: `IDEMPOTENCY#IP#${caller.ip}`, sk: `KEY#${keyHash}` }
      : 'apiKeyId' in caller
        ? { pk: `${tenantPk(caller.tenantId)}#APIKEY#${caller.apiKeyId}`, sk: `IDEMPOTENCY#${keyHash}` }
        : { pk: userPk(caller.tenantId, caller.userId), sk: `IDEMPOTENCY#${keyHash}` },

  /**
   * The audit trail (lib/audit/repository). An entry (without its origin) is written into up to three
   * lists, each newest-first by time: the trail itself (every entry; its gsi1 copy lists it
   * by action), its actor's (gsi1: by resource type) and its resource's.
   */
  auditEntry: (trail: AuditScope, occurredAt: string, entryId: string): Key => ({ pk: auditPk(trail), sk: auditSk(occurredAt, entryId) }),
  /** The actor's list: a user's id, or `system`. */
  auditByActor: (trail: AuditScope, actorKey: string, occurredAt: string, entryId: string): Key => ({
    pk: `${auditPk(trail)}#ACTOR#${actorKey}`,
    sk: auditSk(occurredAt, entryId),
  }),
  auditByResource: (trail: AuditScope, resourceId: string, occurredAt: string, entryId: string): Key => ({
    pk: `${auditPk(trail)}#RESOURCE#${resourceId}`,
    sk: auditSk(occurredAt, entryId),
  }),
  auditTrailOf: (trail: AuditScope) => ({ pk: auditPk(trail) }),
  auditOfActor: (trail: AuditScope, actorKey: string) => ({ pk: `${auditPk(trail)}#ACTOR#${actorKey}` }),
  auditOfResource: (trail: AuditScope, resourceId: string) => ({ pk: `${auditPk(trail)}#RESOURCE#${resourceId}` }),
  /**
   * An entry's origin (IP address, User-Agent), once per entry and apart from its copies, so
   * DynamoDB's TTL removes it after ACCESS_RECORD_RETENTION_DAYS while the entry stays: named
   * by the entry's trail, instant and id alone, so any list's page finds its origins by key.
   */
  auditOrigin: (trail: AuditScope, occurredAt: string, entryId: string): Key => ({ pk: `${auditPk(trail)}#ORIGIN`, sk: auditSk(occurredAt, entryId) }),
  /** The incident register (lib/privacy/model): the platform's, by detection time. */
  incident: (detectedAt: string, incidentId: string): Key => ({ pk: INCIDENTS_PK, sk: `${detectedAt}#${incidentId}` }),
  incidentRegister: () => ({ pk: INCIDENTS_PK }),

  /**
   * An API key (lib/api-keys), in its tenant's partition: the authorizer reads it and the
   * tenant in one BatchGetItem, the key's id naming both (lib/api-keys/format). Key ids sort by
   * creation, so the tenant's keys read newest first from one range.
   */
  apiKey: (tenantId: string, keyId: string): Key => ({ pk: tenantPk(tenantId), sk: `APIKEY#${keyId}` }),
  /**
   * The address of a key's last use, apart from the key: an access record, which DynamoDB's TTL
   * removes ACCESS_RECORD_RETENTION_DAYS after that use. A partition family of its own, so that
   * the authorizer may set `ttl` here (its grant names these partitions) and nowhere else.
   */
  apiKeyUse: (keyId: string): Key => ({ pk: `${API_KEY_USE_PK_PREFIX}${keyId}`, sk: 'USE' }),
  apiKeysOfTenant: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'APIKEY#' }),

  /**
   * A domain event (lib/events), in its tenant's list by time: written in its change's
   * transaction, read by GET /events, carried by the table's stream to the webhooks.
   */
  event: (tenantId: string, timestamp: string, eventId: string): Key => ({ pk: `${tenantPk(tenantId)}#EVENTS`, sk: `${timestamp}#${eventId}` }),
  eventsOf: (tenantId: string) => ({ pk: `${tenantPk(tenantId)}#EVENTS` }),

  /** A webhook endpoint (lib/webhooks), in its tenant's partition; `begins_with(sk, 'WEBHOOK#')` lists them. */
  webhookEndpoint: (tenantId: string, endpointId: string): Key => ({ pk: tenantPk(tenantId), sk: `WEBHOOK#${endpointId}` }),
  webhookEndpointsOf: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'WEBHOOK#' }),
  /** How many endpoints the tenant has: every registration and deletion moves it in its own transaction, the registration conditioned on staying under the cap. */
  webhookEndpointCount: (tenantId: string): Key => ({ pk: tenantPk(tenantId), sk: 'STATS#WEBHOOKS' }),
  /** An endpoint's signing secrets, in a partition of their own (WEBHOOK_SECRETS_PK_PREFIX) that IAM can refuse to every function that does not sign or rotate. */
  webhookSecrets: (tenantId: string, endpointId: string): Key => ({ pk: `${WEBHOOK_SECRETS_PK_PREFIX}${tenantId}#${endpointId}`, sk: 'SECRETS' }),
  /** One delivery of an event to an endpoint, in the endpoint's delivery list, newest first by its id's time. */
  webhookDelivery: (tenantId: string, endpointId: string, createdAt: string, deliveryId: string): Key => ({
    pk: `${tenantPk(tenantId)}#WEBHOOK_DELIVERIES#${endpointId}`,
    sk: `${createdAt}#${deliveryId}`,
  }),
  webhookDeliveriesOf: (tenantId: string, endpointId: string) => ({ pk: `${tenantPk(tenantId)}#WEBHOOK_DELIVERIES#${endpointId}` }),

  /** A login's second-factor challenge, found by the SHA-256 of its cookie's token. */
  mfaChallenge: (tokenHash: string): Key => ({ pk: `MFA_CHALLENGE#${tokenHash}`, sk: 'CHALLENGE' }),

  /** A password-reset token, found by the SHA-256 of the token the user received. */
  passwordReset: (tokenHash: string): Key => ({ pk: `PASSWORD_RESET#${tokenHash}`, sk: 'TOKEN' }),

  /**
   * A closed tenant's place in the deletion schedule (lib/tenant-jobs): one partition sorted by
   * when each deletion is due, so the daily job reads the due ones with one Query, not a Scan.
   * Written with the close, removed by a reopen or at the deletion's end.
   */
  tenantDeletionDue: (dueAt: string, tenantId: string): Key => ({ pk: TENANT_DELETIONS_PK, sk: `${dueAt}#${tenantId}` }),
  tenantDeletionsDue: () => ({ pk: TENANT_DELETIONS_PK }),
  /** A tenant's export job (POST /tenants/{id}/export), in its tenant's partition: deleted with it. */
  tenantExport: (tenantId: string, exportId: string): Key => ({ pk: tenantPk(tenantId), sk: `TENANT_EXPORT#${exportId}` }),

  /**
   * Where a tenant job's parallel Scan stands (lib/tenant-jobs): the keys the Scan stopped at,
   * which are any items of the table, another tenant's among them. Kept apart from the tenant's
   * partitions so that nothing of the tenant (its export above all) ever holds them.
   */
  scanPosition: (jobId: string): Key => ({ pk: `${SCAN_POSITION_PK_PREFIX}${jobId}`, sk: 'POSITION' }),
  /** The lock that lets one export of a tenant run at a time (lib/tenant-jobs): which export holds it. */
  tenantExportRunning: (tenantId: string): Key => ({ pk: tenantPk(tenantId), sk: 'TENANT_EXPORT_RUNNING' }),
  /**
   * A background job that has not ended yet (lib/background), by its id in its tenant's
   * partition: what removing its user or closing its tenant finds to fail at once.
   */
  pendingJob: (tenantId: string, jobId: string): Key => ({ pk: tenantPk(tenantId), sk: `PENDING_JOB#${jobId}` }),
  pendingJobsOf: (tenantId: string) => ({ pk: tenantPk(tenantId), skPrefix: 'PENDING_JOB#' }),

  /** A CSV import job (lib/imports), by id in its tenant's partition. */
  importJob: (tenantId: string, importId: string): Key => ({ pk: tenantPk(tenantId), sk: `IMPORT#${importId}` }),
  /** A CSV export job (lib/exports), in its tenant's partition beside the import jobs. */
  exportJob: (tenantId: string, exportId: string): Key => ({ pk: tenantPk(tenantId), sk: `EXPORT#${exportId}` }),

  /**
   * A rate-limit window. Not tenant-owned: public routes are limited per IP before any
   * tenant is known. `subject` is an IP, a user id or a hash, never a raw e-mail.
   */
  counter: (scope: string, subject: string, windowStart: number): Key => ({ pk: `RATE#${scope}#${subject}`, sk: `WINDOW#${windowStart}` }),
};

/** GSI1 entries (platform-wide listings). */
export const gsi1 = {
  /**
   * The platform's tenants by name, in one index partition per first character of the name
   * (a slug: `0-9`, `a-z`), so 100,000 tenants do not share one partition; the list reads the
   * shards in name order.
   */
  tenantsByName: (name: string) => ({ gsi1pk: `TENANTS#${name.charAt(0)}`, gsi1sk: name }),
  tenantShard: (shard: string) => ({ gsi1pk: `TENANTS#${shard}` }),
  /** An invitation found by its id (withdrawal), in one index item per invitation. */
  invitationById: (invitationId: string) => ({ gsi1pk: `INVITATION#${invitationId}`, gsi1sk: 'INVITATION' }),
  /** A company found by id alone (platform administrators act across tenants). */
  companyById: (companyId: string) => ({ gsi1pk: `COMPANY#${companyId}`, gsi1sk: 'COMPANY' }),
  /**
   * A daily sales counter not yet rolled up (sparse: removed once rolled up). Spread over
   * shards so that sales of every tenant do not write one index partition.
   */
  salesPending: (shard: number, day: string, tenantId: string, productId: string) => ({
    gsi1pk: `SALES_PENDING#${shard}`,
    gsi1sk: `${day}#${tenantId}#${productId}`,
  }),
  salesPendingShard: (shard: number) => ({ gsi1pk: `SALES_PENDING#${shard}` }),
  /** The trail's entries by action (on the trail's own copy of each entry). */
  auditByAction: (trail: AuditScope, action: string, occurredAt: string, entryId: string) => ({
    gsi1pk: `${auditPk(trail)}#ACTION#${action}`,
    gsi1sk: auditSk(occurredAt, entryId),
  }),
  auditOfAction: (trail: AuditScope, action: string) => ({ gsi1pk: `${auditPk(trail)}#ACTION#${action}` }),
  /** A tenant's events of one type, by time (on the event's item), for GET /events?type=. */
  eventsByType: (tenantId: string, type: string, timestamp: string, eventId: string) => ({
    gsi1pk: `${tenantPk(tenantId)}#EVENTS#${type}`,
    gsi1sk: `${timestamp}#${eventId}`,
  }),
  eventsOfType: (tenantId: string, type: string) => ({ gsi1pk: `${tenantPk(tenantId)}#EVENTS#${type}` }),
  /** The trail's entries by resource type (on the actor's copy of each entry). */
  auditByType: (trail: AuditScope, resourceType: string, occurredAt: string, entryId: string) => ({
    gsi1pk: `${auditPk(trail)}#TYPE#${resourceType}`,
    gsi1sk: auditSk(occurredAt, entryId),
  }),
  auditOfType: (trail: AuditScope, resourceType: string) => ({ gsi1pk: `${auditPk(trail)}#TYPE#${resourceType}` }),
  /**
   * A webhook delivery whose next attempt is pending (sparse: removed once it succeeded or
   * failed), by when that attempt is due, spread over WEBHOOK_DUE_SHARDS partitions: the
   * retry scheduler reads each shard up to now.
   */
  webhookDue: (deliveryId: string, dueAt: string) => ({
    gsi1pk: `WEBHOOK_DUE#${stringShard(deliveryId, WEBHOOK_DUE_SHARDS)}`,
    gsi1sk: `${dueAt}#${deliveryId}`,
  }),
  webhookDueShard: (shard: number) => ({ gsi1pk: `WEBHOOK_DUE#${shard}` }),
  /**
   * A balance with stock (sparse: a balance at 0 has none), in its warehouse's list by product
   * id: what a count of the whole warehouse has in scope (lib/counts).
   */
  warehouseStock: (tenantId: string, warehouseId: string, productId: string) => ({
    gsi1pk: `${tenantPk(tenantId)}#WAREHOUSE_STOCK#${warehouseId}`,
    gsi1sk: productId,
  }),
  warehouseStockOf: (tenantId: string, warehouseId: string) => ({ gsi1pk: `${tenantPk(tenantId)}#WAREHOUSE_STOCK#${warehouseId}` }),
};
