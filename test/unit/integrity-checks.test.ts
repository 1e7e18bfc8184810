import { describe, expect, it } from 'vitest';
import { differenceRank, type Count, type CountLine } from '../../lib/counts/model';
import {
  checkCount,
  checkReferences,
  checkSalesDays,
  checkSessionCount,
  checkCoverage,
  checkSearch,
  checkSentinels,
  checkCategoryCounts,
  checkCountTotals,
  checkWarehouseStockIndex,
  checkSupplierLinks,
  checkPurchasing,
  expectedEntry,
  replayBalance,
  salesByDay,
  warehouseTotals,
  type BalanceRecord,
  type MovementRecord,
  type SupplierLinksRecord,
} from '../../lib/integrity/checks';
import type { SupplierProduct } from '../../lib/supplier-products/model';
import type { PurchaseOrder } from '../../lib/purchase-orders/model';

/** The integrity checker's invariants as pure functions: the replay's order, the sums, the counts and the sentinels. */
const balanceKey = { pk: 'TENANT#t#STOCK', sk: 'p#w' };
const balance = (fields: Partial<BalanceRecord>): BalanceRecord => ({
  ...balanceKey,
  productId: 'p',
  warehouseId: 'w',
  quantity: 0n,
  totalCost: 0n,
  averageCost: 0n,
  // As a balance written before balances kept a last cost (the movements below record none either).
  lastCost: undefined,
  version: 0,
  indexed: false,
  ...fields,
});
let sequence = 0;
const movement = (fields: Omit<MovementRecord, 'pk' | 'sk' | 'id' | 'day'> & { id?: string; day?: string }): MovementRecord => {
  sequence += 1;
  const id = fields.id ?? `m${sequence}`;
  return { pk: 'TENANT#t#MOVEMENTS#p#w', sk: `${fields.createdAt}#${id}`, id, day: fields.createdAt.slice(0, 10), ...fields };
};

describe('the replay of a balance', () => {
  // IN 10 at 2.0000, then two OUT of 3 whose createdAt is in the reverse of the order they applied in.
  const inflow = movement({
    type: 'IN',
    quantity: 10_000n,
    unitCost: 20_000n,
    createdAt: '2026-11-29T10:00:00.000Z',
    balanceAfter: 10_000n,
    averageCostAfter: 20_000n,
  });
  const appliedSecond = movement({ type: 'OUT', quantity: 3_000n, createdAt: '2026-11-29T10:00:00.001Z', balanceAfter: 4_000n, averageCostAfter: 20_000n });
  const appliedFirst = movement({ type: 'OUT', quantity: 3_000n, createdAt: '2026-11-29T10:00:00.002Z', balanceAfter: 7_000n, averageCostAfter: 20_000n });
  const kept = balance({ quantity: 4_000n, totalCost: 80_000_000n, averageCost: 20_000n, version: 3 });

  it('follows the chain the movements recorded, not their createdAt: a movement that lost a race applies after a later one', () => {
    expect(replayBalance(kept, [appliedSecond, inflow, appliedFirst])).toEqual({
      replayed: { quantity: 4_000n, value: 80_000_000n, averageCost: 20_000n, lastCost: 20_000n, version: 3 },
      drift: [],
    });
  });

  it('replays the last cost: the unit cost of the latest IN or ADJUSTMENT that gave one, kept through OUTs', () => {
    const at = (second: number) => `2026-11-29T10:00:0${second}.000Z`;
    const chain = [
      movement({
        type: 'IN',
        quantity: 10_000n,
        unitCost: 20_000n,
        createdAt: at(0),
        balanceAfter: 10_000n,
        averageCostAfter: 20_000n,
        lastCostAfter: 20_000n,
      }),
      movement({
        type: 'IN',
        quantity: 10_000n,
        unitCost: 30_000n,
        createdAt: at(1),
        balanceAfter: 20_000n,
        averageCostAfter: 25_000n,
        lastCostAfter: 30_000n,
      }),
      movement({ type: 'ADJUSTMENT', quantity: 25_000n, createdAt: at(2), balanceAfter: 25_000n, averageCostAfter: 25_000n, lastCostAfter: 30_000n }),
      movement({ type: 'SALE', quantity: 5_000n, createdAt: at(3), balanceAfter: 20_000n, averageCostAfter: 25_000n, lastCostAfter: 30_000n }),
    ];
    const stored = balance({ quantity: 20_000n, totalCost: 500_000_000n, averageCost: 25_000n, lastCost: 30_000n, version: 4 });
    expect(replayBalance(stored, chain)).toEqual({
      replayed: { quantity: 20_000n, value: 500_000_000n, averageCost: 25_000n, lastCost: 30_000n, version: 4 },
      drift: [],
    });
    expect(replayBalance({ ...stored, lastCost: 20_000n }, chain).drift.map(({ keys, fixable }) => ({ keys, fixable }))).toEqual([
      { keys: [balanceKey], fixable: true },
    ]);
    const wrong = chain.map((step, index) => (index === 3 ? { ...step, lastCostAfter: 25_000n } : step));
    expect(replayBalance(stored, wrong).drift.map(({ detail, fixable }) => ({ detail, fixable }))).toEqual([
      { detail: expect.stringContaining('records lastCostAfter 2.5; the replay leaves 3') as string, fixable: false },
    ]);
  });

  it('names a balance that is not its replay, fixable, and a movement whose record differs, not fixable', () => {
    const changed = replayBalance({ ...kept, quantity: 4_001n }, [inflow, appliedFirst, appliedSecond]);
    expect(changed.drift.map(({ invariant, keys, fixable }) => ({ invariant, keys, fixable }))).toEqual([
      { invariant: 'balance-replay', keys: [balanceKey], fixable: true },
    ]);
    const recorded = replayBalance(kept, [inflow, { ...appliedFirst, balanceAfter: 7_001n }, appliedSecond]);
    expect(recorded.drift.map(({ keys, fixable }) => ({ keys, fixable }))).toEqual([{ keys: [{ pk: appliedFirst.pk, sk: appliedFirst.sk }], fixable: false }]);
  });

  it('names a movement the rule refuses (more out than on hand)', () => {
    const refused = replayBalance(balance({ version: 1 }), [
      movement({ type: 'OUT', quantity: 1n, createdAt: '2026-11-29T10:00:00.000Z', balanceAfter: 0n, averageCostAfter: 0n }),
    ]);
    expect(refused.drift.map((drift) => drift.detail)).toEqual([expect.stringContaining('cannot apply to the 0 the movements before it leave') as string]);
  });
});

