import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import { auditItems } from '../audit/repository';
import { getMany } from '../db/batch';
import { db, tableName, type TransactItem } from '../db/client';
import { scaledFrom, storedDecimal } from '../db/decimals';
import { COUNT_ITEMS } from '../db/item-types';
import { gsi1, keys } from '../db/keys';
import { queryAll, queryNewestFirst, queryPage } from '../db/query';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import { QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { Conflict, NotFound } from '../errors';
import { completionItem, keyTakenOver } from '../idempotency/repository';
import type { IdempotentWrite } from '../idempotency/model';
import { applyMovement, lastCostAfter } from '../inventory/costing';
import type { Balance, Movement } from '../inventory/model';
import type { ProductListing } from '../inventory/product-repository';
import { balancePut, historyEntries, productMove, toBalance, warehouseRefusal, warehouseTotalsOfChanges } from '../inventory/repository';
import { differenceRank, lineTotals, MAX_COUNT_LINES, type Count, type CountLine, type CountTotals } from './model';

/**
 * A stock count's items (lib/db/keys): the count (status, scope, maintained totals), its
 * entries in the lists of counts, its lines (one per product, in the count's partition) with a
 * copy of each in the list by the value of its difference, and the warehouse's count locks.
 *
 * - Opening: the count, its list entries and the locks, in one transaction conditioned on no
 *   other count holding the warehouse or one of the products.
 * - A line: its write, its copy moved in the list by difference, the count's totals by exact
 *   deltas (conditioned on the count being OPEN, and on its line limit for a new line), and,
 *   when the system's quantity is taken now, a check that the balance is the version read.
 * - The close: chunks of lines, each ONE transaction: every line's ADJUSTMENT (the balance as
 *   it is then, moved by the line's difference; the product's on-hand and coverage; the
 *   movement's stock-history entries), the line marked applied (conditioned on it not being
 *   so: a line is applied once, whoever closes), the warehouse's totals by the chunk's summed
 *   deltas and the count's progress. Then the end: CLOSED, the locks released, the audit entry.
 */

/** The lists a count is in: all, its warehouse's, and the ACTIVE one while it is OPEN or CLOSING. */
export const countLists = (count: Pick<Count, 'warehouseId'>, active: boolean): string[] => ['*', count.warehouseId, ...(active ? ['ACTIVE'] : [])];

const totalsAttributes = (totals: CountTotals) => ({
  lineCount: totals.lines,
  differenceCount: totals.linesWithDifference,
  surplusValue: storedDecimal(totals.surplusValue, VALUE_PLACES),
  shortageValue: storedDecimal(totals.shortageValue, VALUE_PLACES),
});

const nullable = <T>(value: unknown, is: (value: unknown) => value is T): T | null => (is(value) ? value : null);
const isString = (value: unknown): value is string => typeof value === 'string';

export const toCount = (item: Record<string, unknown>): Count => ({
  id: String(item.id),
  warehouseId: String(item.warehouseId),
  companyId: nullable(item.companyId, isString),
  status: item.status as Count['status'],
  scope: item.scope === 'PRODUCTS' ? 'PRODUCTS' : 'WAREHOUSE',
  productIds: Array.isArray(item.productIds) ? (item.productIds as string[]) : null,
  costMethod: item.costMethod === 'REPLACEMENT' ? 'REPLACEMENT' : 'WEIGHTED_AVERAGE',
  note: nullable(item.note, isString),
  totals: {
    lines: Number(item.lineCount ?? 0),
    linesWithDifference: Number(item.differenceCount ?? 0),
    surplusValue: scaledFrom(item.surplusValue, VALUE_PLACES),
    shortageValue: scaledFrom(item.shortageValue, VALUE_PLACES),
  },
  uncounted: item.uncounted === 'zero' || item.uncounted === 'ignore' ? item.uncounted : null,
  applied: Number(item.applied ?? 0),
  createdAt: String(item.createdAt),
  createdBy: nullable(item.createdBy, isString),
  closedAt: nullable(item.closedAt, isString),
  cancelledAt: nullable(item.cancelledAt, isString),
});

/** The audit record the close writes when it ends, kept on the count from the request that closed it (its actor and origin). */
export const closingAuditOf = (item: Record<string, unknown> | undefined): AuditRecord | undefined => item?.closingAudit as AuditRecord | undefined;

export const toLine = (item: Record<string, unknown>): CountLine => ({
  productId: String(item.productId),
  sku: String(item.sku),
  name: String(item.name),
  gtin: nullable(item.gtin, isString),
  unit: String(item.unit),
  counted: scaledFrom(item.counted, QUANTITY_PLACES),
  systemAtCount: scaledFrom(item.systemAtCount, QUANTITY_PLACES),
  unitCost: scaledFrom(item.unitCost, UNIT_COST_PLACES),
  addedUnitCost: item.addedUnitCost === undefined ? null : scaledFrom(item.addedUnitCost, UNIT_COST_PLACES),
  countedAt: String(item.countedAt),
  zeroed: item.zeroed === true,
  appliedAt: nullable(item.appliedAt, isString),
  movementId: nullable(item.movementId, isString),
  appliedDelta: item.appliedDelta === undefined ? null : scaledFrom(item.appliedDelta, QUANTITY_PLACES),
  version: Number(item.version ?? 1),
});

const lineAttributes = (line: CountLine): Record<string, unknown> => ({
  productId: line.productId,
  sku: line.sku,
  name: line.name,
  ...(line.gtin === null ? {} : { gtin: line.gtin }),
  unit: line.unit,
  counted: storedDecimal(line.counted, QUANTITY_PLACES),
  systemAtCount: storedDecimal(line.systemAtCount, QUANTITY_PLACES),
  unitCost: storedDecimal(line.unitCost, UNIT_COST_PLACES),
  ...(line.addedUnitCost === null ? {} : { addedUnitCost: storedDecimal(line.addedUnitCost, UNIT_COST_PLACES) }),
  countedAt: line.countedAt,
  zeroed: line.zeroed,
  ...(line.appliedAt === null ? {} : { appliedAt: line.appliedAt }),
  ...(line.movementId === null ? {} : { movementId: line.movementId }),
  ...(line.appliedDelta === null ? {} : { appliedDelta: storedDecimal(line.appliedDelta, QUANTITY_PLACES) }),
  version: line.version,
});

const totalsDelta = (before: CountTotals, after: CountTotals) => ({
  ':lines': after.lines - before.lines,
  ':differences': after.linesWithDifference - before.linesWithDifference,
  ':surplus': storedDecimal(after.surplusValue - before.surplusValue, VALUE_PLACES),
  ':shortage': storedDecimal(after.shortageValue - before.shortageValue, VALUE_PLACES),
});
const TOTALS_ADD = 'ADD lineCount :lines, differenceCount :differences, surplusValue :surplus, shortageValue :shortage';

// ---------------------------------------------------------------------------------------------
// Opening and reading

/**
 * Open a count: the count, its list entries, the warehouse's lock (a count of the warehouse
 * takes it whole, only while no count of its products is open; a count of products only while
 * no count of the whole warehouse is, and each of its products' locks), the key's completion
 * and the audit entry. 409 naming what is being counted already.
 */
export async function insertCount(tenantId: string, count: Count, audit: AuditRecord, idempotent?: { write: IdempotentWrite; view: unknown }): Promise<void> {
  const whole = count.scope === 'WAREHOUSE';
  const lock: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: keys.countLock(tenantId, count.warehouseId),
      UpdateExpression: whole ? 'SET wholeCountId = :id, #type = :type' : 'ADD scoped :one SET #type = :type',
      ConditionExpression: whole
        ? 'attribute_not_exists(wholeCountId) AND (attribute_not_exists(scoped) OR scoped = :zero)'
        : 'attribute_not_exists(wholeCountId)',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: whole ? { ':id': count.id, ':zero': 0, ':type': COUNT_ITEMS.lock } : { ':one': 1, ':type': COUNT_ITEMS.lock },
    },
  };
  const productLocks: TransactItem[] = (count.productIds ?? []).map((productId) => ({
    Put: {
      TableName: tableName(),
      Item: { ...keys.countProductLock(tenantId, count.warehouseId, productId), type: COUNT_ITEMS.productLock, countId: count.id },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  }));
  const items: TransactItem[] = [
    lock,
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.count(tenantId, count.id), ...countAttributes(count) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...countLists(count, true).map((list) => ({
      Put: { TableName: tableName(), Item: { ...keys.countEntry(tenantId, list, count.createdAt, count.id), type: COUNT_ITEMS.entry, countId: count.id } },
    })),
    ...productLocks,
  ];
  const keyIndex = items.length;
  if (idempotent) items.push(completionItem(idempotent.write, idempotent.view));
  items.push(...auditItems(audit));
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
  } catch (error) {
    if (idempotent) keyTakenOver(error, keyIndex);
    const codes = cancellationCodes(error);
    if (codes[0] === 'ConditionalCheckFailed') {
      throw new Conflict(
        whole
          ? 'A count of this warehouse, or of some of its products, is already open: close or cancel it first'
          : 'A count of this whole warehouse is already open: close or cancel it first',
      );
    }
    const taken = codes.slice(5, 5 + productLocks.length).findIndex((code) => code === 'ConditionalCheckFailed');
    if (taken >= 0) throw new Conflict(`Product ${count.productIds?.[taken]} is already in an open count of this warehouse: close or cancel it first`);
    throw error;
  }
}

