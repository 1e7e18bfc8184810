import { randomUUID } from 'node:crypto';
import { auditRecord } from '../audit/record';
import { callerId, type Caller } from '../auth/principal';
import { getCompany } from '../companies/repository';
import { cursorRefused } from '../domain/cursor';
import { parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { Conflict, NotFound, ValidationError } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { quantityFitsUnit, type Balance } from '../inventory/model';
import { findProductByGtin, findProductBySku, listingOf, readProductListings } from '../inventory/product-repository';
import { findWarehouse } from '../inventory/repository';
import { moneyOf, quantityOf } from '../inventory/rounding';
import { openPageCursor, sealPageCursor } from '../pages';
import { enqueueTenantJob } from '../tenant-jobs/queue';
import { continueClose } from './close';
import { differenceOf, differenceValueOf, type Count, type CountLine } from './model';
import {
  cancelOpenCount,
  findCount,
  insertCount,
  lineCountedNow,
  readCountPage,
  readLinePage,
  readBalancesOf,
  readLines,
  readWarehouseStockPage,
  startClosing,
  writeLine,
} from './repository';
import type {
  CloseCountBody,
  CountDetailView,
  CountLineBody,
  CountLinesInput,
  CountLineView,
  CountView,
  CreateCountBody,
  ListCountsInput,
  ScanBody,
  UncountedInput,
  UncountedProductView,
} from './schemas';

/**
 * Stock counts (./model): opening one, counting lines by hand or by scanner, reading it back
 * with its totals and its lines (by product or by the value of the difference), the products
 * nobody counted yet, the close (./close, in bounded transactions) and the cancel.
 */

export const countViewOf = (count: Count): CountView => ({
  id: count.id,
  warehouseId: count.warehouseId,
  companyId: count.companyId,
  status: count.status,
  scope: count.scope,
  productIds: count.productIds,
  costMethod: count.costMethod,
  note: count.note,
  uncounted: count.uncounted,
  totals: {
    lines: count.totals.lines,
    linesWithDifference: count.totals.linesWithDifference,
    surplusValue: moneyOf(count.totals.surplusValue, VALUE_PLACES),
    shortageValue: moneyOf(count.totals.shortageValue, VALUE_PLACES),
    differenceValue: moneyOf(count.totals.surplusValue + count.totals.shortageValue, VALUE_PLACES),
  },
  applied: count.applied,
  createdAt: count.createdAt,
  createdBy: count.createdBy,
  closedAt: count.closedAt,
  cancelledAt: count.cancelledAt,
});

export const lineViewOf = (line: CountLine): CountLineView => ({
  productId: line.productId,
  sku: line.sku,
  name: line.name,
  gtin: line.gtin,
  unit: line.unit,
  counted: quantityOf(line.counted),
  systemAtCount: quantityOf(line.systemAtCount),
  difference: quantityOf(differenceOf(line)),
  unitCost: moneyOf(line.unitCost, UNIT_COST_PLACES),
  differenceValue: moneyOf(differenceValueOf(line), VALUE_PLACES),
  countedAt: line.countedAt,
  zeroed: line.zeroed,
  appliedAt: line.appliedAt,
  movementId: line.movementId,
  appliedDifference: line.appliedDelta === null ? null : quantityOf(line.appliedDelta),
});

/** Open a count of a warehouse (every product with stock there, and any counted), or of some of its products. */
export async function createCount(principal: Caller, input: CreateCountBody, nowMs: number, idempotency?: IdempotentWrite): Promise<CountView> {
  return countViewOf(await openCount(principal.tenantId, { id: randomUUID(), createdBy: callerId(principal), ...input }, nowMs, idempotency));
}

/**
 * Open a count of the id given, unless it is open already: an import of opening stock
 * (lib/imports/stock) opens one per warehouse, with an id of its own making, so a step run
 * again finds the count its first run opened.
 */
export async function openCountOnce(tenantId: string, input: CreateCountBody & { id: string; createdBy: string }, nowMs: number): Promise<Count> {
  const found = await findCount(tenantId, input.id);
  if (found) return found;
  try {
    return await openCount(tenantId, input, nowMs);
  } catch (error) {
    // Opened by a run of the same step at the same moment: that count is this one.
    const opened = error instanceof Conflict ? await findCount(tenantId, input.id) : undefined;
    if (opened) return opened;
    throw error;
  }
}

async function openCount(
  tenantId: string,
  input: CreateCountBody & { id: string; createdBy: string },
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<Count> {
  const warehouse = await findWarehouse(tenantId, input.warehouseId);
  if (!warehouse) throw new NotFound('No such warehouse');
  if (input.productIds) {
    const found = new Set((await readProductListings(tenantId, input.productIds)).map((product) => product.id));
    const missing = input.productIds.find((productId) => !found.has(productId));
    if (missing) throw new NotFound(`No such product: ${missing}`);
  }
  const company = warehouse.companyId === null ? undefined : await getCompany(tenantId, warehouse.companyId);
  const count: Count = {
    id: input.id,
    warehouseId: warehouse.id,
    companyId: warehouse.companyId,
    status: 'OPEN',
    scope: input.productIds ? 'PRODUCTS' : 'WAREHOUSE',
    productIds: input.productIds ?? null,
    costMethod: company?.costMethod === 'REPLACEMENT' ? 'REPLACEMENT' : 'WEIGHTED_AVERAGE',
    note: input.note ?? null,
    totals: { lines: 0, linesWithDifference: 0, surplusValue: 0n, shortageValue: 0n },
    uncounted: null,
    applied: 0,
    createdAt: new Date(nowMs).toISOString(),
    createdBy: input.createdBy,
    closedAt: null,
    cancelledAt: null,
  };
  const audit = auditRecord(
    { scope: { tenantId }, action: 'count.created', resource: { type: 'count', id: count.id }, eventFields: { warehouseId: count.warehouseId } },
    nowMs,
  );
  await insertCount(tenantId, count, audit, idempotency && { write: idempotency, view: countViewOf(count) });
  return count;
}

async function requireCount(principal: Pick<Caller, 'tenantId'>, countId: string): Promise<Count> {
  const count = await findCount(principal.tenantId, countId);
  if (!count) throw new NotFound('No such count');
  return count;
}

/** A count with its totals and a page of its lines. */
export async function getCount(principal: Caller, countId: string, input: CountLinesInput): Promise<CountDetailView> {
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'count-lines', countId, order: input.order } };
  const position = await openPageCursor(input.cursor, cursorScope);
  if (position && !position.sk) throw cursorRefused();
  const count = await requireCount(principal, countId);
  const { lines, lastSk } = await readLinePage(principal.tenantId, countId, input.order, {
    limit: input.limit,
    ...(position?.sk ? { afterSk: position.sk } : {}),
  });
  return {
    ...countViewOf(count),
    lines: lines.map(lineViewOf),
    nextCursor: await sealPageCursor(lastSk === undefined ? undefined : { sk: lastSk }, cursorScope),
  };
}