describe('the sums, counts and sentinels', () => {
  it('sums each warehouse, counting the products whose balance is not zero', () => {
    const totals = warehouseTotals([
      { warehouseId: 'a', quantity: 1_500n, totalCost: 3n, averageCost: 2n, lastCost: 7n },
      { warehouseId: 'a', quantity: 0n, totalCost: 0n, averageCost: 9n, lastCost: 9n },
      // A balance from before last costs: valued at its average.
      { warehouseId: 'b', quantity: 2n, totalCost: 5n, averageCost: 3n, lastCost: undefined },
    ]);
    expect(Object.fromEntries(totals)).toEqual({
      a: { totalItems: 1_500n, totalProducts: 1, totalValue: 3n, totalReplacementValue: 10_500n },
      b: { totalItems: 2n, totalProducts: 1, totalValue: 5n, totalReplacementValue: 6n },
    });
  });

  it('names a counter off by one, and an absent one that should count', () => {
    const counter = { pk: 'TENANT#t', sk: 'STATS#SUPPLIERS' };
    expect(checkCount('supplier-count', { ...counter, count: 3 }, 3, 'supplier')).toEqual([]);
    expect(checkCount('supplier-count', { ...counter, count: 4 }, 3, 'supplier')).toEqual([
      { invariant: 'supplier-count', keys: [counter], detail: 'the supplier count is 4; there are 3', fixable: true },
    ]);
    expect(checkCount('supplier-count', { ...counter, count: undefined }, 0, 'supplier')).toEqual([]);
  });

  it('names an orphaned sentinel (fixable), one pointing at a record of another value, and a record without its sentinel (not fixable)', () => {
    const records = [
      { pk: 'T', sk: 'SUPPLIER#1', id: '1', value: 'doc-1' },
      { pk: 'T', sk: 'SUPPLIER#2', id: '2', value: 'doc-2' },
    ];
    const sentinels = [
      { pk: 'T', sk: 'SUPPLIER_DOCUMENT#doc-1', value: 'doc-1', pointsTo: '1' },
      { pk: 'T', sk: 'SUPPLIER_DOCUMENT#doc-old', value: 'doc-old', pointsTo: '2' },
      { pk: 'T', sk: 'SUPPLIER_DOCUMENT#doc-9', value: 'doc-9', pointsTo: '9' },
    ];
    expect(checkSentinels('supplier-documents', 'document', sentinels, records).map(({ keys, detail, fixable }) => ({ keys, detail, fixable }))).toEqual([
      { keys: [{ pk: 'T', sk: 'SUPPLIER_DOCUMENT#doc-old' }], detail: 'the document sentinel doc-old points at 2, whose document is doc-2', fixable: true },
      { keys: [{ pk: 'T', sk: 'SUPPLIER_DOCUMENT#doc-9' }], detail: 'the document sentinel doc-9 points at 9, which does not exist', fixable: true },
      { keys: [{ pk: 'T', sk: 'SUPPLIER#2' }], detail: '2 has no sentinel for its document doc-2', fixable: false },
    ]);
  });
});

