import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { addDays } from '../domain/days';
import { QUANTITY_PLACES } from '../domain/decimal';
import { coverageOrder, INDEXED_COVERAGE_DAYS, type CoverageSource } from './model';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { INVENTORY_ITEMS } from '../db/item-types';
import { COVERAGE_MARKER_SK, COVERAGE_TENANT_SHARDS, keys } from '../db/keys';
import { queryAll } from '../db/query';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { seriesOf, unitsBetween } from './sales-series';
import type { TenantStatus } from '../tenants/model';

/**
 * The coverage index: for each indexed `days` window, one entry per product in
 * the dashboard's order (keys.coverageEntry), so a page is one Query however large the
 * catalog. Its invariant: every product's entries are exactly what its product item says,
 * its `onHand` and the units sold per window it holds (`coverageSold`), and every write that
 * changes either moves the entries in the same transaction, conditioned on the product's
 * `coverageVersion`. Movements change `onHand` (lib/inventory/repository); the
 * scheduled job changes `coverageSold` as the window moves and sales are rolled up, then
 * marks the index current for the day. The dashboard pages through the index when it is
 * current for today, and through the last one the job completed, marked stale with its day,
 * when the job has not completed today's (it failed, or has not run yet); it reads in full
 * only for a tenant whose index no run ever completed.
 */

/** Units sold (thousandths) in each indexed window, by its `days`. */
export type SoldByDays = ReadonlyMap<number, bigint>;

/** What a product item holds for its entries: the version they are written under, and the sold units they were computed from (absent: never indexed). */
export interface CoverageState {
  version: number;
  sold?: SoldByDays;
}

const noSales = (): SoldByDays => new Map(INDEXED_COVERAGE_DAYS.map((days) => [days, 0n]));

export function coverageStateOf(productItem: Record<string, unknown>): CoverageState {
  const version = typeof productItem.coverageVersion === 'number' ? productItem.coverageVersion : 0;
  const stored = productItem.coverageSold as Record<string, unknown> | undefined;
  if (!stored || INDEXED_COVERAGE_DAYS.some((days) => stored[days] === undefined)) return { version };
  // Whole thousandths; read through the exact-decimal reader, which a number of any size goes through.
  return { version, sold: new Map(INDEXED_COVERAGE_DAYS.map((days) => [days, scaledFrom(stored[days], 0)])) };
}

/** The stored form of sold units: a map from each window's `days` to thousandths (exact integers, as in the sales series). */
export const storedSold = (sold: SoldByDays): Record<string, unknown> =>
  Object.fromEntries([...sold].map(([days, units]) => [String(days), storedDecimal(units, 0)]));

/** The condition a write of the product's coverage state makes: nobody wrote it since it was read. */
export function coverageVersionCondition(version: number): { condition: string; values: Record<string, unknown> } {
  return version === 0
    ? { condition: 'attribute_not_exists(coverageVersion)', values: {} }
    : { condition: 'coverageVersion = :coverageVersion', values: { ':coverageVersion': version } };
}

/**
 * The writes that move a product's entries from what `before` computes to what `after`
 * computes: per window, a put of the new entry, and a delete of the old one when its place
 * changed. `before.sold` absent: the product had no entries yet; `before.product`: the SKU
 * and name the old entries were written with, when a change of the product moves them.
 */
