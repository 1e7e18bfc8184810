import { formatScaled, QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { applyMovement, EMPTY_BALANCE, lastCostAfter, valueAt, type ExactBalance } from '../inventory/costing';
import { coverageOrder, INDEXED_COVERAGE_DAYS, type MovementType } from '../inventory/model';
import type { SupplierProduct } from '../supplier-products/model';
import { OPEN_STATUSES, remainingOf, type PurchaseOrder } from '../purchase-orders/model';
import { differenceRank, differenceValueOf, lineTotals, type Count, type CountLine } from '../counts/model';
import type { Drift, Invariant } from './model';

/**
 * The invariants, as pure functions of the records read (./repository decodes them): each
 * returns the drift it finds, named by the items' keys. No I/O, so each is tested on its own.
 */

export interface ItemKey {
  pk: string;
  sk: string;
}

export interface BalanceRecord extends ItemKey {
  productId: string;
  warehouseId: string;
  quantity: bigint;
  totalCost: bigint;
  averageCost: bigint;
  /** The last cost it keeps (10^-4); undefined for a balance written before balances kept one. */
  lastCost: bigint | undefined;
  version: number;
  /** Whether it is in its warehouse's index of balances with stock (lib/db/keys gsi1 `warehouseStock`). */
  indexed: boolean;
}

export interface MovementRecord extends ItemKey {
  id: string;
  type: MovementType;
  /** Thousandths of a unit (an ADJUSTMENT's is the quantity counted). */
  quantity: bigint;
  /** 10^-4 of the currency per unit, when the movement gave one. */
  unitCost?: bigint;
  createdAt: string;
  /** The business day of its `occurredAt` (a SALE's counter). */
  day: string;
  balanceAfter: bigint;
  averageCostAfter: bigint;
  /** Undefined for a movement recorded before balances kept a last cost. */
  lastCostAfter?: bigint;
  /** A TRANSFER_IN's exact value, 10^-7 (what left its source). */
  transferValue?: bigint;
}

/** A product's daily sales counter: units sold that business day, in thousandths (`seeded`: written by the seed, without movements). */
export interface SalesDayRecord extends ItemKey {
  /** The tenant the counter says it belongs to (its `tenantId` attribute). */
  tenantId: string;
  day: string;
  productId: string;
  units: bigint;
  seeded: boolean;
}

export interface WarehouseRecord extends ItemKey {
  id: string;
  totalItems: bigint;
  totalProducts: number;
  totalValue: bigint;
  totalReplacementValue: bigint;
}

export interface ProductRecord extends ItemKey {
  id: string;
  sku: string;
  name: string;
  gtin: string | null;
  status: 'ACTIVE' | 'INACTIVE';
  categoryId: string | null;
  onHand: bigint;
  /** The coverage state its entries are written under: the version, and units sold per indexed window (absent: never indexed). */
  coverageVersion: number;
  sold?: ReadonlyMap<number, bigint>;
}

/** An entry of a coverage window (keys.coverageEntry): its place, and the figures it holds. */
export interface CoverageEntryRecord extends ItemKey {
  days: number;
  name: string;
  onHand: bigint;
  sold: bigint;
}

/** A uniqueness item: the value it makes unique, and the record it points at. */
export interface SentinelRecord extends ItemKey {
  value: string;
  pointsTo: string;
}

/** A record a sentinel makes unique: its id and its unique value. */
export interface UniqueRecord extends ItemKey {
  id: string;
  value: string;
}

const key = ({ pk, sk }: ItemKey): ItemKey => ({ pk, sk });
const quantity = (value: bigint) => formatScaled(value, QUANTITY_PLACES);
const money = (value: bigint) => formatScaled(value, VALUE_PLACES);
const cost = (value: bigint) => formatScaled(value, UNIT_COST_PLACES);

/** A balance as its movements leave it: what `--fix` writes back. */
export interface ReplayedBalance extends ExactBalance {
  lastCost: bigint;
  version: number;
}

/** How many of the next movements by createdAt are tried first for the next step (see replayBalance). */
const NEXT_STEP_WINDOW = 64;

/**
 * Replay a balance's movements in the order they were applied. That is not quite createdAt's:
 * a movement takes its createdAt when asked, and one that lost a race for the balance applies
 * after a later one. Each movement records the balance it left (balanceAfter, averageCostAfter),
 * and each was conditioned on the balance before it, so the order is the chain those records
 * make: at each step, the movement (the earliest by createdAt, among the next few first) whose
 * application to the balance so far gives what it recorded. Drift: a movement that fits no
 * step (its record differs from the replay), one the rule refuses, and a balance that is not
 * the replay's end.
 */
export function replayBalance(balance: BalanceRecord, movements: readonly MovementRecord[]): { replayed: ReplayedBalance; drift: Drift[] } {
  const drift: Drift[] = [];
  const remaining = [...movements].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  let state: ExactBalance = EMPTY_BALANCE;
  // The last cost along the chain; a movement from before balances kept it starts from the average it left.
  let last = 0n;
  let steps = 0;
  const apply = (from: ExactBalance, movement: MovementRecord): ExactBalance | undefined => {
    try {
      return applyMovement(from, {
        type: movement.type,
        quantity: movement.quantity,
        ...(movement.unitCost === undefined ? {} : { unitCost: movement.unitCost }),
        ...(movement.transferValue === undefined ? {} : { value: movement.transferValue }),
      });
    } catch {
      return undefined;
    }
  };
  const fitsFrom = (from: ExactBalance) => (movement: MovementRecord) => {
    const next = apply(from, movement);
    return next !== undefined && next.quantity === movement.balanceAfter && next.averageCost === movement.averageCostAfter;
  };
  const step = (movement: MovementRecord) => apply(state, movement);
  /** The index of the next step: the first that fits, among the next few first; else none. */
  const nextFitting = (from: ExactBalance, except?: MovementRecord) => {
    const fits = fitsFrom(from);
    const candidates = (list: MovementRecord[]) => list.findIndex((movement) => movement !== except && fits(movement));
    const near = candidates(remaining.slice(0, NEXT_STEP_WINDOW));
    if (near >= 0 || remaining.length <= NEXT_STEP_WINDOW) return near;
    const later = candidates(remaining.slice(NEXT_STEP_WINDOW));
    return later < 0 ? -1 : later + NEXT_STEP_WINDOW;
  };
  /** When nothing fits, the movement whose replay lets the chain go on (its own record is the one that differs), else the earliest. */
  const misfit = () => {
    const index = remaining.slice(0, NEXT_STEP_WINDOW).findIndex((movement) => {
      const next = step(movement);
      return next !== undefined && nextFitting(next, movement) >= 0;
    });
    return index < 0 ? 0 : index;
  };
  while (remaining.length > 0) {
    const index = nextFitting(state);
    const matched = index >= 0;
    const [movement] = remaining.splice(matched ? index : misfit(), 1) as [MovementRecord];
    const next = step(movement);
    steps += 1;
    if (next === undefined) {
      drift.push({
        invariant: 'balance-replay',
        keys: [key(movement)],
        detail: `movement ${movement.id} (${movement.type} ${quantity(movement.quantity)}) cannot apply to the ${quantity(state.quantity)} the movements before it leave`,
        fixable: false,
      });
      continue;
    }
    if (!matched)
      drift.push({
        invariant: 'balance-replay',
        keys: [key(movement)],
        detail: `movement ${movement.id} records balanceAfter ${quantity(movement.balanceAfter)} at average ${cost(movement.averageCostAfter)}; the replay leaves ${quantity(next.quantity)} at ${cost(next.averageCost)}`,
        fixable: false,
      });
    last = movement.lastCostAfter === undefined ? next.averageCost : lastCostAfter(last, movement);
    if (matched && movement.lastCostAfter !== undefined && movement.lastCostAfter !== last)
      drift.push({
        invariant: 'balance-replay',
        keys: [key(movement)],
        detail: `movement ${movement.id} records lastCostAfter ${cost(movement.lastCostAfter)}; the replay leaves ${cost(last)}`,
        fixable: false,
      });
    state = next;
  }
  const replayed = { ...state, lastCost: last, version: steps };
  if (
    balance.quantity !== state.quantity ||
    balance.totalCost !== state.value ||
    balance.averageCost !== state.averageCost ||
    (balance.lastCost !== undefined && balance.lastCost !== last) ||
    balance.version !== steps
  )
    drift.push({
      invariant: 'balance-replay',
      keys: [key(balance)],
      detail: `the balance of product ${balance.productId} in warehouse ${balance.warehouseId} is ${quantity(balance.quantity)} worth ${money(balance.totalCost)} at ${cost(balance.averageCost)} after ${balance.version} movements; its ${steps} movements leave ${quantity(state.quantity)} worth ${money(state.value)} at ${cost(state.averageCost)}`,
      fixable: true,
    });
  return { replayed, drift };
}

export interface WarehouseTotals {
  totalItems: bigint;
  totalProducts: number;
  totalValue: bigint;
  /** Σ quantity x last cost (a balance from before last costs: its average cost). */
  totalReplacementValue: bigint;
}

/** Each warehouse's totals from its balances: units, products with a non-zero balance, value. */
export function warehouseTotals(
  balances: readonly Pick<BalanceRecord, 'warehouseId' | 'quantity' | 'totalCost' | 'averageCost' | 'lastCost'>[],
): Map<string, WarehouseTotals> {
  const totals = new Map<string, WarehouseTotals>();
  for (const balance of balances) {
    const sum = totals.get(balance.warehouseId) ?? { ...NO_STOCK };
    sum.totalItems += balance.quantity;
    sum.totalValue += balance.totalCost;
    sum.totalReplacementValue += valueAt(balance.quantity, balance.lastCost ?? balance.averageCost);
    if (balance.quantity !== 0n) sum.totalProducts += 1;
    totals.set(balance.warehouseId, sum);
  }
  return totals;
}

/** A warehouse without balances. */
export const NO_STOCK: Readonly<WarehouseTotals> = Object.freeze({ totalItems: 0n, totalProducts: 0, totalValue: 0n, totalReplacementValue: 0n });

export function checkWarehouseTotals(warehouses: readonly WarehouseRecord[], totals: ReadonlyMap<string, WarehouseTotals>): Drift[] {
  return warehouses.flatMap((warehouse) => {
    const expected = totals.get(warehouse.id) ?? NO_STOCK;
    if (
      warehouse.totalItems === expected.totalItems &&
      warehouse.totalProducts === expected.totalProducts &&
      warehouse.totalValue === expected.totalValue &&
      warehouse.totalReplacementValue === expected.totalReplacementValue
    )
      return [];
    return [
      {
        invariant: 'warehouse-totals' as const,
        keys: [key(warehouse)],
        detail: `warehouse ${warehouse.id} holds ${quantity(warehouse.totalItems)} units of ${warehouse.totalProducts} products worth ${money(warehouse.totalValue)} (${money(warehouse.totalReplacementValue)} at last cost); its balances sum to ${quantity(expected.totalItems)} units of ${expected.totalProducts} products worth ${money(expected.totalValue)} (${money(expected.totalReplacementValue)} at last cost)`,
        fixable: true,
      },
    ];
  });
}

/** Each product's units on hand over every warehouse, from the balances. */
export function onHandOf(balances: readonly Pick<BalanceRecord, 'productId' | 'quantity'>[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const balance of balances) sums.set(balance.productId, (sums.get(balance.productId) ?? 0n) + balance.quantity);
  return sums;
}

export function checkOnHand(products: readonly ProductRecord[], sums: ReadonlyMap<string, bigint>): Drift[] {
  return products.flatMap((product) => {
    const expected = sums.get(product.id) ?? 0n;
    return product.onHand === expected
      ? []
      : [
          {
            invariant: 'product-on-hand' as const,
            keys: [key(product)],
            detail: `product ${product.sku} (${product.id}) holds ${quantity(product.onHand)} on hand; its balances sum to ${quantity(expected)}`,
            fixable: true,
          },
        ];
  });
}

/**
 * A maintained count against what it counts. `absentIsZero` false: a count never written is
 * not drift (one written lazily, as the administrators' is before the first role change).
 */
export function checkCount(invariant: Invariant, counter: ItemKey & { count: number | undefined }, actual: number, what: string, absentIsZero = true): Drift[] {
  if (counter.count === undefined && !absentIsZero) return [];
  if ((counter.count ?? 0) === actual) return [];
  return [{ invariant, keys: [key(counter)], detail: `the ${what} count is ${counter.count ?? 'absent'}; there are ${actual}`, fixable: true }];
}

/** Units of the SALE movements by business day and product (`day#productId`), in thousandths. */
export function salesByDay(movements: readonly (Pick<MovementRecord, 'type' | 'quantity' | 'day'> & { productId: string })[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const movement of movements)
    if (movement.type === 'SALE')
      sums.set(`${movement.day}#${movement.productId}`, (sums.get(`${movement.day}#${movement.productId}`) ?? 0n) + movement.quantity);
  return sums;
}

/**
 * Each daily sales counter against the SALE movements of its day, and each day with sales
 * against its counter: what the roll-up folds into the coverage figures. A counter the seed
 * wrote (history without movements) is not checked, nor are the days it covers.
 */
export function checkSalesDays(
  counters: readonly SalesDayRecord[],
  sums: ReadonlyMap<string, bigint>,
  counterKey: (day: string, productId: string) => ItemKey,
): Drift[] {
  const drift: Drift[] = [];
  const seen = new Set<string>();
  for (const counter of counters) {
    const at = `${counter.day}#${counter.productId}`;
    seen.add(at);
    if (counter.seeded) continue;
    const sold = sums.get(at) ?? 0n;
    if (counter.units !== sold)
      drift.push({
        invariant: 'sales-days',
        keys: [key(counter)],
        detail: `product ${counter.productId} sold ${quantity(counter.units)} on ${counter.day} by its counter; its SALE movements of that day sum to ${quantity(sold)}`,
        fixable: true,
      });
  }
  for (const [at, sold] of sums) {
    if (seen.has(at)) continue;
    const [day = '', productId = ''] = at.split('#');
    drift.push({
      invariant: 'sales-days',
      keys: [counterKey(day, productId)],
      detail: `product ${productId} has SALE movements of ${quantity(sold)} on ${day} and no counter for that day`,
      fixable: true,
    });
  }
  return drift;
}

/**
 * What the tenant's items refer to is the tenant's: a balance's product and warehouse, a daily
 * sales counter's tenant and product. Products and warehouses are never deleted, so a dangling
 * reference is a write that went astray (another tenant's id, a hand-made item): recorded
 * data, for a person.
 */
export function checkReferences(
  tenantId: string,
  balances: readonly BalanceRecord[],
  counters: readonly SalesDayRecord[],
  productIds: ReadonlySet<string>,
  warehouseIds: ReadonlySet<string>,
): Drift[] {
  const drift: Drift[] = [];
  const dangling = (item: ItemKey, detail: string) => drift.push({ invariant: 'references', keys: [key(item)], detail, fixable: false });
  for (const balance of balances) {
    if (!productIds.has(balance.productId)) dangling(balance, `a balance names product ${balance.productId}, which is not the tenant's`);
    if (!warehouseIds.has(balance.warehouseId)) dangling(balance, `a balance names warehouse ${balance.warehouseId}, which is not the tenant's`);
  }
  for (const counter of counters) {
    if (counter.tenantId !== tenantId) dangling(counter, `a daily sales counter in the tenant's partition says it is tenant ${counter.tenantId}'s`);
    if (!productIds.has(counter.productId)) dangling(counter, `a daily sales counter names product ${counter.productId}, which is not the tenant's`);
  }
  return drift;
}

/**
 * A user's session count against its sessions. The count is an upper bound the cap of live
 * sessions trusts: a sign-out or an expiry removes a session without lowering it, and the next
 * opening that finds the cap reached recounts. Below the sessions held, the cap would let a
 * user hold more than it allows: drift. Absent (a user older than the count): the first
 * opening reads the list, so nothing is wrong.
 */
export function checkSessionCount(counter: ItemKey & { count: number | undefined }, sessions: number): Drift[] {
  if (counter.count === undefined || counter.count >= sessions) return [];
  return [
    { invariant: 'session-count', keys: [key(counter)], detail: `the session count is ${counter.count}; the user holds ${sessions} sessions`, fixable: true },
  ];
}

/**
 * Uniqueness items against the records they make unique: a sentinel whose record is gone or
 * holds another value is orphaned (fixable: removing it frees a value nothing uses); a record
 * without its sentinel is not fixable here, since two records may now share the value.
 */
export function checkSentinels(invariant: Invariant, what: string, sentinels: readonly SentinelRecord[], records: readonly UniqueRecord[]): Drift[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  const drift: Drift[] = [];
  const covered = new Set<string>();
  for (const sentinel of sentinels) {
    const record = byId.get(sentinel.pointsTo);
    if (record && record.value === sentinel.value) {
      covered.add(record.id);
      continue;
    }
    drift.push({
      invariant,
      keys: [key(sentinel)],
      detail: record
        ? `the ${what} sentinel ${sentinel.value} points at ${sentinel.pointsTo}, whose ${what} is ${record.value}`
        : `the ${what} sentinel ${sentinel.value} points at ${sentinel.pointsTo}, which does not exist`,
      fixable: true,
    });
  }
  for (const record of records) {
    if (covered.has(record.id)) continue;
    drift.push({ invariant, keys: [key(record)], detail: `${record.id} has no sentinel for its ${what} ${record.value}`, fixable: false });
  }
  return drift;
}

/** The entry a product should have in a window: its place (sort key) and figures; none before it was ever indexed. */
export function expectedEntry(product: ProductRecord, days: number): { sk: string; onHand: bigint; sold: bigint } | undefined {
  if (!product.sold) return undefined;
  const sold = product.sold.get(days) ?? 0n;
  return { sk: coverageOrder({ id: product.id, sku: product.sku, onHand: product.onHand }, sold, days), onHand: product.onHand, sold };
}

/**
 * Each indexed window against the products: an entry a product should have and lacks, or
 * holds other figures (fixable: written again from the product), and an entry no product
 * should have there (fixable: removed). The product items are what the entries derive from.
 */
export function checkCoverage(products: readonly ProductRecord[], entries: readonly CoverageEntryRecord[], coveragePk: (days: number) => string): Drift[] {
  const drift: Drift[] = [];
  for (const days of INDEXED_COVERAGE_DAYS) {
    const held = new Map(entries.filter((entry) => entry.days === days).map((entry) => [entry.sk, entry]));
    for (const product of products) {
      const expected = expectedEntry(product, days);
      if (!expected) continue;
      const entry = held.get(expected.sk);
      held.delete(expected.sk);
      if (entry && entry.onHand === expected.onHand && entry.sold === expected.sold && entry.name === product.name) continue;
      drift.push({
        invariant: 'coverage-index',
        keys: [{ pk: coveragePk(days), sk: expected.sk }],
        detail: entry
          ? `the ${days}-day entry of product ${product.sku} holds ${quantity(entry.onHand)} on hand and ${quantity(entry.sold)} sold; the product holds ${quantity(expected.onHand)} and ${quantity(expected.sold)}`
          : `the ${days}-day window has no entry for product ${product.sku} (${product.id})`,
        fixable: true,
      });
    }
    for (const entry of held.values())
      drift.push({ invariant: 'coverage-index', keys: [key(entry)], detail: `the ${days}-day entry ${entry.sk} is no product's place`, fixable: true });
  }
  return drift;
}

/**
 * A searchable list against the live records: an id it finds that no record has (a deleted
 * supplier still found), and a record it does not find. Fixable: the list is rebuilt from the
 * records, as `npm run migrate` builds it.
 */
export function checkSearch(invariant: Invariant, manifest: ItemKey, indexed: ReadonlySet<string>, live: ReadonlySet<string>, what: string): Drift[] {
  const stale = [...indexed].filter((id) => !live.has(id));
  const missing = [...live].filter((id) => !indexed.has(id));
  if (stale.length === 0 && missing.length === 0) return [];
  const sample = (ids: string[]) => `${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ` and ${ids.length - 5} more` : ''}`;
  return [
    {
      invariant,
      keys: [key(manifest)],
      detail: [
        stale.length > 0 ? `finds ${stale.length} ${what} that no longer exist (${sample(stale)})` : '',
        missing.length > 0 ? `misses ${missing.length} live ${what} (${sample(missing)})` : '',
      ]
        .filter(Boolean)
        .join('; '),
      fixable: true,
    },
  ];
}

/** A category as the checks read it: its name and its product count. */
export interface CategoryRecord extends ItemKey {
  id: string;
  name: string;
  productCount: number;
}

/**
 * Each category's product count against the products that name it (fixable: set from them),
 * and each product naming a category that does not exist (not fixable: which category it
 * belonged to is not recorded elsewhere).
 */
export function checkCategoryCounts(
  categories: readonly CategoryRecord[],
  products: readonly Pick<ProductRecord, 'pk' | 'sk' | 'id' | 'categoryId'>[],
): Drift[] {
  const counts = new Map<string, number>();
  for (const product of products) if (product.categoryId !== null) counts.set(product.categoryId, (counts.get(product.categoryId) ?? 0) + 1);
  const drift: Drift[] = [];
  for (const category of categories) {
    const actual = counts.get(category.id) ?? 0;
    counts.delete(category.id);
    if (category.productCount !== actual)
      drift.push({
        invariant: 'category-counts',
        keys: [key(category)],
        detail: `the category ${category.id} counts ${category.productCount} products; ${actual} are in it`,
        fixable: true,
      });
  }
  for (const product of products)
    if (product.categoryId !== null && counts.has(product.categoryId))
      drift.push({
        invariant: 'category-counts',
        keys: [key(product)],
        detail: `the product ${product.id} is in category ${product.categoryId}, which does not exist`,
        fixable: false,
      });
  return drift;
}

/** A stock count as the checks read it: the count, its lines and its list by difference. */
export interface CountRecord extends ItemKey {
  count: Count;
  lines: CountLine[];
  ranks: (ItemKey & { productId: string })[];
}

/** Each count's totals against its lines, and its list by difference against them (not fixable: the check says what to look at). */
export function checkCountTotals(counts: readonly CountRecord[]): Drift[] {
  const drift: Drift[] = [];
  for (const { pk, sk, count, lines, ranks } of counts) {
    const sums = { lines: 0, linesWithDifference: 0, surplusValue: 0n, shortageValue: 0n };
    for (const line of lines) {
      const added = lineTotals(line);
      sums.lines += added.lines;
      sums.linesWithDifference += added.linesWithDifference;
      sums.surplusValue += added.surplusValue;
      sums.shortageValue += added.shortageValue;
    }
    const stored = count.totals;
    if (
      stored.lines !== sums.lines ||
      stored.linesWithDifference !== sums.linesWithDifference ||
      stored.surplusValue !== sums.surplusValue ||
      stored.shortageValue !== sums.shortageValue
    ) {
      drift.push({
        invariant: 'count-totals',
        keys: [{ pk, sk }],
        detail: `the count ${count.id} holds ${stored.lines} lines, ${stored.linesWithDifference} with a difference, surplus ${stored.surplusValue}, shortage ${stored.shortageValue} (10^-7); its lines sum to ${sums.lines}, ${sums.linesWithDifference}, ${sums.surplusValue}, ${sums.shortageValue}`,
        fixable: false,
      });
    }
    const expected = new Set(lines.map((line) => `${differenceRank(differenceValueOf(line))}#${line.productId}`));
    for (const rank of ranks) {
      const at = String(rank.sk);
      if (!expected.delete(at))
        drift.push({
          invariant: 'count-totals',
          keys: [rank],
          detail: `the count ${count.id} lists ${rank.productId} by difference at ${at}, where no line of it is`,
          fixable: false,
        });
    }
    for (const missing of expected)
      drift.push({
        invariant: 'count-totals',
        keys: [{ pk, sk }],
        detail: `the count ${count.id} does not list its line ${missing} by difference`,
        fixable: false,
      });
  }
  return drift;
}

/** Each balance with stock is in its warehouse's index, and no other (fixable: the next movement writes it right; `--fix` does not). */
export function checkWarehouseStockIndex(balances: readonly BalanceRecord[]): Drift[] {
  return balances
    .filter((balance) => balance.indexed !== balance.quantity > 0n)
    .map((balance) => ({
      invariant: 'warehouse-stock-index' as const,
      keys: [{ pk: balance.pk, sk: balance.sk }],
      detail: balance.indexed
        ? `the balance of ${balance.productId} in ${balance.warehouseId} is 0 and still in its warehouse's index of balances with stock`
        : `the balance of ${balance.productId} in ${balance.warehouseId} has stock and is not in its warehouse's index of balances with stock`,
      fixable: false,
    }));
}

/** What the tenant's suppliers sell, as verify reads it (./repository `readSupplierLinks`). */
export interface SupplierLinksRecord {
  counts: (ItemKey & { side: 'supplier' | 'product'; id: string; count: number })[];
  /** The links in the suppliers' lists, and in the products'. */
  bySupplier: (ItemKey & { link: SupplierProduct })[];
  byProduct: (ItemKey & { link: SupplierProduct })[];
  codes: (ItemKey & { supplierId: string; productId: string; code: string })[];
  preferred: (ItemKey & { productId: string; supplierId: string })[];
}

/**
 * Each link is in both lists with the same terms; each side's count is the number of its links;
 * each code sentinel names a link of that code and each link with a code has its sentinel; each
 * preferred marker names a preferred link and each preferred link has its marker.
 */
export function checkSupplierLinks(record: SupplierLinksRecord): Drift[] {
  const drift: Drift[] = [];
  const pair = (link: SupplierProduct) => `${link.supplierId}|${link.productId}`;
  const mirror = new Map(record.byProduct.map((entry) => [pair(entry.link), entry]));
  const same = (a: SupplierProduct, b: SupplierProduct) =>
    JSON.stringify(a, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)) ===
    JSON.stringify(b, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  for (const entry of record.bySupplier) {
    const other = mirror.get(pair(entry.link));
    mirror.delete(pair(entry.link));
    if (!other)
      drift.push({
        invariant: 'supplier-products',
        keys: [key(entry)],
        detail: `supplier ${entry.link.supplierId} sells product ${entry.link.productId}, which is not in the product's list`,
        fixable: false,
      });
    else if (!same(entry.link, other.link))
      drift.push({
        invariant: 'supplier-products',
        keys: [key(entry), key(other)],
        detail: `the two copies of the link of supplier ${entry.link.supplierId} and product ${entry.link.productId} differ`,
        fixable: false,
      });
  }
  for (const entry of mirror.values())
    drift.push({
      invariant: 'supplier-products',
      keys: [key(entry)],
      detail: `product ${entry.link.productId} names supplier ${entry.link.supplierId}, whose list does not have it`,
      fixable: false,
    });
  for (const count of record.counts) {
    const actual =
      count.side === 'supplier'
        ? record.bySupplier.filter((entry) => entry.link.supplierId === count.id).length
        : record.byProduct.filter((entry) => entry.link.productId === count.id).length;
    if (actual !== count.count)
      drift.push({
        invariant: 'supplier-products',
        keys: [key(count)],
        detail: `the ${count.side} ${count.id} counts ${count.count} links; it has ${actual}`,
        fixable: false,
      });
  }
  const links = new Map(record.bySupplier.map((entry) => [pair(entry.link), entry.link]));
  const coded = new Set<string>();
  for (const sentinel of record.codes) {
    const link = links.get(`${sentinel.supplierId}|${sentinel.productId}`);
    if (!link || link.supplierCode === null || link.supplierCode.trim().toUpperCase() !== sentinel.sk) {
      drift.push({
        invariant: 'supplier-products',
        keys: [key(sentinel)],
        detail: `the code sentinel ${sentinel.sk} of supplier ${sentinel.supplierId} names product ${sentinel.productId}, which does not have that code`,
        fixable: false,
      });
    } else coded.add(pair(link));
  }
  for (const link of links.values())
    if (link.supplierCode !== null && !coded.has(pair(link)))
      drift.push({
        invariant: 'supplier-products',
        keys: [],
        detail: `the code '${link.supplierCode}' of supplier ${link.supplierId} for product ${link.productId} has no sentinel`,
        fixable: false,
      });
  const marked = new Set<string>();
  for (const marker of record.preferred) {
    const link = links.get(`${marker.supplierId}|${marker.productId}`);
    if (!link?.preferred)
      drift.push({
        invariant: 'supplier-products',
        keys: [key(marker)],
        detail: `product ${marker.productId}'s preferred supplier ${marker.supplierId} does not have it preferred`,
        fixable: false,
      });
    else marked.add(pair(link));
  }
  for (const link of links.values())
    if (link.preferred && !marked.has(pair(link)))
      drift.push({
        invariant: 'supplier-products',
        keys: [],
        detail: `supplier ${link.supplierId} is preferred for product ${link.productId} without the product's marker`,
        fixable: false,
      });
  return drift;
}

/** The tenant's purchase orders as verify reads them (./repository `readPurchasing`). */
export interface PurchasingRecord {
  orders: (ItemKey & { order: PurchaseOrder })[];
  /** Each company's sequence: the number of its latest order. */
  sequences: (ItemKey & { companyId: string; last: number })[];
  /** What is on order, per warehouse and product (thousandths). */
  onOrder: (ItemKey & { warehouseId: string; productId: string; quantity: bigint })[];
}

/**
 * Each company's orders are numbered 1 to its sequence's `last`, each number once; what is on
 * order of a product in a warehouse is what the open orders there still expect of it.
 */
export function checkPurchasing(record: PurchasingRecord): Drift[] {
  const drift: Drift[] = [];
  for (const sequence of record.sequences) {
    const numbers = record.orders
      .filter((entry) => entry.order.companyId === sequence.companyId)
      .map((entry) => entry.order.number)
      .sort((a, b) => a - b);
    const expected = Array.from({ length: sequence.last }, (_, index) => index + 1);
    if (numbers.join(',') !== expected.join(','))
      drift.push({
        invariant: 'purchase-orders',
        keys: [key(sequence)],
        detail: `company ${sequence.companyId}'s sequence is at ${sequence.last}; its orders are numbered ${numbers.join(', ') || 'none'}`,
        fixable: false,
      });
  }
  for (const entry of record.orders)
    if (!record.sequences.some((sequence) => sequence.companyId === entry.order.companyId))
      drift.push({
        invariant: 'purchase-orders',
        keys: [key(entry)],
        detail: `order ${entry.order.id}'s company ${entry.order.companyId} has no sequence`,
        fixable: false,
      });
  const expected = new Map<string, bigint>();
  for (const { order } of record.orders) {
    if (!OPEN_STATUSES.includes(order.status)) continue;
    for (const item of order.items) {
      const at = `${order.warehouseId}|${item.productId}`;
      expected.set(at, (expected.get(at) ?? 0n) + remainingOf(item));
    }
  }
  const stored = new Map(record.onOrder.map((entry) => [`${entry.warehouseId}|${entry.productId}`, entry]));
  for (const at of new Set([...expected.keys(), ...stored.keys()])) {
    const want = expected.get(at) ?? 0n;
    const have = stored.get(at)?.quantity ?? 0n;
    if (want !== have) {
      const [warehouseId, productId] = at.split('|');
      const entry = stored.get(at);
      drift.push({
        invariant: 'purchase-orders',
        keys: entry ? [key(entry)] : [],
        detail: `on order of product ${productId} in warehouse ${warehouseId}: ${quantity(have)}; the open orders expect ${quantity(want)}`,
        fixable: false,
      });
    }
  }
  return drift;
}
