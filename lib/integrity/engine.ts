import {
  checkCategoryCounts,
  checkCount,
  checkCountTotals,
  checkWarehouseStockIndex,
  checkSupplierLinks,
  checkPurchasing,
  checkReferences,
  checkSalesDays,
  checkSessionCount,
  checkCoverage,
  checkOnHand,
  expectedEntry,
  checkSearch,
  checkSentinels,
  checkWarehouseTotals,
  onHandOf,
  replayBalance,
  salesByDay,
  warehouseTotals,
  type BalanceRecord,
  type ItemKey,
  type MovementRecord,
  type ReplayedBalance,
  NO_STOCK,
  type SentinelRecord,
  type UniqueRecord,
} from './checks';
import { keys, type SearchList } from '../db/keys';
import { normalizeText } from '../db/name-order';
import { productSearchSource } from '../inventory/product-repository';
import { rebuildSearchList, type SearchSource } from '../search/engine';
import { supplierSearchSource } from '../suppliers/repository';
import { listTenantPage } from '../tenants/repository';
import type { AuditRecord } from '../audit/model';
import { auditRecord, SYSTEM_ACTOR } from '../audit/record';
import { readBatchesInTransit } from '../transfers/batch-repository';
import type { TransferBatch } from '../transfers/model';
import type { Drift, Invariant, InvariantReport, TenantReport } from './model';
import {
  readBalances,
  readCoverageEntries,
  readMovements,
  readProducts,
  readProductSkus,
  readProductGtins,
  readProductStatusEntries,
  readProductCategoryEntries,
  readCategories,
  readCategoryNames,
  readCounts,
  readSupplierLinks,
  readPurchasing,
  repairCategoryCount,
  readSupplierCount,
  readAdminCount,
  readEndpointCount,
  readSalesDays,
  readSessionCounts,
  countAdministrators,
  countEndpoints,
  readSupplierDocuments,
  readSuppliers,
  readWarehouses,
  readIndexedIds,
  putCoverageEntry,
  removeCoverageEntry,
  removeSentinel,
  repairBalance,
  repairCount,
  repairSalesDay,
  repaired,
  repairOnHand,
  repairWarehouseTotals,
} from './repository';

/**
 * `verify` for one tenant: read what is recorded and what is maintained from it, check every
 * invariant (./checks), and with `fix` mend what is derived (balances from their movements,
 * totals and on-hand from the balances, counts, orphaned sentinels) by conditioned writes
 * (./repository). A recorded movement is never changed. The derived numbers are checked
 * against the balances as replayed, so one `fix` mends a balance and the totals above it.
 */

/** The audit entry of a repair: `tenant.repaired` by the system, naming the invariant, the item and what was wrong. */
export function repairRecord(tenantId: string, drift: Drift, nowMs: number): AuditRecord {
  return auditRecord(
    {
      scope: { tenantId },
      action: 'tenant.repaired',
      resource: { type: 'tenant', id: tenantId },
      actor: SYSTEM_ACTOR,
      changes: [
        { field: 'invariant', before: null, after: drift.invariant },
        { field: 'items', before: null, after: drift.keys.map((key) => `${key.pk} / ${key.sk}`).join(', ') },
        { field: 'drift', before: drift.detail, after: null },
      ],
    },
    nowMs,
  );
}

export interface VerifyOptions {
  fix?: boolean;
  /** Told after each invariant, for progress on long runs. */
  progress?: (line: string) => void;
}

/** How many balances are replayed at once: each reads its own movement list. */
const REPLAYS_AT_ONCE = 8;

/**
 * What a transfer of several products still in transit (lib/transfers `TransferBatch`) has
 * recorded but not yet written where verify reads: each line not arrived took its units out of
 * the source, whose TRANSFER_OUT entries it writes on arrival, and those units are still the
 * product's on hand. Its departure names that movement exactly (the balance it left), so it is
 * replayed with the source's own.
 */