function countAttributes(count: Count): Record<string, unknown> {
  return {
    type: COUNT_ITEMS.count,
    id: count.id,
    warehouseId: count.warehouseId,
    ...(count.companyId === null ? {} : { companyId: count.companyId }),
    status: count.status,
    scope: count.scope,
    ...(count.productIds === null ? {} : { productIds: count.productIds }),
    costMethod: count.costMethod,
    ...(count.note === null ? {} : { note: count.note }),
    ...totalsAttributes(count.totals),
    applied: count.applied,
    createdAt: count.createdAt,
    ...(count.createdBy === null ? {} : { createdBy: count.createdBy }),
  };
}

async function readCountItem(tenantId: string, countId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.count(tenantId, countId), ConsistentRead: true }));
  return Item;
}

/** One count of the tenant (consistent), or none. */
export async function findCount(tenantId: string, countId: string): Promise<Count | undefined> {
  const item = await readCountItem(tenantId, countId);
  return item ? toCount(item) : undefined;
}

/** A page of one list of counts, newest first, after the entry `afterSk`: the entries' Query, then their counts in one BatchGetItem. */
export async function readCountPage(tenantId: string, list: string, page: { limit: number; afterSk?: string }): Promise<{ counts: Count[]; nextSk?: string }> {
  const { items, nextSk } = await queryNewestFirst(keys.countsOf(tenantId, list).pk, { fromSk: '0', toSk: '~', ...page });
  const found = await getMany(items.map((entry) => keys.count(tenantId, String(entry.countId))));
  return { counts: found.flatMap((item) => (item ? [toCount(item)] : [])), ...(nextSk === undefined ? {} : { nextSk }) };
}