export function coverageEntryWrites(
  tenantId: string,
  product: Omit<CoverageSource, 'onHand'>,
  before: { onHand: bigint; sold?: SoldByDays; product?: Omit<CoverageSource, 'onHand'> },
  after: { onHand: bigint; sold: SoldByDays },
): TransactItem[] {
  return INDEXED_COVERAGE_DAYS.flatMap((days): TransactItem[] => {
    const sold = after.sold.get(days) ?? 0n;
    const next = coverageOrder({ ...product, onHand: after.onHand }, sold, days);
    const previous = before.sold && coverageOrder({ ...(before.product ?? product), onHand: before.onHand }, before.sold.get(days) ?? 0n, days);
    // Small on purpose (a walk of the dashboard reads every entry): the SKU and the id are in
    // the sort key, so the entry holds only the name and the two figures, and no `type`.
    const entry = {
      ...keys.coverageEntry(tenantId, days, next),
      name: product.name,
      onHand: storedDecimal(after.onHand, QUANTITY_PLACES),
      sold: storedDecimal(sold, 0),
    };
    const put: TransactItem = { Put: { TableName: tableName(), Item: entry } };
    return previous !== undefined && previous !== next
      ? [{ Delete: { TableName: tableName(), Key: keys.coverageEntry(tenantId, days, previous) } }, put]
      : [put];
  });
}

/** A new product's coverage: its state (no sales) and its entries, written with the product. */
export function newProductCoverage(tenantId: string, product: CoverageSource): { attributes: Record<string, unknown>; writes: TransactItem[] } {
  const sold = noSales();
  return {
    attributes: { coverageVersion: 1, coverageSold: storedSold(sold) },
    writes: coverageEntryWrites(tenantId, product, { onHand: product.onHand }, { onHand: product.onHand, sold }),
  };
}

/** Registers a tenant with products for the job (idempotent: the same item for every product). */
export async function registerCoverageTenant(tenantId: string): Promise<void> {
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.coverageTenant(tenantId), type: INVENTORY_ITEMS.coverageTenant } }));
}

/** Every tenant with products (the registry's shards, read to the end). */
export async function listCoverageTenants(): Promise<string[]> {
  const shards = await Promise.all(Array.from({ length: COVERAGE_TENANT_SHARDS }, (_, shard) => queryAll(keys.coverageTenantShard(shard).pk)));
  return shards.flat().map((item) => String(item.sk));
}

/** What an entry holds: its sort key is `coverageOrder` (coverage#SKU#id, and neither a SKU nor an id holds `#`). */
function entrySource(entry: Record<string, unknown>): CoverageSource {
  const [, sku = '', id = ''] = String(entry.sk).split('#');
  return { id, sku, name: String(entry.name), onHand: scaledFrom(entry.onHand, QUANTITY_PLACES) };
}

/**
 * A page read from the index: what each item after `afterOrder` is computed from, the order
 * of the last when more follow, and the business day whose sales the figures count (the
 * windows end the day before): `today` when the index is current, else the last day a run of
 * the job completed it for (`stale`).
 */
export interface CoverageIndexPage {
  rows: { product: CoverageSource; sold: bigint }[];
  lastOrder?: string;
  figuresOf: string;
  stale: boolean;
}

/**
 * The day an index's figures are of: `through` while it is marked current (for today or, when
 * the job has not run since, an earlier day); once invalidated (a roll-up started and has not
 * finished), the last day a run completed it for. None for an index no run ever completed.
 * Stock is never stale: every movement moves its product's entries in its own transaction.
 */
export function figuresDayOf(marker: Record<string, unknown> | undefined): string | undefined {
  if (typeof marker?.through === 'string') return marker.through;
  return typeof marker?.completedFor === 'string' ? marker.completedFor : undefined;
}

/**
 * A page of the coverage dashboard from the index of `days` (one of INDEXED_COVERAGE_DAYS):
 * current for `today`, or the last one the job completed when it has not completed today's
 * (marked `stale`, with its day); null for an index no run ever completed. The first page is
 * one Query (the marker sorts first in the partition); a later page is that Query from the
 * cursor's place and a Get of the marker, in parallel. Both consistent: a movement just
 * answered is in it.
 */