describe("a category's product count", () => {
  it('is the number of products naming it; a product naming no category is reported, not fixable', () => {
    const category = (id: string, productCount: number) => ({ pk: 'T', sk: `CATEGORY#${id}`, id, name: id, productCount });
    const product = (id: string, categoryId: string | null) => ({ pk: 'T', sk: `PRODUCT#${id}`, id, categoryId });
    const products = [product('p1', 'a'), product('p2', 'a'), product('p3', null), product('p4', 'gone'), product('p5', 'b')];
    expect(checkCategoryCounts([category('a', 2), category('b', 1), category('c', 0)], products)).toEqual([
      {
        invariant: 'category-counts',
        keys: [{ pk: 'T', sk: 'PRODUCT#p4' }],
        detail: 'the product p4 is in category gone, which does not exist',
        fixable: false,
      },
    ]);
    expect(checkCategoryCounts([category('a', 3), category('b', 1), category('c', 1), category('gone', 1)], products)).toEqual([
      { invariant: 'category-counts', keys: [{ pk: 'T', sk: 'CATEGORY#a' }], detail: 'the category a counts 3 products; 2 are in it', fixable: true },
      { invariant: 'category-counts', keys: [{ pk: 'T', sk: 'CATEGORY#c' }], detail: 'the category c counts 1 products; 0 are in it', fixable: true },
    ]);
  });
});

describe('the coverage index', () => {
  const product = {
    pk: 'TENANT#t',
    sk: 'PRODUCT#p1',
    id: 'p1',
    sku: 'ARROZ',
    name: 'Arroz',
    gtin: null,
    categoryId: null,
    status: 'ACTIVE' as const,
    onHand: 3_000n,
    coverageVersion: 2,
    sold: new Map([
      [7, 0n],
      [30, 1_000n],
      [90, 2_000n],
    ]),
  };
  const pk = (days: number) => `TENANT#t#COVERAGE#${days}`;
  const entryOf = (days: number) => {
    const expected = expectedEntry(product, days);
    return { pk: pk(days), sk: String(expected?.sk), days, name: 'Arroz', onHand: 3_000n, sold: expected?.sold ?? 0n };
  };

  it('finds each product once per window at its place, and names a missing, a stale and a stray entry', () => {
    const entries = [7, 30, 90].map(entryOf);
    expect(entries.map((entry) => entry.sk)).toEqual(['N#ARROZ#p1', 'F049000#ARROZ#p1', 'F0513500#ARROZ#p1']);
    expect(checkCoverage([product], entries, pk)).toEqual([]);
    const stray = { pk: pk(7), sk: 'F011#OLD#p9', days: 7, name: 'Velho', onHand: 1n, sold: 1n };
    const drift = checkCoverage([product], [{ ...entryOf(30), onHand: 2_000n }, entryOf(90), stray], pk);
    expect(drift.map(({ keys, fixable }) => ({ keys, fixable }))).toEqual([
      { keys: [{ pk: pk(7), sk: 'N#ARROZ#p1' }], fixable: true },
      { keys: [{ pk: pk(7), sk: 'F011#OLD#p9' }], fixable: true },
      { keys: [{ pk: pk(30), sk: 'F049000#ARROZ#p1' }], fixable: true },
    ]);
  });

  it('expects no entry of a product never indexed', () => {
    expect(checkCoverage([{ ...product, sold: undefined }], [], pk)).toEqual([]);
  });
});

describe('a count written lazily', () => {
  it('is no drift while never written, and drift once written wrong', () => {
    const counter = { pk: 'TENANT#t', sk: 'STATS#ADMINS' };
    expect(checkCount('admin-count', { ...counter, count: undefined }, 2, 'administrator', false)).toEqual([]);
    expect(checkCount('admin-count', { ...counter, count: 3 }, 2, 'administrator', false).map((drift) => drift.detail)).toEqual([
      'the administrator count is 3; there are 2',
    ]);
  });
});