export function inTransitOf(tenantId: string, batches: readonly TransferBatch[]): { departures: Map<string, MovementRecord[]>; units: Map<string, bigint> } {
  const departures = new Map<string, MovementRecord[]>();
  const units = new Map<string, bigint>();
  for (const batch of batches)
    for (const line of batch.lines.slice(batch.arrived)) {
      const place = `${line.productId}|${batch.fromWarehouseId}`;
      const movement: MovementRecord = {
        ...keys.history(tenantId, { productId: line.productId, warehouseId: batch.fromWarehouseId }, batch.occurredAt, line.outMovementId),
        id: line.outMovementId,
        type: 'TRANSFER_OUT',
        quantity: line.quantity,
        createdAt: batch.createdAt,
        day: batch.day,
        balanceAfter: line.fromAfter.quantity,
        averageCostAfter: line.fromAfter.averageCost,
        lastCostAfter: line.fromAfter.lastCost,
      };
      departures.set(place, [...(departures.get(place) ?? []), movement]);
      units.set(line.productId, (units.get(line.productId) ?? 0n) + line.quantity);
    }
  return { departures, units };
}

async function replayAll(
  tenantId: string,
  balances: readonly BalanceRecord[],
  departures: ReadonlyMap<string, MovementRecord[]> = new Map(),
): Promise<{ replayed: Map<BalanceRecord, ReplayedBalance>; drift: Drift[]; sales: Map<string, bigint> }> {
  const replayed = new Map<BalanceRecord, ReplayedBalance>();
  const drift: Drift[] = [];
  // The SALE movements by day, read once with the replays: what the daily counters count.
  const sales = new Map<string, bigint>();
  for (let start = 0; start < balances.length; start += REPLAYS_AT_ONCE) {
    const slice = balances.slice(start, start + REPLAYS_AT_ONCE);
    const results = await Promise.all(
      slice.map(async (balance) => {
        const written = await readMovements(tenantId, balance.productId, balance.warehouseId);
        // A departure whose line arrived while verify read is in the history already: once.
        const pending = (departures.get(`${balance.productId}|${balance.warehouseId}`) ?? []).filter(
          (departure) => !written.some((movement) => movement.id === departure.id),
        );
        const movements = [...written, ...pending];
        for (const [at, units] of salesByDay(movements.map((movement) => ({ ...movement, productId: balance.productId }))))
          sales.set(at, (sales.get(at) ?? 0n) + units);
        return replayBalance(balance, movements);
      }),
    );
    results.forEach((result, index) => {
      replayed.set(slice[index] as BalanceRecord, result.replayed);
      drift.push(...result.drift);
    });
  }
  return { replayed, drift, sales };
}