/** A page of the tenant's counts, newest first: every one, a warehouse's, or the active ones (OPEN or CLOSING). */
export async function listCounts(principal: Caller, input: ListCountsInput): Promise<{ items: CountView[]; nextCursor: string | null }> {
  const active = input.status === 'OPEN' || input.status === 'CLOSING';
  const list = active ? 'ACTIVE' : (input.warehouseId ?? '*');
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'counts', status: input.status, warehouseId: input.warehouseId } };
  const position = await openPageCursor(input.cursor, cursorScope);
  if (position && !position.sk) throw cursorRefused();
  const { counts, nextSk } = await readCountPage(principal.tenantId, list, { limit: input.limit, ...(position?.sk ? { afterSk: position.sk } : {}) });
  // A list holds every status (the active one, OPEN and CLOSING): the others are left out of its page.
  const items = counts.filter(
    (count) => (input.status === undefined || count.status === input.status) && (input.warehouseId === undefined || count.warehouseId === input.warehouseId),
  );
  return { items: items.map(countViewOf), nextCursor: await sealPageCursor(nextSk === undefined ? undefined : { sk: nextSk }, cursorScope) };
}

/**
 * The products in scope nobody counted yet, by product id: of a count of products, those named
 * without a line; of a warehouse's, those with stock there without a line (a page of the
 * warehouse's balances with stock, less the counted ones: a page may hold fewer than `limit`).
 */