/** A page of a count's lines, by product id or by the value of their difference (one Query), after the entry `afterSk`. */
export async function readLinePage(
  tenantId: string,
  countId: string,
  order: 'product' | 'difference',
  page: { limit: number; afterSk?: string },
): Promise<{ lines: CountLine[]; lastSk?: string }> {
  const { items, more } =
    order === 'product'
      ? await queryPage(keys.countLinesOf(tenantId, countId).pk, { skPrefix: keys.countLinesOf(tenantId, countId).skPrefix, consistent: true, ...page })
      : await queryPage(keys.countLineRanksOf(tenantId, countId).pk, { consistent: true, ...page });
  return { lines: items.map(toLine), ...(more ? { lastSk: String(items.at(-1)?.sk) } : {}) };
}

/** Every line of a count (the close's walk, the integrity check), consistent. */
export async function readAllLines(tenantId: string, countId: string): Promise<CountLine[]> {
  const { pk, skPrefix } = keys.countLinesOf(tenantId, countId);
  return (await queryAll(pk, { skPrefix, consistent: true })).map(toLine);
}

/** Lines of these products in the count (absent ones undefined), consistent. */
export async function readLines(tenantId: string, countId: string, productIds: readonly string[]): Promise<(CountLine | undefined)[]> {
  const items = await getMany(productIds.map((productId) => keys.countLine(tenantId, countId, productId)));
  return items.map((item) => (item ? toLine(item) : undefined));
}