export async function readCoverageIndexPage(
  tenantId: string,
  days: number,
  page: { today: string; limit: number; afterOrder?: string },
): Promise<CoverageIndexPage | null> {
  const { pk } = keys.coverageIndexOf(tenantId, days);
  const query = (limit: number, afterSk?: string) =>
    db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        Limit: limit,
        ...(afterSk === undefined ? {} : { ExclusiveStartKey: { pk, sk: afterSk } }),
      }),
    );
  let marker: Record<string, unknown> | undefined;
  let entries: Record<string, unknown>[];
  if (page.afterOrder === undefined) {
    const { Items = [] } = await query(page.limit + 2);
    marker = Items[0]?.sk === COVERAGE_MARKER_SK ? Items[0] : undefined;
    entries = Items.slice(marker ? 1 : 0);
  } else {
    const [found, { Items = [] }] = await Promise.all([
      db().send(new GetCommand({ TableName: tableName(), Key: keys.coverageMarker(tenantId, days), ConsistentRead: true })),
      query(page.limit + 1, page.afterOrder),
    ]);
    marker = found.Item;
    entries = Items;
  }
  const figuresOf = figuresDayOf(marker);
  if (figuresOf === undefined) return null;
  const items = entries.slice(0, page.limit);
  return {
    rows: items.map((entry) => ({ product: entrySource(entry), sold: scaledFrom(entry.sold, 0) })),
    ...(entries.length > page.limit ? { lastOrder: String(items.at(-1)?.sk) } : {}),
    figuresOf,
    stale: marker?.through !== page.today,
  };
}

/**
 * The entries of the index of `days` whose coverage is below `belowHundredths` days (all of them
 * with sales, without: `undefined`), with the day their figures are of (undefined for an index no
 * run ever completed). The index is ordered by coverage, so this is one key-range Query, read
 * eventually consistent (half the read units: purchase suggestions, not a figure a movement was
 * just answered with), page after page: it reads only the products short of cover.
 */
export async function readShortOfCover(
  tenantId: string,
  days: number,
  belowHundredths: bigint | undefined,
): Promise<{ rows: { product: CoverageSource; sold: bigint }[]; figuresOf: string | undefined }> {
  const { pk } = keys.coverageIndexOf(tenantId, days);
  const upper = belowHundredths === undefined ? 'F~' : `F${String(belowHundredths.toString().length).padStart(2, '0')}${belowHundredths.toString()}`;
  const rows: { product: CoverageSource; sold: bigint }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': pk, ':low': 'F', ':high': upper },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const entry of page.Items ?? []) rows.push({ product: entrySource(entry), sold: scaledFrom(entry.sold, 0) });
    start = page.LastEvaluatedKey;
  } while (start);
  const marker = await db().send(new GetCommand({ TableName: tableName(), Key: keys.coverageMarker(tenantId, days) }));
  return { rows, figuresOf: figuresDayOf(marker.Item) };
}

/**
 * The markers' partitions are the only coverage items written without a product's condition
 * (an entry is written only with its product, which a deletion removes). So every marker write
 * is a transaction that also checks the tenant's own item: it exists and is not DELETING. A
 * deletion marks the tenant DELETING before its first count, so a marker written before that is
 * counted and deleted like any other item, and none can be written after: no run of the daily
 * job leaves a marker behind a deleted tenant.
 */
const tenantNotDeleting = (tenantId: string): TransactItem => ({
  ConditionCheck: {
    TableName: tableName(),
    Key: keys.tenant(tenantId),
    ConditionExpression: 'attribute_exists(pk) AND #status <> :deleting',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':deleting': 'DELETING' satisfies TenantStatus },
  },
});

/** The tenant check is a marker transaction's first item: its cancellation code says whether the tenant is gone or being deleted. */
const tenantGone = (error: unknown): boolean => cancellationCodes(error)[0] === 'ConditionalCheckFailed';

/**
 * Marks a tenant's index not current: the dashboard reads in full until the next refresh
 * marks it current again. Each marker's `generation` goes up, so a refresh that read it
 * before cannot mark it current after. The roll-up calls it before and again after it
 * changes the tenant's sales series: a refresh of an overlapping run that read the old
 * series in between cannot leave the index marked current once the roll-up is done.
 * Nothing is written for a tenant that is gone or being deleted (false then).
 */