export async function listUncounted(
  principal: Caller,
  countId: string,
  input: UncountedInput,
): Promise<{ items: UncountedProductView[]; nextCursor: string | null }> {
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'count-uncounted', countId } };
  const position = await openPageCursor(input.cursor, cursorScope);
  if (position && !position.after) throw cursorRefused();
  const count = await requireCount(principal, countId);
  let candidates: { productId: string; quantity: bigint | undefined }[];
  let last: string | undefined;
  if (count.productIds) {
    const sorted = [...count.productIds].sort();
    const start = position?.after ? sorted.findIndex((id) => id > (position.after as string)) : 0;
    const page = start < 0 ? [] : sorted.slice(start, start + input.limit);
    candidates = page.map((productId) => ({ productId, quantity: undefined }));
    last = start >= 0 && start + input.limit < sorted.length ? page.at(-1) : undefined;
  } else {
    const page = await readWarehouseStockPage(principal.tenantId, count.warehouseId, {
      limit: input.limit,
      ...(position?.after ? { afterProductId: position.after } : {}),
    });
    candidates = page.balances;
    last = page.lastProductId;
  }
  const lines = await readLines(
    principal.tenantId,
    countId,
    candidates.map((candidate) => candidate.productId),
  );
  const uncounted = candidates.filter((_, index) => lines[index] === undefined);
  const [products, balances] = await Promise.all([
    readProductListings(
      principal.tenantId,
      uncounted.map((candidate) => candidate.productId),
    ),
    readBalancesOf(
      principal.tenantId,
      count.warehouseId,
      uncounted.map((candidate) => candidate.productId),
    ),
  ]);
  const items = products.map((product) => ({
    productId: product.id,
    sku: product.sku,
    name: product.name,
    gtin: product.gtin,
    unit: product.unit,
    quantity: quantityOf(balances.get(product.id)?.quantity ?? 0n),
  }));
  return { items, nextCursor: await sealPageCursor(last === undefined ? undefined : { after: last }, cursorScope) };
}

/** What a line takes: an OPEN count, a product of its scope, a quantity the product's unit counts in. */
function admitLine(
  count: Count,
  productId: string,
  product: Record<string, unknown> | undefined,
  counted: bigint,
  field: string,
): ReturnType<typeof listingOf> {
  if (count.status !== 'OPEN') throw new Conflict(`The count is ${count.status}: only an OPEN count takes lines`);
  if (!product) throw new NotFound('No such product');
  if (count.productIds && !count.productIds.includes(productId)) throw new Conflict("The product is not one of this count's products");
  const listing = listingOf(product);
  if (!quantityFitsUnit(counted < 0n ? -counted : counted, listing.unit)) {
    throw ValidationError.of(field, `must be a whole number: the product is counted in ${listing.unit}, which takes no fractions`);
  }
  return listing;
}

function lineAudit(principal: Pick<Caller, 'tenantId'>, countId: string, productId: string, nowMs: number) {
  return () =>
    auditRecord(
      { scope: { tenantId: principal.tenantId }, action: 'count.line_counted', resource: { type: 'count', id: countId }, eventFields: { productId } },
      nowMs,
    );
}

/** A line counted now, keeping what an earlier count of it set apart (an opening stock's unit cost). */
const freshLine = (listing: ReturnType<typeof listingOf>, count: Count, balance: Balance, counted: bigint, previous: CountLine | undefined, nowIso: string) =>
  lineCountedNow(listing, count, balance, counted, nowIso, {
    addedUnitCost: previous?.addedUnitCost ?? null,
    zeroed: false,
    version: (previous?.version ?? 0) + 1,
  });

/**
 * Set a line's counted quantity: it records the system's quantity at this moment (a count again
 * of the shelf). `addedUnitCost`: the unit cost of the units the close adds (an opening stock's).
 */
export async function setLine(
  principal: Pick<Caller, 'tenantId'>,
  countId: string,
  productId: string,
  input: CountLineBody,
  nowMs: number,
  addedUnitCost?: bigint,
): Promise<CountLineView> {
  const counted = parseScaled(input.counted, QUANTITY_PLACES) ?? 0n;
  const nowIso = new Date(nowMs).toISOString();
  const { line } = await writeLine(
    principal.tenantId,
    { countId, productId },
    {
      decide: ({ count, line: previous, balance, product }) => {
        const listing = admitLine(count, productId, product, counted, 'counted');
        const line = freshLine(listing, count, balance, counted, previous, nowIso);
        return { line: addedUnitCost === undefined ? line : { ...line, addedUnitCost }, readsBalance: true };
      },
    },
    lineAudit(principal, countId, productId, nowMs),
  );
  return lineViewOf(line);
}