/** The balances of these products in a warehouse, by product id (one never written is absent). */
export async function readBalancesOf(tenantId: string, warehouseId: string, productIds: readonly string[]): Promise<Map<string, Balance>> {
  const items = await getMany(productIds.map((productId) => keys.stock(tenantId, productId, warehouseId)));
  return new Map(items.flatMap((item, index) => (item ? [[productIds[index] as string, toBalance(item)] as const] : [])));
}

/**
 * A page of the products with stock in a warehouse, by product id, after `afterProductId`:
 * one Query of the warehouse's sparse index of balances (eventually consistent: a balance
 * moved a moment ago may be a moment late).
 */
export async function readWarehouseStockPage(
  tenantId: string,
  warehouseId: string,
  page: { limit: number; afterProductId?: string },
): Promise<{ balances: { productId: string; quantity: bigint }[]; lastProductId?: string }> {
  const { gsi1pk } = gsi1.warehouseStockOf(tenantId, warehouseId);
  const { Items = [], LastEvaluatedKey } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk },
      Limit: page.limit,
      ...(page.afterProductId === undefined
        ? {}
        : {
            ExclusiveStartKey: {
              gsi1pk,
              gsi1sk: page.afterProductId,
              ...keys.stock(tenantId, page.afterProductId, warehouseId),
            },
          }),
    }),
  );
  const balances = Items.map((item) => ({ productId: String(item.productId), quantity: scaledFrom(item.quantity, QUANTITY_PLACES) }));
  return { balances, ...(LastEvaluatedKey ? { lastProductId: String(LastEvaluatedKey.gsi1sk) } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Counting

/** What the line's writer decides from what it read: the line to write, or an error. */
export interface LinePlan {
  /** Throws for what the count or the product does not take. */
  decide: (read: { count: Count; line: CountLine | undefined; balance: Balance; product: Record<string, unknown> | undefined }) => {
    line: CountLine;
    /** The line's system quantity is the balance read now: the transaction checks that balance is still that version. */
    readsBalance: boolean;
  };
}

/**
 * Write a line (see the file's comment): the count, the line, the balance and the product are
 * read in one BatchGetItem; a condition lost to a concurrent scan or movement reads again. With
 * an Idempotency-Key (a scan), the key's answer commits with the line: a scan sent again after
 * a lost answer counts once.
 */
export async function writeLine(
  tenantId: string,
  place: { countId: string; productId: string },
  plan: LinePlan,
  audit: (line: CountLine) => AuditRecord,
  idempotent?: { write: IdempotentWrite; view: (line: CountLine) => unknown },
): Promise<{ count: Count; line: CountLine }> {
  return withOptimisticRetries<{ count: Count; line: CountLine }>(async () => {
    const [countItem] = await getMany([keys.count(tenantId, place.countId)]);
    if (!countItem) throw new NotFound('No such count');
    const count = toCount(countItem);
    const [lineItem, stockItem, productItem] = await getMany([
      keys.countLine(tenantId, place.countId, place.productId),
      keys.stock(tenantId, place.productId, count.warehouseId),
      keys.product(tenantId, place.productId),
    ]);
    const previous = lineItem ? toLine(lineItem) : undefined;
    const balance = toBalance(stockItem);
    const { line, readsBalance } = plan.decide({ count, line: previous, balance, product: productItem });
    const before = lineTotals(previous);
    const after = lineTotals(line);
    const items: TransactItem[] = [
      {
        Update: {
          TableName: tableName(),
          Key: keys.count(tenantId, count.id),
          UpdateExpression: TOTALS_ADD,
          ConditionExpression: previous ? '#status = :open' : '#status = :open AND lineCount < :max',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':open': 'OPEN', ...(previous ? {} : { ':max': MAX_COUNT_LINES }), ...totalsDelta(before, after) },
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.countLine(tenantId, count.id, line.productId), type: COUNT_ITEMS.line, ...lineAttributes(line) },
          ConditionExpression: previous ? 'version = :version' : 'attribute_not_exists(pk)',
          ...(previous ? { ExpressionAttributeValues: { ':version': previous.version } } : {}),
        },
      },
      ...rankMove(tenantId, count.id, previous, line),
    ];
    if (readsBalance) {
      items.push({
        ConditionCheck: {
          TableName: tableName(),
          Key: keys.stock(tenantId, line.productId, count.warehouseId),
          ConditionExpression: balance.version === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
          ...(balance.version === 0 ? {} : { ExpressionAttributeValues: { ':version': balance.version } }),
        },
      });
    }
    const keyIndex = items.length;
    if (idempotent) items.push(completionItem(idempotent.write, idempotent.view(line)));
    items.push(...auditItems(audit(line)));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (idempotent) keyTakenOver(error, keyIndex);
      const codes = cancellationCodes(error);
      if (codes[0] === 'ConditionalCheckFailed') {
        const now = await findCount(tenantId, count.id);
        if (now?.status === 'OPEN' && !previous && now.totals.lines >= MAX_COUNT_LINES)
          throw new Conflict(`The count has ${MAX_COUNT_LINES} lines, the most a count holds`);
        if (now?.status !== 'OPEN') throw new Conflict(`The count is ${now?.status ?? 'gone'}: only an OPEN count takes lines`);
        return { retry: true };
      }
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
    const totals = {
      lines: count.totals.lines + after.lines - before.lines,
      linesWithDifference: count.totals.linesWithDifference + after.linesWithDifference - before.linesWithDifference,
      surplusValue: count.totals.surplusValue + after.surplusValue - before.surplusValue,
      shortageValue: count.totals.shortageValue + after.shortageValue - before.shortageValue,
    };
    return { retry: false, value: { count: { ...count, totals }, line } };
  });
}

