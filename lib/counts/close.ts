import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { dayOf } from '../domain/days';
import { QUANTITY_PLACES, scaledToNumber, UNIT_COST_PLACES } from '../domain/decimal';
import type { Movement } from '../inventory/model';
import { getMany } from '../db/batch';
import { keys } from '../db/keys';
import { toBalance } from '../inventory/repository';
import { listingOf } from '../inventory/product-repository';
import type { Count, CountLine } from './model';
import { applyLines, findCount, lineCountedNow, readChunk, finishClosing, readAllLines, readWarehouseStockPage, type Application } from './repository';

/**
 * The close of a count, after it is CLOSING (./service starts it): resumable and idempotent.
 * Each run reads the count's lines and applies those not applied yet, a transaction at a
 * time (./repository `applyLines`); with `uncounted: "zero"`, then the products in scope
 * without a line, each made a line of 0 and applied the same way; then the count is CLOSED.
 * A run stops after `maxTransactions` and says it is not done: the next run (the request again,
 * or the tenant jobs' queue) goes on from what the lines record. Two runs at once apply each
 * line once: a line's application is conditioned on it not being applied.
 */

/** Lines read into one transaction at a time: 7 lines of 13 writes and the 2 shared fit 100 (`applyLines` takes fewer when their coverage entries do not). */
const CANDIDATES = 7;
/** Products with stock read at a time when zeroing the uncounted ones. */
const STOCK_PAGE = 100;

/**
 * The ADJUSTMENT a line records: to `target`, at the instant its transaction is made (never before
 * the close began). Not the close's own instant: an ADJUSTMENT sets a quantity, so the stock
 * history's order (and verify's replay of it) must put it after every movement its target was
 * computed on, and a close of many lines, or one resumed later, applies them over time.
 */
function adjustmentOf(tenantId: string, count: Count, nowMs: number) {
  return (line: CountLine, target: bigint): Movement => {
    const atMs = Math.max(nowMs, Date.now());
    const occurredAt = new Date(atMs).toISOString();
    return {
      id: randomUUID(),
      tenantId,
      productId: line.productId,
      warehouseId: count.warehouseId,
      type: 'ADJUSTMENT',
      quantity: scaledToNumber(target, QUANTITY_PLACES),
      unitCost: line.addedUnitCost === null ? null : scaledToNumber(line.addedUnitCost, UNIT_COST_PLACES),
      transferId: null,
      counterpartWarehouseId: null,
      occurredAt,
      createdAt: occurredAt,
      day: dayOf(atMs, config().BUSINESS_TIME_ZONE),
    };
  };
}

/**
 * Apply `applications` in order, a transaction at a time, within the budget; false when the
 * budget ran out first. The next chunk's reads go while the current chunk's transaction runs.
 */
async function applyAll(tenantId: string, count: Count, applications: Application[], nowMs: number, budget: { left: number }): Promise<boolean> {
  const movementOf = adjustmentOf(tenantId, count, nowMs);
  const nowIso = new Date(nowMs).toISOString();
  const chunkAt = (start: number) => applications.slice(start, start + CANDIDATES);
  let ahead = applications.length > 0 ? readChunk(tenantId, count, chunkAt(0)) : undefined;
  for (let start = 0; start < applications.length;) {
    if (budget.left <= 0) return false;
    budget.left -= 1;
    const current = ahead;
    // Read ahead as if this chunk goes whole (it does unless its lines take more than a transaction holds).
    ahead = start + CANDIDATES < applications.length ? readChunk(tenantId, count, chunkAt(start + CANDIDATES)) : undefined;
    // A read ahead that is not used must not fail the close.
    ahead?.catch(() => undefined);
    const { consumed } = await applyLines(tenantId, count, chunkAt(start), movementOf, nowIso, current);
    start += Math.max(consumed, 1);
  }
  return true;
}

/** A zero line for a product nobody counted (its system quantity and cost are read again in the transaction). */
const zeroLine = (product: Record<string, unknown>, count: Count, stock: Record<string, unknown> | undefined, nowIso: string): CountLine =>
  lineCountedNow(listingOf(product), count, toBalance(stock), 0n, nowIso, { addedUnitCost: null, zeroed: true, version: 1 });

/** The products in scope with no line, as zero lines, a page at a time. */
async function zeroUncounted(tenantId: string, count: Count, counted: Set<string>, nowMs: number, budget: { left: number }): Promise<boolean> {
  const nowIso = new Date(nowMs).toISOString();
  const zeroPage = async (productIds: string[]) => {
    const missing = productIds.filter((productId) => !counted.has(productId));
    if (missing.length === 0) return true;
    const [products, stocks] = await Promise.all([
      getMany(missing.map((productId) => keys.product(tenantId, productId))),
      getMany(missing.map((productId) => keys.stock(tenantId, productId, count.warehouseId))),
    ]);
    const applications = missing.flatMap((_, index) => {
      const product = products[index];
      return product ? [{ line: zeroLine(product, count, stocks[index], nowIso), isNew: true }] : [];
    });
    return applyAll(tenantId, count, applications, nowMs, budget);
  };
  if (count.productIds) return zeroPage(count.productIds);
  let after: string | undefined;
  do {
    const page = await readWarehouseStockPage(tenantId, count.warehouseId, { limit: STOCK_PAGE, ...(after === undefined ? {} : { afterProductId: after }) });
    if (!(await zeroPage(page.balances.map((balance) => balance.productId)))) return false;
    after = page.lastProductId;
  } while (after !== undefined);
  return true;
}

/**
 * Go on with a CLOSING count for at most `maxTransactions` transactions: true once it is
 * CLOSED (by this run or another), false when there is more to do.
 */
export async function continueClose(tenantId: string, countId: string, nowMs: number, maxTransactions = Number.POSITIVE_INFINITY): Promise<boolean> {
  const count = await findCount(tenantId, countId);
  if (!count || count.status !== 'CLOSING') return true;
  const budget = { left: maxTransactions };
  const lines = await readAllLines(tenantId, countId);
  const pending = lines.filter((line) => line.appliedAt === null).map((line) => ({ line, isNew: false }));
  if (!(await applyAll(tenantId, count, pending, nowMs, budget))) return false;
  if (count.uncounted === 'zero' && !(await zeroUncounted(tenantId, count, new Set(lines.map((line) => line.productId)), nowMs, budget))) return false;
  await finishClosing(tenantId, count, new Date(nowMs).toISOString());
  return true;
}