export async function verifyTenant(tenantId: string, options: VerifyOptions = {}): Promise<TenantReport> {
  const report: InvariantReport[] = [];
  const fixed: Drift[] = [];
  const record = (invariant: Invariant, checked: number, drift: Drift[]) => {
    report.push({ invariant, checked, drift });
    options.progress?.(`${tenantId} ${invariant}: ${checked} checked, ${drift.length} drift`);
  };
  // Each repair commits with its audit entry, by the system (lib/integrity/repository `repaired`).
  const mend = async (drift: Drift, write: (audit: AuditRecord) => Promise<boolean>) => {
    if (options.fix && drift.fixable && (await write(repairRecord(tenantId, drift, Date.now())))) fixed.push(drift);
  };

  // Read first: a batch arriving while the balances are read is then counted in transit or in the history, never in neither.
  const inTransit = inTransitOf(tenantId, await readBatchesInTransit(tenantId));
  const [warehouses, products, balances, skus, suppliers, documents, supplierCount, coverage] = await Promise.all([
    readWarehouses(tenantId),
    readProducts(tenantId),
    readBalances(tenantId),
    readProductSkus(tenantId),
    readSuppliers(tenantId),
    readSupplierDocuments(tenantId),
    readSupplierCount(tenantId),
    readCoverageEntries(tenantId),
  ]);

  const replays = await replayAll(tenantId, balances, inTransit.departures);
  record('balance-replay', balances.length, replays.drift);
  for (const drift of replays.drift) {
    const balance = balances.find((candidate) => candidate.pk === drift.keys[0]?.pk && candidate.sk === drift.keys[0]?.sk);
    const replayed = balance && replays.replayed.get(balance);
    if (balance && replayed) await mend(drift, (audit) => repairBalance(balance, replayed, audit));
  }
  // The totals above the balances, from the balances as their movements leave them.
  const asReplayed = balances.map((balance) => {
    const replayed = replays.replayed.get(balance);
    return replayed
      ? { ...balance, quantity: replayed.quantity, totalCost: replayed.value, averageCost: replayed.averageCost, lastCost: replayed.lastCost }
      : balance;
  });

  const totals = warehouseTotals(asReplayed);
  const warehouseDrift = checkWarehouseTotals(warehouses, totals);
  record('warehouse-totals', warehouses.length, warehouseDrift);
  for (const drift of warehouseDrift) {
    const warehouse = warehouses.find((candidate) => candidate.sk === drift.keys[0]?.sk);
    const expected = warehouse && totals.get(warehouse.id);
    if (warehouse) await mend(drift, (audit) => repairWarehouseTotals(warehouse, expected ?? NO_STOCK, audit));
  }

  const sums = onHandOf(asReplayed);
  for (const [productId, units] of inTransit.units) sums.set(productId, (sums.get(productId) ?? 0n) + units);
  const onHandDrift = checkOnHand(products, sums);
  record('product-on-hand', products.length, onHandDrift);
  for (const drift of onHandDrift) {
    const product = products.find((candidate) => candidate.sk === drift.keys[0]?.sk);
    if (product) await mend(drift, (audit) => repairOnHand(product, sums.get(product.id) ?? 0n, audit));
  }

  // The entries against each product's true on-hand (its balances'), so a drifted on-hand is one drift, not four.
  const current = products.map((product) => ({ ...product, onHand: sums.get(product.id) ?? 0n }));
  const coverageDrift = checkCoverage(current, coverage, (days) => keys.coverageIndexOf(tenantId, days).pk);
  record('coverage-index', coverage.length, coverageDrift);
  for (const drift of coverageDrift) {
    const [where] = drift.keys;
    const stray = coverage.find(
      (entry) => entry.pk === where?.pk && entry.sk === where.sk && !current.some((product) => expectedEntry(product, entry.days)?.sk === entry.sk),
    );
    if (stray) {
      await mend(drift, (audit) => removeCoverageEntry(stray, audit));
      continue;
    }
    const days = Number(where?.pk.split('#COVERAGE#')[1]);
    const product = current.find((candidate) => expectedEntry(candidate, days)?.sk === where?.sk);
    const expected = product && expectedEntry(product, days);
    if (product && expected) await mend(drift, (audit) => putCoverageEntry(tenantId, product, days, expected, audit));
  }

  const salesDays = await readSalesDays(tenantId);
  const salesDrift = checkSalesDays(salesDays, replays.sales, (day, productId) => keys.salesDay(tenantId, day, productId));
  record('sales-days', salesDays.length, salesDrift);
  for (const drift of salesDrift) {
    const counter = salesDays.find((candidate) => candidate.sk === drift.keys[0]?.sk);
    const [, day = '', productId = ''] = (drift.keys[0]?.sk ?? '').split('#');
    const units = replays.sales.get(`${day}#${productId}`) ?? 0n;
    await mend(drift, (audit) => repairSalesDay({ ...(drift.keys[0] as ItemKey), day, productId, units: counter?.units }, tenantId, units, audit));
  }

  const countDrift = checkCount('supplier-count', supplierCount, suppliers.length, 'supplier');
  record('supplier-count', 1, countDrift);
  for (const drift of countDrift) await mend(drift, (audit) => repairCount(supplierCount, suppliers.length, audit));

  const [adminCount, admins, endpointCount, endpoints] = await Promise.all([
    readAdminCount(tenantId),
    countAdministrators(tenantId),
    readEndpointCount(tenantId),
    countEndpoints(tenantId),
  ]);
  const adminDrift = checkCount('admin-count', adminCount, admins, 'administrator', false);
  record('admin-count', admins, adminDrift);
  for (const drift of adminDrift) await mend(drift, (audit) => repairCount(adminCount, admins, audit));
  const endpointDrift = checkCount('endpoint-count', endpointCount, endpoints, 'webhook endpoint');
  record('endpoint-count', 1, endpointDrift);
  for (const drift of endpointDrift) await mend(drift, (audit) => repairCount(endpointCount, endpoints, audit));

  const sessionCounts = await readSessionCounts(tenantId);
  const sessionDrift = sessionCounts.flatMap(({ counter, sessions }) => checkSessionCount(counter, sessions));
  record('session-count', sessionCounts.length, sessionDrift);
  for (const drift of sessionDrift) {
    const found = sessionCounts.find(({ counter }) => counter.sk === drift.keys[0]?.sk);
    if (found) await mend(drift, (audit) => repairCount(found.counter, found.sessions, audit));
  }

  const documentDrift = checkSentinels('supplier-documents', 'document', documents, suppliers);
  record('supplier-documents', documents.length + suppliers.length, documentDrift);
  for (const drift of documentDrift) {
    const sentinel = documents.find((candidate) => candidate.sk === drift.keys[0]?.sk);
    if (sentinel) await mend(drift, (audit) => removeSentinel(sentinel, 'supplierId', audit));
  }

  const productRecords = products.map((product) => ({ pk: product.pk, sk: product.sk, id: product.id, value: product.sku }));
  const skuDrift = checkSentinels('product-skus', 'SKU', skus, productRecords);
  record('product-skus', skus.length + products.length, skuDrift);
  for (const drift of skuDrift) {
    const sentinel = skus.find((candidate) => candidate.sk === drift.keys[0]?.sk);
    if (sentinel) await mend(drift, (audit) => removeSentinel(sentinel, 'productId', audit));
  }

  // A product's other copies: its GTIN sentinel and its entry in its status's list.
  const [gtins, statusEntries] = await Promise.all([readProductGtins(tenantId), readProductStatusEntries(tenantId)]);
  const copies: [Invariant, string, SentinelRecord[], UniqueRecord[]][] = [
    ['product-gtins', 'GTIN', gtins, products.flatMap((product) => (product.gtin === null ? [] : [{ ...product, value: product.gtin }]))],
    ['product-status-lists', 'status list entry', statusEntries, products.map((product) => ({ ...product, value: `${product.status}#${product.sku}` }))],
  ];
  for (const [invariant, what, sentinels, records] of copies) {
    const drift = checkSentinels(
      invariant,
      what,
      sentinels,
      records.map(({ pk, sk, id, value }) => ({ pk, sk, id, value })),
    );
    record(invariant, sentinels.length + records.length, drift);
    for (const found of drift) {
      const sentinel = sentinels.find((candidate) => candidate.sk === found.keys[0]?.sk);
      if (sentinel) await mend(found, (audit) => removeSentinel(sentinel, 'productId', audit));
    }
  }

  // A product's entries in its category's lists (every status, and its own), the categories' name sentinels and counts.
  const [categoryEntries, categories, categoryNames] = await Promise.all([
    readProductCategoryEntries(tenantId),
    readCategories(tenantId),
    readCategoryNames(tenantId),
  ]);
  const categorized = products.filter((product) => product.categoryId !== null);
  const entryDrift = (['ALL', 'STATUS'] as const).flatMap((list) =>
    checkSentinels(
      'product-category-lists',
      'category list entry',
      categoryEntries.filter((entry) => (entry.value.split('#')[1] === 'ALL') === (list === 'ALL')),
      categorized.map(({ pk, sk, id, categoryId, status, sku }) => ({ pk, sk, id, value: `${categoryId}#${list === 'ALL' ? 'ALL' : status}#${sku}` })),
    ),
  );
  record('product-category-lists', categoryEntries.length + categorized.length, entryDrift);
  for (const found of entryDrift) {
    const sentinel = categoryEntries.find((candidate) => candidate.sk === found.keys[0]?.sk);
    if (sentinel) await mend(found, (audit) => removeSentinel(sentinel, 'productId', audit));
  }
  const nameDrift = checkSentinels(
    'category-names',
    'name',
    categoryNames,
    categories.map(({ pk, sk, id, name }) => ({ pk, sk, id, value: normalizeText(name) })),
  );
  record('category-names', categoryNames.length + categories.length, nameDrift);
  for (const found of nameDrift) {
    const sentinel = categoryNames.find((candidate) => candidate.sk === found.keys[0]?.sk);
    if (sentinel) await mend(found, (audit) => removeSentinel(sentinel, 'categoryId', audit));
  }
  const categoryCountDrift = checkCategoryCounts(categories, products);
  record('category-counts', categories.length + categorized.length, categoryCountDrift);
  for (const found of categoryCountDrift) {
    const category = categories.find((candidate) => candidate.sk === found.keys[0]?.sk);
    if (category)
      await mend(found, (audit) => repairCategoryCount(category, categorized.filter((product) => product.categoryId === category.id).length, audit));
  }

  const counts = await readCounts(tenantId);
  record('count-totals', counts.length, checkCountTotals(counts));
  record('warehouse-stock-index', balances.length, checkWarehouseStockIndex(balances));
  const supplierLinks = await readSupplierLinks(tenantId);
  record('supplier-products', supplierLinks.bySupplier.length + supplierLinks.counts.length, checkSupplierLinks(supplierLinks));
  const purchasing = await readPurchasing(
    tenantId,
    warehouses.map((warehouse) => warehouse.id),
  );
  record('purchase-orders', purchasing.orders.length + purchasing.onOrder.length, checkPurchasing(purchasing));

  const searches: [Invariant, SearchList, SearchSource, ReadonlySet<string>, string][] = [
    ['supplier-search', 'suppliers', supplierSearchSource, new Set(suppliers.map((supplier) => supplier.id)), 'suppliers'],
    ['product-search', 'products', productSearchSource, new Set(products.map((product) => product.id)), 'products'],
  ];
  for (const [invariant, list, source, live, what] of searches) {
    const indexed = await readIndexedIds(tenantId, list);
    const drift = indexed ? checkSearch(invariant, keys.searchManifest(tenantId, list), indexed, live, what) : [];
    record(invariant, indexed?.size ?? 0, drift);
    // A rebuild is many writes: its entry is recorded once it is done.
    for (const found of drift) await mend(found, async (audit) => (await rebuildSearchList(source, tenantId)) && (await repaired(audit, [])));
  }

  const referenceDrift = checkReferences(
    tenantId,
    balances,
    salesDays,
    new Set(products.map((product) => product.id)),
    new Set(warehouses.map((warehouse) => warehouse.id)),
  );
  record('references', balances.length + salesDays.length, referenceDrift);

  return { tenantId, invariants: report, fixed };
}

/** Every tenant's id, walked in pages of the tenants' name index (`verify --all`, the scheduled check). */
export async function* allTenantIds(): AsyncGenerator<string> {
  let after: Parameters<typeof listTenantPage>[0]['after'];
  do {
    const page = await listTenantPage({ limit: 100, ...(after ? { after } : {}) });
    for (const tenant of page.tenants) yield tenant.id;
    after = page.last;
  } while (after);
}