/** The line's copy in the list by difference: the old one removed when its place changes, the new one written. */
function rankMove(tenantId: string, countId: string, previous: CountLine | undefined, line: CountLine): TransactItem[] {
  const rank = differenceRank((line.counted - line.systemAtCount) * line.unitCost);
  const items: TransactItem[] = [];
  if (previous) {
    const before = differenceRank((previous.counted - previous.systemAtCount) * previous.unitCost);
    if (before !== rank) items.push({ Delete: { TableName: tableName(), Key: keys.countLineRank(tenantId, countId, before, previous.productId) } });
  }
  items.push({
    Put: { TableName: tableName(), Item: { ...keys.countLineRank(tenantId, countId, rank, line.productId), type: COUNT_ITEMS.rank, ...lineAttributes(line) } },
  });
  return items;
}

// ---------------------------------------------------------------------------------------------
// Closing and cancelling

/**
 * Move an OPEN count to CLOSING with the close's rule and its audit record (kept for the end);
 * a count already CLOSING or CLOSED by the same rule is left as it is. Returns the count as it
 * is then. 409 for a CANCELLED count, or one closing by the other rule.
 */
export async function startClosing(tenantId: string, countId: string, uncounted: 'ignore' | 'zero', audit: AuditRecord): Promise<Count> {
  const item = await readCountItem(tenantId, countId);
  if (!item) throw new NotFound('No such count');
  const count = toCount(item);
  if (count.status === 'CANCELLED') throw new Conflict('The count was cancelled: it cannot be closed');
  if (count.status !== 'OPEN') {
    if (count.uncounted !== uncounted)
      throw new Conflict(`The count is ${count.status} with uncounted "${count.uncounted ?? ''}": close it with the same rule`);
    return count;
  }
  try {
    const { Attributes } = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.count(tenantId, countId),
        UpdateExpression: 'SET #status = :closing, uncounted = :uncounted, closingAudit = :audit',
        ConditionExpression: '#status = :open',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':closing': 'CLOSING', ':open': 'OPEN', ':uncounted': uncounted, ':audit': audit },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toCount(Attributes ?? {});
  } catch (error) {
    // Another request moved it first (a close or a cancel): decide on what it is now.
    if ((error as Error).name === 'ConditionalCheckFailedException') return startClosing(tenantId, countId, uncounted, audit);
    throw error;
  }
}