describe('the daily sales counters', () => {
  const counterKey = (day: string, productId: string) => ({ pk: 'TENANT#t#SALES', sk: `DAY#${day}#${productId}` });
  const counter = (day: string, productId: string, units: bigint, seeded = false) => ({
    ...counterKey(day, productId),
    tenantId: 't',
    day,
    productId,
    units,
    seeded,
  });
  const sold = salesByDay([
    { productId: 'p', type: 'SALE', quantity: 1_500n, day: '2026-11-27' },
    { productId: 'p', type: 'SALE', quantity: 250n, day: '2026-11-27' },
    { productId: 'p', type: 'IN', quantity: 9_000n, day: '2026-11-27' },
    { productId: 'q', type: 'SALE', quantity: 1_000n, day: '2026-11-28' },
    { productId: 'r', type: 'SALE', quantity: 2_000n, day: '2026-11-28' },
  ]);

  it('sums the SALE movements of each day and product, nothing else', () => {
    expect(sold).toEqual(
      new Map([
        ['2026-11-27#p', 1_750n],
        ['2026-11-28#q', 1_000n],
        ['2026-11-28#r', 2_000n],
      ]),
    );
  });

  it('names a counter off its movements and a day of sales without its counter; a seeded counter is history without movements', () => {
    const counters = [counter('2026-11-27', 'p', 1_750n), counter('2026-11-28', 'q', 1_001n), counter('2026-11-01', 's', 5_000n, true)];
    expect(checkSalesDays(counters, sold, counterKey)).toEqual([
      {
        invariant: 'sales-days',
        keys: [counterKey('2026-11-28', 'q')],
        detail: 'product q sold 1.001 on 2026-11-28 by its counter; its SALE movements of that day sum to 1',
        fixable: true,
      },
      {
        invariant: 'sales-days',
        keys: [counterKey('2026-11-28', 'r')],
        detail: 'product r has SALE movements of 2 on 2026-11-28 and no counter for that day',
        fixable: true,
      },
    ]);
  });
});

describe("the tenant's references", () => {
  it("names a balance of a product or a warehouse that is not the tenant's, and a counter of another tenant or an unknown product; none is fixable", () => {
    const stock = balance({ productId: 'p', warehouseId: 'w' });
    const stray = { ...balance({ productId: 'x', warehouseId: 'y' }), sk: 'x#y' };
    const counter = { pk: 'TENANT#t#SALES', sk: 'DAY#2026-11-28#p', tenantId: 't', day: '2026-11-28', productId: 'p', units: 1n, seeded: false };
    const foreign = { ...counter, sk: 'DAY#2026-11-28#z', tenantId: 'other', productId: 'z' };
    expect(
      checkReferences('t', [stock, stray], [counter, foreign], new Set(['p']), new Set(['w'])).map((drift) => [drift.keys[0]?.sk, drift.detail, drift.fixable]),
    ).toEqual([
      ['x#y', "a balance names product x, which is not the tenant's", false],
      ['x#y', "a balance names warehouse y, which is not the tenant's", false],
      ['DAY#2026-11-28#z', "a daily sales counter in the tenant's partition says it is tenant other's", false],
      ['DAY#2026-11-28#z', "a daily sales counter names product z, which is not the tenant's", false],
    ]);
  });
});

describe("a user's session count", () => {
  const user = { pk: 'TENANT#t', sk: 'USER#u' };
  it('may stay above the sessions held (a sign-out or an expiry does not lower it), and is drift below them', () => {
    expect(checkSessionCount({ ...user, count: 3 }, 3)).toEqual([]);
    expect(checkSessionCount({ ...user, count: 5 }, 2)).toEqual([]);
    expect(checkSessionCount({ ...user, count: undefined }, 4)).toEqual([]);
    expect(checkSessionCount({ ...user, count: 1 }, 2)).toEqual([
      { invariant: 'session-count', keys: [user], detail: 'the session count is 1; the user holds 2 sessions', fixable: true },
    ]);
  });
});

describe('a searchable list', () => {
  it('names the ids it finds that are gone and the live ones it misses, on its manifest', () => {
    const manifest = { pk: 'TENANT#t#SEARCH#suppliers', sk: 'M' };
    expect(checkSearch('supplier-search', manifest, new Set(['a', 'b']), new Set(['a', 'b']), 'suppliers')).toEqual([]);
    expect(checkSearch('supplier-search', manifest, new Set(['a', 'gone']), new Set(['a', 'new']), 'suppliers')).toEqual([
      {
        invariant: 'supplier-search',
        keys: [manifest],
        detail: 'finds 1 suppliers that no longer exist (gone); misses 1 live suppliers (new)',
        fixable: true,
      },
    ]);
  });
});