export async function invalidateCoverage(tenantId: string): Promise<boolean> {
  return withOptimisticRetries<boolean>(async () => {
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            tenantNotDeleting(tenantId),
            ...INDEXED_COVERAGE_DAYS.map((days): TransactItem => ({
              Update: {
                TableName: tableName(),
                Key: keys.coverageMarker(tenantId, days),
                UpdateExpression: 'SET #type = :type, through = :none ADD generation :one',
                ExpressionAttributeNames: { '#type': 'type' },
                ExpressionAttributeValues: { ':type': INVENTORY_ITEMS.coverageMarker, ':none': null, ':one': 1 },
              },
            })),
          ],
        }),
      );
      return { retry: false, value: true };
    } catch (error) {
      if (tenantGone(error)) return { retry: false, value: false };
      if (cancellationCodes(error).includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

/** What a refresh changes for one product: its state and entries move from `before` to the sold units of today's windows. */
interface Change {
  product: Omit<CoverageSource, 'onHand'>;
  onHand: bigint;
  state: CoverageState;
  sold: SoldByDays;
}

/** Units sold in each indexed window ending yesterday, from a product's series item (none: no sales). */
function soldOf(seriesItem: Record<string, unknown> | undefined, today: string): SoldByDays {
  if (!seriesItem) return noSales();
  const series = seriesOf(seriesItem);
  return new Map(INDEXED_COVERAGE_DAYS.map((days) => [days, BigInt(unitsBetween(series, addDays(today, -days), addDays(today, -1)))]));
}

/** The change a product needs for `today`, or null when its entries are already current. */
function changeOf(productItem: Record<string, unknown>, seriesItem: Record<string, unknown> | undefined, today: string): Change | null {
  const state = coverageStateOf(productItem);
  const sold = soldOf(seriesItem, today);
  if (state.sold && INDEXED_COVERAGE_DAYS.every((days) => state.sold?.get(days) === sold.get(days))) return null;
  return {
    product: { id: String(productItem.id), sku: String(productItem.sku), name: String(productItem.name) },
    onHand: scaledFrom(productItem.onHand, QUANTITY_PLACES),
    state,
    sold,
  };
}

function changeWrites(tenantId: string, change: Change): TransactItem[] {
  const { condition, values } = coverageVersionCondition(change.state.version);
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.product(tenantId, change.product.id),
        UpdateExpression: 'SET coverageSold = :sold, coverageVersion = :next',
        ConditionExpression: `attribute_exists(pk) AND ${condition}`,
        ExpressionAttributeValues: { ':sold': storedSold(change.sold), ':next': change.state.version + 1, ...values },
      },
    },
    ...coverageEntryWrites(
      tenantId,
      change.product,
      { onHand: change.onHand, ...(change.state.sold ? { sold: change.state.sold } : {}) },
      { onHand: change.onHand, sold: change.sold },
    ),
  ];
}

const lostToConcurrentWrite = (error: unknown): boolean => {
  const codes = cancellationCodes(error);
  return codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict');
};

/** One product brought up to date on its own, re-read consistently until its write wins. */
async function refreshProduct(tenantId: string, productId: string, today: string): Promise<boolean> {
  return withOptimisticRetries<boolean>(async () => {
    const [productItem, seriesItem] = await getMany([keys.product(tenantId, productId), keys.productSales(tenantId, productId)]);
    const change = productItem && changeOf(productItem, seriesItem, today);
    if (!change) return { retry: false, value: false };
    try {
      await db().send(new TransactWriteCommand({ TransactItems: changeWrites(tenantId, change) }));
      return { retry: false, value: true };
    } catch (error) {
      if (lostToConcurrentWrite(error)) return { retry: true };
      throw error;
    }
  });
}

/** DynamoDB's limit of items in one transaction. */
const TRANSACTION_ITEMS = 100;