/** One line the close applies, and whether the close makes it (a product nobody counted, zeroed). */
export interface Application {
  line: CountLine;
  /** A line the close makes (uncounted: zero): written new, with the count's totals. */
  isNew: boolean;
}

/** The count's progress and the warehouse's totals: the chunk's shared items. */
const CHUNK_SHARED_ITEMS = 2;
const TRANSACTION_ITEMS = 100;

/**
 * Apply lines in ONE transaction (see the file's comment). Each line's balance and product are
 * read again on every try; a line applied meanwhile (another close) is left out, a new line
 * made meanwhile likewise. As many lines as fit one transaction, in order: returns how many it
 * applied and how many of `chunk` it went through (the rest is the caller's next call).
 */
/** What a chunk's application reads: its lines, balances and products, in the chunk's order. */
export interface ChunkReads {
  productIds: string[];
  lineItems: (Record<string, unknown> | undefined)[];
  stockItems: (Record<string, unknown> | undefined)[];
  productItems: (Record<string, unknown> | undefined)[];
}

/** A chunk's reads, in one consistent BatchGetItem: a close reads the next chunk's while the current one's transaction runs. */
export async function readChunk(tenantId: string, count: Pick<Count, 'id' | 'warehouseId'>, chunk: readonly Application[]): Promise<ChunkReads> {
  const productIds = chunk.map(({ line }) => line.productId);
  const found = await getMany([
    ...productIds.map((productId) => keys.countLine(tenantId, count.id, productId)),
    ...productIds.map((productId) => keys.stock(tenantId, productId, count.warehouseId)),
    ...productIds.map((productId) => keys.product(tenantId, productId)),
  ]);
  const size = productIds.length;
  return { productIds, lineItems: found.slice(0, size), stockItems: found.slice(size, 2 * size), productItems: found.slice(2 * size) };
}