describe("a stock count's totals and its list by difference", () => {
  const line = (productId: string, counted: bigint, systemAtCount: bigint, unitCost: bigint): CountLine => ({
    productId,
    sku: productId,
    name: productId,
    gtin: null,
    unit: 'UN',
    counted,
    systemAtCount,
    unitCost,
    addedUnitCost: null,
    countedAt: '2026-11-29T10:00:00.000Z',
    zeroed: false,
    appliedAt: null,
    movementId: null,
    appliedDelta: null,
    version: 1,
  });
  // 8 counted of 10 at 2.5 (−2 × 25,000 = −50,000 at 10^-7), 5 of 4 at 3.
  const lines = [line('a', 8000n, 10000n, 25_000n), line('b', 5000n, 4000n, 30_000n)];
  const count = (totals: Count['totals']): Count => ({
    id: 'c',
    warehouseId: 'w',
    companyId: null,
    status: 'OPEN',
    scope: 'WAREHOUSE',
    productIds: null,
    costMethod: 'WEIGHTED_AVERAGE',
    note: null,
    totals,
    uncounted: null,
    applied: 0,
    createdAt: '2026-11-29T09:00:00.000Z',
    createdBy: null,
    closedAt: null,
    cancelledAt: null,
  });
  const ranks = [
    { pk: 'P', sk: `${differenceRank(-50_000_000n)}#a`, productId: 'a' },
    { pk: 'P', sk: `${differenceRank(30_000_000n)}#b`, productId: 'b' },
  ];
  const right = { lines: 2, linesWithDifference: 2, surplusValue: 30_000_000n, shortageValue: -50_000_000n };

  it('finds nothing when the totals are the sums of the lines and each line is listed once at its place', () => {
    expect(checkCountTotals([{ pk: 'T', sk: 'COUNT#c', count: count(right), lines, ranks }])).toEqual([]);
    // The largest value of a difference, either sign, sorts first.
    expect(ranks.map((rank) => rank.sk).sort()).toEqual([ranks[0]?.sk, ranks[1]?.sk]);
  });

  it('names a count whose totals drifted, a stale entry and a missing one', () => {
    const drift = checkCountTotals([
      {
        pk: 'T',
        sk: 'COUNT#c',
        count: count({ ...right, surplusValue: 0n }),
        lines,
        ranks: [ranks[0] as (typeof ranks)[0], { ...(ranks[1] as (typeof ranks)[0]), sk: `${differenceRank(1n)}#b` }],
      },
    ]);
    expect(drift.map((found) => found.detail)).toEqual([
      expect.stringContaining('surplus 0'),
      expect.stringContaining('lists b by difference'),
      expect.stringContaining('does not list its line'),
    ]);
    expect(drift.every((found) => found.invariant === 'count-totals' && !found.fixable)).toBe(true);
  });

  it("names a balance with stock missing from its warehouse's index, and one at 0 still in it", () => {
    expect(checkWarehouseStockIndex([balance({ quantity: 1000n, indexed: true }), balance({ quantity: 0n, indexed: false })])).toEqual([]);
    expect(
      checkWarehouseStockIndex([balance({ quantity: 1000n, indexed: false }), balance({ quantity: 0n, indexed: true })]).map((found) => found.detail),
    ).toEqual([expect.stringContaining('has stock and is not in'), expect.stringContaining('is 0 and still in')]);
  });
});