/**
 * Add scanned units to the line of the product a GTIN or SKU names (404 naming the code). The
 * line's first scan records the system's quantity; later scans add to what was counted since.
 */
export async function scan(principal: Caller, countId: string, input: ScanBody, nowMs: number, idempotency?: IdempotentWrite): Promise<CountLineView> {
  const byGtin = input.gtin !== undefined;
  const code = input.gtin ?? input.sku ?? '';
  const found = byGtin ? await findProductByGtin(principal.tenantId, code) : await findProductBySku(principal.tenantId, code);
  if (!found) throw new NotFound(byGtin ? `No product has the GTIN ${code}` : `No product has the SKU ${code}`);
  const quantity = parseScaled(Math.abs(input.quantity), QUANTITY_PLACES) ?? 0n;
  const delta = input.quantity < 0 ? -quantity : quantity;
  const nowIso = new Date(nowMs).toISOString();
  const { line } = await writeLine(
    principal.tenantId,
    { countId, productId: found.id },
    {
      decide: ({ count, line: previous, balance, product }) => {
        const listing = admitLine(count, found.id, product, delta, 'quantity');
        if (!previous) {
          if (delta < 0n) throw new Conflict('Nothing of this product was counted yet: there is nothing to take back');
          return { line: freshLine(listing, count, balance, delta, undefined, nowIso), readsBalance: true };
        }
        const counted = previous.counted + delta;
        if (counted < 0n) throw new Conflict(`Only ${quantityOf(previous.counted)} of this product were counted: that many can be taken back`);
        return { line: { ...previous, counted, countedAt: nowIso, version: previous.version + 1 }, readsBalance: false };
      },
    },
    lineAudit(principal, countId, found.id, nowMs),
    idempotency && { write: idempotency, view: lineViewOf },
  );
  return lineViewOf(line);
}

/** How many transactions a close runs within the request before it hands the rest to the tenant jobs' queue. */
export const INLINE_CLOSE_TRANSACTIONS = 60;

/**
 * Close a count: CLOSED when done within the request; CLOSING when the rest goes on in the
 * background (the tenant jobs' queue; GET the count to follow `applied`). A count CLOSED
 * already answers again; a second close while one runs joins it (each line applies once).
 */
export async function closeCount(
  principal: Pick<Caller, 'tenantId'>,
  countId: string,
  input: CloseCountBody,
  nowMs: number,
  inlineTransactions = INLINE_CLOSE_TRANSACTIONS,
): Promise<CountView> {
  const count = await requireCount(principal, countId);
  if (count.status === 'CLOSED' && count.uncounted === input.uncounted) return countViewOf(count);
  const audit = auditRecord(
    {
      scope: { tenantId: principal.tenantId },
      action: 'count.closed',
      resource: { type: 'count', id: countId },
      eventFields: { warehouseId: count.warehouseId, uncounted: input.uncounted, lines: count.totals.lines },
    },
    nowMs,
  );
  await startClosing(principal.tenantId, countId, input.uncounted, audit);
  const done = await continueClose(principal.tenantId, countId, nowMs, inlineTransactions);
  if (!done) await enqueueTenantJob({ type: 'count-close', tenantId: principal.tenantId, countId, step: 1 });
  return countViewOf(await requireCount(principal, countId));
}

/** Cancel an OPEN count: nothing is adjusted, its products can be counted again. */
export async function cancelCount(principal: Caller, countId: string, nowMs: number): Promise<CountView> {
  const count = await requireCount(principal, countId);
  if (count.status !== 'OPEN') throw new Conflict(`The count is ${count.status}: only an OPEN count can be cancelled`);
  const cancelledAt = new Date(nowMs).toISOString();
  const audit = auditRecord({ scope: { tenantId: principal.tenantId }, action: 'count.cancelled', resource: { type: 'count', id: countId } }, nowMs);
  await cancelOpenCount(principal.tenantId, count, cancelledAt, audit);
  return countViewOf({ ...count, status: 'CANCELLED', cancelledAt });
}