export async function applyLines(
  tenantId: string,
  count: Count,
  chunk: readonly Application[],
  movementOf: (line: CountLine, target: bigint) => Movement,
  nowIso: string,
  prefetched?: Promise<ChunkReads>,
): Promise<{ applied: number; consumed: number }> {
  let first = prefetched;
  return withOptimisticRetries<{ applied: number; consumed: number }>(async () => {
    // The reads made ahead serve the first try only when they are of this very chunk; a retry reads again.
    const ahead = first && (await first);
    first = undefined;
    const sameChunk =
      ahead !== undefined && ahead.productIds.length === chunk.length && ahead.productIds.every((id, index) => id === chunk[index]?.line.productId);
    const { lineItems, stockItems, productItems } = sameChunk ? ahead : await readChunk(tenantId, count, chunk);
    const items: TransactItem[] = [];
    const changes: { current: Balance; next: Balance }[] = [];
    const totals = { lines: 0, linesWithDifference: 0, surplusValue: 0n, shortageValue: 0n };
    let applied = 0;
    let consumed = 0;
    for (const [index, { line: planned, isNew }] of chunk.entries()) {
      const stored = lineItems[index];
      const current = toBalance(stockItems[index]);
      // Left out: a line applied meanwhile (another close), a product made a line meanwhile, or nothing to zero.
      const skip = isNew ? stored !== undefined || current.quantity === 0n : stored === undefined || stored.appliedAt !== undefined;
      if (skip) {
        consumed = index + 1;
        continue;
      }
      // A zeroed product's system quantity is the balance this transaction is conditioned on.
      const line = isNew ? { ...planned, systemAtCount: current.quantity, unitCost: costOf(count, current) } : toLine(stored as Record<string, unknown>);
      const productItem = productItems[index];
      const target = clampAtZero(current.quantity + line.counted - line.systemAtCount);
      const ownItems: TransactItem[] = [];
      let movement: Movement | undefined;
      let change: { current: Balance; next: Balance } | undefined;
      if (productItem && target !== current.quantity) {
        movement = movementOf(line, target);
        const unitCost = line.addedUnitCost ?? undefined;
        const adjustment = { type: 'ADJUSTMENT' as const, quantity: target, ...(unitCost === undefined ? {} : { unitCost }) };
        const moved = applyMovement({ quantity: current.quantity, value: current.totalCost, averageCost: current.averageCost }, adjustment);
        const next: Balance = {
          quantity: moved.quantity,
          totalCost: moved.value,
          averageCost: moved.averageCost,
          lastCost: lastCostAfter(current.lastCost, adjustment),
          version: current.version + 1,
        };
        const product = productMove(tenantId, line.productId, productItem, next.quantity - current.quantity);
        ownItems.push(
          balancePut(tenantId, line.productId, count.warehouseId, current, next),
          product.update,
          ...historyEntries(movement, next),
          ...product.coverage,
        );
        change = { current, next };
      }
      const done: CountLine = { ...line, appliedAt: nowIso, movementId: movement?.id ?? null, appliedDelta: target - current.quantity };
      ownItems.push({
        Put: {
          TableName: tableName(),
          Item: { ...keys.countLine(tenantId, count.id, line.productId), type: COUNT_ITEMS.line, ...lineAttributes(done) },
          ConditionExpression: isNew ? 'attribute_not_exists(pk)' : 'version = :version AND attribute_not_exists(appliedAt)',
          ...(isNew ? {} : { ExpressionAttributeValues: { ':version': line.version } }),
        },
      });
      // Its copy in the list by difference shows what the close applied too (its place does not change).
      const rank = differenceRank((done.counted - done.systemAtCount) * done.unitCost);
      ownItems.push({
        Put: {
          TableName: tableName(),
          Item: { ...keys.countLineRank(tenantId, count.id, rank, done.productId), type: COUNT_ITEMS.rank, ...lineAttributes(done) },
        },
      }); // The rest waits for the next transaction.
      if (items.length + ownItems.length > TRANSACTION_ITEMS - CHUNK_SHARED_ITEMS) break;
      items.push(...ownItems);
      if (change) changes.push(change);
      if (isNew) {
        const added = lineTotals(line);
        totals.lines += added.lines;
        totals.linesWithDifference += added.linesWithDifference;
        totals.surplusValue += added.surplusValue;
        totals.shortageValue += added.shortageValue;
      }
      applied += 1;
      consumed = index + 1;
    }
    if (applied === 0) return { retry: false, value: { applied: 0, consumed } };
    items.unshift(
      {
        Update: {
          TableName: tableName(),
          Key: keys.count(tenantId, count.id),
          UpdateExpression: `${TOTALS_ADD}, applied :applied`,
          ConditionExpression: '#status = :closing',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':closing': 'CLOSING', ':applied': applied, ...totalsDelta(lineTotals(undefined), totals) },
        },
      },
      warehouseTotalsOfChanges(tenantId, count.warehouseId, changes),
    );
    try {
      await db().send(new TransactWriteCommand({ TransactItems: items }));
      return { retry: false, value: { applied, consumed } };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes[1] === 'ConditionalCheckFailed') throw await warehouseRefusal(tenantId, count.warehouseId);
      if (codes[0] === 'ConditionalCheckFailed') {
        const now = await findCount(tenantId, count.id);
        if (now?.status !== 'CLOSING') return { retry: false, value: { applied: 0, consumed: chunk.length } };
      }
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}

const clampAtZero = (quantity: bigint): bigint => (quantity < 0n ? 0n : quantity);

/** The unit cost a difference is valued at: the balance's last cost for a REPLACEMENT company (when it has one), else its average. */
export const costOf = (count: Pick<Count, 'costMethod'>, balance: Balance): bigint =>
  count.costMethod === 'REPLACEMENT' && balance.lastCost > 0n ? balance.lastCost : balance.averageCost;

/**
 * A line counted now: the product as it is, `counted`, and the balance's quantity and cost at
 * this moment (the system's at count). Not applied yet.
 */
export function lineCountedNow(
  product: Pick<ProductListing, 'id' | 'sku' | 'name' | 'gtin' | 'unit'>,
  count: Pick<Count, 'costMethod'>,
  balance: Balance,
  counted: bigint,
  countedAt: string,
  extra: Pick<CountLine, 'addedUnitCost' | 'zeroed' | 'version'>,
): CountLine {
  return {
    productId: product.id,
    sku: product.sku,
    name: product.name,
    gtin: product.gtin,
    unit: product.unit,
    counted,
    systemAtCount: balance.quantity,
    unitCost: costOf(count, balance),
    countedAt,
    appliedAt: null,
    movementId: null,
    appliedDelta: null,
    ...extra,
  };
}

/** The writes that end a count (CLOSED or CANCELLED): its status, its ACTIVE entry and its locks released. */
function endingItems(tenantId: string, count: Count, set: Record<string, unknown>, from: 'OPEN' | 'CLOSING'): TransactItem[] {
  const whole = count.scope === 'WAREHOUSE';
  const names = Object.keys(set);
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.count(tenantId, count.id),
        UpdateExpression: `SET ${names.map((name, index) => `#f${index} = :v${index}`).join(', ')} REMOVE closingAudit`,
        ConditionExpression: '#status = :from',
        ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(names.map((name, index) => [`#f${index}`, name])) },
        ExpressionAttributeValues: { ':from': from, ...Object.fromEntries(names.map((name, index) => [`:v${index}`, set[name]])) },
      },
    },
    { Delete: { TableName: tableName(), Key: keys.countEntry(tenantId, 'ACTIVE', count.createdAt, count.id) } },
    {
      Update: {
        TableName: tableName(),
        Key: keys.countLock(tenantId, count.warehouseId),
        UpdateExpression: whole ? 'REMOVE wholeCountId' : 'ADD scoped :minusOne',
        ConditionExpression: whole ? 'wholeCountId = :id' : 'scoped > :zero',
        ExpressionAttributeValues: whole ? { ':id': count.id } : { ':minusOne': -1, ':zero': 0 },
      },
    },
    ...(count.productIds ?? []).map((productId) => ({
      Delete: {
        TableName: tableName(),
        Key: keys.countProductLock(tenantId, count.warehouseId, productId),
        ConditionExpression: 'countId = :id',
        ExpressionAttributeValues: { ':id': count.id },
      },
    })),
  ];
}