describe('what the suppliers sell', () => {
  const link = (supplierId: string, productId: string, extra: Partial<SupplierProduct> = {}): SupplierProduct => ({
    supplierId,
    productId,
    supplierCode: null,
    unit: null,
    unitsPerPack: 1000n,
    lastCost: null,
    leadTimeDays: 7,
    minimumOrder: null,
    preferred: false,
    createdAt: '2026-11-30T10:00:00.000Z',
    updatedAt: '2026-11-30T10:00:00.000Z',
    version: 1,
    ...extra,
  });
  const clean = (): SupplierLinksRecord => {
    const sold = link('s1', 'p1', { supplierCode: 'ab-1', preferred: true });
    return {
      counts: [
        { pk: 'T', sk: 'LINKS#SUPPLIER#s1', side: 'supplier', id: 's1', count: 1 },
        { pk: 'T', sk: 'LINKS#PRODUCT#p1', side: 'product', id: 'p1', count: 1 },
      ],
      bySupplier: [{ pk: 'T#SUPPLIER_PRODUCTS#s1', sk: 'p1', link: sold }],
      byProduct: [{ pk: 'T#PRODUCT_SUPPLIERS#p1', sk: 's1', link: sold }],
      codes: [{ pk: 'T#SUPPLIER_CODES#s1', sk: 'AB-1', supplierId: 's1', productId: 'p1', code: 'ab-1' }],
      preferred: [{ pk: 'T', sk: 'PREFERRED_SUPPLIER#p1', productId: 'p1', supplierId: 's1' }],
    };
  };

  it('finds nothing when both copies, the counts, the code and the marker agree', () => {
    expect(checkSupplierLinks(clean())).toEqual([]);
  });

  it('names a copy that differs, a count that is off, a stray code and a marker without its link', () => {
    const record = clean();
    record.byProduct = [{ ...record.byProduct[0]!, link: { ...record.byProduct[0]!.link, leadTimeDays: 9 } }];
    record.counts[0] = { ...record.counts[0]!, count: 2 };
    record.codes.push({ pk: 'T#SUPPLIER_CODES#s1', sk: 'ZZ', supplierId: 's1', productId: 'p1', code: 'zz' });
    record.preferred.push({ pk: 'T', sk: 'PREFERRED_SUPPLIER#p2', productId: 'p2', supplierId: 's1' });
    expect(checkSupplierLinks(record).map((drift) => drift.detail)).toEqual([
      'the two copies of the link of supplier s1 and product p1 differ',
      'the supplier s1 counts 2 links; it has 1',
      'the code sentinel ZZ of supplier s1 names product p1, which does not have that code',
      "product p2's preferred supplier s1 does not have it preferred",
    ]);
  });

  it("names a link missing from the product's list, and a preferred link without its marker", () => {
    const record = clean();
    record.byProduct = [];
    record.preferred = [];
    expect(checkSupplierLinks(record).map((drift) => drift.detail)).toEqual([
      "supplier s1 sells product p1, which is not in the product's list",
      'the product p1 counts 1 links; it has 0',
      "supplier s1 is preferred for product p1 without the product's marker",
    ]);
  });
});

describe('purchase orders: their numbers and what is on order', () => {
  const order = (number: number, status: PurchaseOrder['status'], received = 0n): PurchaseOrder => ({
    id: `o${number}`,
    number,
    companyId: 'c1',
    supplierId: 's1',
    warehouseId: 'w1',
    status,
    expectedAt: null,
    notes: null,
    items: [{ productId: 'p1', quantity: 12_000n, unitCost: 85_000n, received }],
    createdAt: '2026-11-30T10:00:00.000Z',
    updatedAt: '2026-11-30T10:00:00.000Z',
    sentAt: null,
    cancelledAt: null,
    version: 1,
  });
  const at = (sk: string) => ({ pk: 'T', sk });

  it('finds nothing when the numbers run 1 to last and on order is what the open orders expect', () => {
    expect(
      checkPurchasing({
        orders: [
          { ...at('PURCHASE_ORDER#o1'), order: order(1, 'SENT', 4_000n) },
          { ...at('PURCHASE_ORDER#o2'), order: order(2, 'DRAFT') },
        ],
        sequences: [{ ...at('PURCHASE_ORDER_SEQUENCE#c1'), companyId: 'c1', last: 2 }],
        onOrder: [{ pk: 'T#ON_ORDER#w1', sk: 'p1', warehouseId: 'w1', productId: 'p1', quantity: 8_000n }],
      }),
    ).toEqual([]);
  });

  it('names a gap in the numbers and on order that the open orders do not expect', () => {
    expect(
      checkPurchasing({
        orders: [
          { ...at('PURCHASE_ORDER#o1'), order: order(1, 'SENT') },
          { ...at('PURCHASE_ORDER#o3'), order: order(3, 'CANCELLED') },
        ],
        sequences: [{ ...at('PURCHASE_ORDER_SEQUENCE#c1'), companyId: 'c1', last: 3 }],
        onOrder: [{ pk: 'T#ON_ORDER#w1', sk: 'p1', warehouseId: 'w1', productId: 'p1', quantity: 24_000n }],
      }).map((drift) => drift.detail),
    ).toEqual(["company c1's sequence is at 3; its orders are numbered 1, 3", 'on order of product p1 in warehouse w1: 24; the open orders expect 12']);
  });
});