/**
 * Brings every product's state and entries up to date for `today`, from one consistent read
 * of the tenant's products and series (after the markers' generations were read: a series
 * written after that read changes a generation, see invalidateCoverage). Changes go in transactions of up to
 * 100 items; a transaction that loses to a concurrent movement is redone product by product,
 * each re-read consistently, so no write is ever based on a stale version.
 */
async function bringUpToDate(tenantId: string, today: string): Promise<{ products: number; updated: number }> {
  const { pk, skPrefix } = keys.productsOfTenant(tenantId);
  const items = await queryAll(pk, { skPrefix, consistent: true });
  const series = new Map(items.filter((item) => item.type === INVENTORY_ITEMS.productSales).map((item) => [String(item.productId), item]));
  const products = items.filter((item) => item.type === INVENTORY_ITEMS.product);
  const changes = products.flatMap((item) => changeOf(item, series.get(String(item.id)), today) ?? []);

  const batches: { changes: Change[]; writes: TransactItem[] }[] = [];
  for (const change of changes) {
    const writes = changeWrites(tenantId, change);
    const last = batches.at(-1);
    if (last && last.writes.length + writes.length <= TRANSACTION_ITEMS) {
      last.changes.push(change);
      last.writes.push(...writes);
    } else batches.push({ changes: [change], writes });
  }
  let updated = 0;
  for (const batch of batches) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: batch.writes }));
      updated += batch.changes.length;
    } catch (error) {
      if (!lostToConcurrentWrite(error)) throw error;
      for (const change of batch.changes) if (await refreshProduct(tenantId, change.product.id, today)) updated += 1;
    }
  }
  return { products: products.length, updated };
}

/**
 * Marks the index current for `today`: 'marked'; 'changed' when a marker changed since its
 * `generation` was read; 'gone' when the tenant is gone or being deleted (nothing written).
 */
async function markCurrent(tenantId: string, today: string, generations: (number | undefined)[]): Promise<'marked' | 'changed' | 'gone'> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          tenantNotDeleting(tenantId),
          ...INDEXED_COVERAGE_DAYS.map((days, index): TransactItem => {
            const generation = generations[index];
            return {
              Put: {
                TableName: tableName(),
                Item: {
                  ...keys.coverageMarker(tenantId, days),
                  type: INVENTORY_ITEMS.coverageMarker,
                  through: today,
                  // Kept when an invalidation clears `through`: the day the stale index's figures are of.
                  completedFor: today,
                  generation: generation ?? 0,
                },
                ConditionExpression: generation === undefined ? 'attribute_not_exists(pk)' : 'generation = :generation',
                ...(generation === undefined ? {} : { ExpressionAttributeValues: { ':generation': generation } }),
              },
            };
          }),
        ],
      }),
    );
    return 'marked';
  } catch (error) {
    if (tenantGone(error)) return 'gone';
    if (lostToConcurrentWrite(error)) return 'changed';
    throw error;
  }
}

/** How often a refresh starts over when its tenant's index is invalidated under it. */
const REFRESH_ATTEMPTS = 5;

/**
 * Brings a tenant's coverage index up to date for `today` and marks it current: the job's
 * step after the roll-up. Idempotent, safe beside movements and beside another run, and
 * beside a deletion of the tenant (its markers are not written then: tenantNotDeleting).
 */
export async function refreshTenantCoverage(tenantId: string, today: string): Promise<{ products: number; updated: number }> {
  let updated = 0;
  for (let attempt = 1; ; attempt += 1) {
    const markers = await getMany(INDEXED_COVERAGE_DAYS.map((days) => keys.coverageMarker(tenantId, days)));
    const result = await bringUpToDate(tenantId, today);
    updated += result.updated;
    const marked = await markCurrent(
      tenantId,
      today,
      markers.map((marker) => (marker ? Number(marker.generation ?? 0) : undefined)),
    );
    if (marked !== 'changed') return { products: result.products, updated };
    if (attempt >= REFRESH_ATTEMPTS) throw new Error(`the coverage index of tenant ${tenantId} was invalidated ${attempt} times during its refresh`);
  }
}