/** End a CLOSING count: CLOSED at `closedAt`, its locks released, the audit entry kept since the close began (with its event). False when it had ended already. */
export async function finishClosing(tenantId: string, count: Count, closedAt: string): Promise<boolean> {
  const item = await readCountItem(tenantId, count.id);
  const audit = closingAuditOf(item);
  if (!item || toCount(item).status !== 'CLOSING' || !audit) return false;
  try {
    await db().send(
      new TransactWriteCommand({ TransactItems: [...endingItems(tenantId, count, { status: 'CLOSED', closedAt }, 'CLOSING'), ...auditItems(audit)] }),
    );
    return true;
  } catch (error) {
    if (cancellationCodes(error)[0] === 'ConditionalCheckFailed') return false;
    throw error;
  }
}

/** Cancel an OPEN count: its locks released, with the audit entry. 409 for any other status. */
export async function cancelOpenCount(tenantId: string, count: Count, cancelledAt: string, audit: AuditRecord): Promise<void> {
  try {
    await db().send(
      new TransactWriteCommand({ TransactItems: [...endingItems(tenantId, count, { status: 'CANCELLED', cancelledAt }, 'OPEN'), ...auditItems(audit)] }),
    );
  } catch (error) {
    if (cancellationCodes(error)[0] === 'ConditionalCheckFailed') {
      const now = await findCount(tenantId, count.id);
      throw new Conflict(`The count is ${now?.status ?? 'gone'}: only an OPEN count can be cancelled`);
    }
    throw error;
  }
}
