import * as z from 'zod/mini';
import { COST_METHODS } from '../domain/companies';
import { schema } from '../domain/schema';

/**
 * A stock count (inventário): a document with a life. OPEN while people count; each line is a
 * product's counted quantity beside the system's quantity at the moment it was counted, so its
 * difference is what the shelf had that the records did not. The close applies each line's
 * difference as an ADJUSTMENT delta to the balance as it is then (sales recorded after a
 * shelf was counted are kept), line by line in bounded transactions, each line once: CLOSING
 * while that runs, CLOSED with the totals. An OPEN count can be CANCELLED instead.
 *
 * Scope: the products with stock in the warehouse and any product counted there (a count of
 * the WAREHOUSE), or the products named (a count of PRODUCTS). While a count is OPEN or
 * CLOSING, no other count of the same warehouse and product can be opened.
 */

export const COUNT_STATUSES = ['OPEN', 'CLOSING', 'CLOSED', 'CANCELLED'] as const;
export type CountStatus = (typeof COUNT_STATUSES)[number];

export const COUNT_SCOPES = ['WAREHOUSE', 'PRODUCTS'] as const;
export type CountScope = (typeof COUNT_SCOPES)[number];

/** What the close does to a product in scope that has no line: leaves it as it is, or counts it as 0. */
export const UNCOUNTED_RULES = ['ignore', 'zero'] as const;
export type UncountedRule = (typeof UNCOUNTED_RULES)[number];

/** The totals a count keeps, each re-derivable from its lines (lib/integrity). Values in 10^-7 of the currency. */
export const countTotalsSchema = /* @__PURE__ */ schema(() =>
  z.object({
    /** Lines counted (a product counted twice is one line). */
    lines: z.number().check(z.int()),
    /** Lines whose counted quantity differs from the system's at count. */
    linesWithDifference: z.number().check(z.int()),
    /** Sum of the positive differences' values (units found). */
    surplusValue: z.bigint(),
    /** Sum of the negative differences' values (units missing), zero or below. */
    shortageValue: z.bigint(),
  }),
);
export type CountTotals = z.infer<typeof countTotalsSchema>;

export const countSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    warehouseId: z.uuid(),
    /** The warehouse's company (null for a warehouse of none). */
    companyId: z.nullable(z.uuid()),
    status: z.enum(COUNT_STATUSES),
    scope: z.enum(COUNT_SCOPES),
    /** The products of a count of PRODUCTS (null for the warehouse's). */
    productIds: z.nullable(z.array(z.uuid())),
    /** How the warehouse's company valued stock when the count opened: the cost each line's difference is valued at. */
    costMethod: z.enum(COST_METHODS),
    note: z.nullable(z.string()),
    totals: countTotalsSchema,
    /** Set by the close: what it does to products in scope without a line. */
    uncounted: z.nullable(z.enum(UNCOUNTED_RULES)),
    /** Lines the close has applied so far (zeroed ones included). */
    applied: z.number().check(z.int()),
    createdAt: z.iso.datetime(),
    createdBy: z.nullable(z.string()),
    closedAt: z.nullable(z.iso.datetime()),
    cancelledAt: z.nullable(z.iso.datetime()),
  }),
);
export type Count = z.infer<typeof countSchema>;

/** One product's line in a count: quantities in thousandths, the unit cost in 10^-4, values in 10^-7. */
export const countLineSchema = /* @__PURE__ */ schema(() =>
  z.object({
    productId: z.uuid(),
    /** The product as it was when counted (history keeps what was true). */
    sku: z.string(),
    name: z.string(),
    gtin: z.nullable(z.string()),
    /** Its unit (lib/inventory/model PRODUCT_UNITS). */
    unit: z.string(),
    counted: z.bigint(),
    /** The balance in the warehouse at the moment the line was (first) counted. */
    systemAtCount: z.bigint(),
    /** The unit cost its difference is valued at: the balance's average cost, or its last cost for a REPLACEMENT company, then. */
    unitCost: z.bigint(),
    /** The unit cost of units the close adds (an opening stock's, lib/imports); null: they come in at the balance's average. */
    addedUnitCost: z.nullable(z.bigint()),
    countedAt: z.iso.datetime(),
    /** Made by the close for a product in scope nobody counted (`uncounted: "zero"`). */
    zeroed: z.boolean(),
    /** Set by the close: the ADJUSTMENT it recorded (null when the difference was 0) and the delta it applied. */
    appliedAt: z.nullable(z.iso.datetime()),
    movementId: z.nullable(z.uuid()),
    appliedDelta: z.nullable(z.bigint()),
    /** One at the first count, one more per change: a concurrent scan re-reads. */
    version: z.number().check(z.int()),
  }),
);
export type CountLine = z.infer<typeof countLineSchema>;

/** The difference of a line (thousandths) and its value (10^-7). */
export const differenceOf = (line: Pick<CountLine, 'counted' | 'systemAtCount'>): bigint => line.counted - line.systemAtCount;
export const differenceValueOf = (line: Pick<CountLine, 'counted' | 'systemAtCount' | 'unitCost'>): bigint => differenceOf(line) * line.unitCost;

const VALUE_RANK_DIGITS = 26;
const RANK_CEILING = 10n ** BigInt(VALUE_RANK_DIGITS) - 1n;
/** A line's place in the list by difference: the largest value of a difference (either sign) first. */
export const differenceRank = (value: bigint): string => (RANK_CEILING - (value < 0n ? -value : value)).toString().padStart(VALUE_RANK_DIGITS, '0');

/** What a line adds to its count's totals. */
export function lineTotals(line: Pick<CountLine, 'counted' | 'systemAtCount' | 'unitCost'> | undefined): CountTotals {
  if (!line) return { lines: 0, linesWithDifference: 0, surplusValue: 0n, shortageValue: 0n };
  const value = (line.counted - line.systemAtCount) * line.unitCost;
  return {
    lines: 1,
    linesWithDifference: line.counted === line.systemAtCount ? 0 : 1,
    surplusValue: value > 0n ? value : 0n,
    shortageValue: value < 0n ? value : 0n,
  };
}

/** The longest note a count takes. */
export const MAX_COUNT_NOTE = 500;
/** The most products a count of PRODUCTS names: their locks are taken in the count's one transaction. */
export const MAX_COUNT_PRODUCTS = 80;
/** The most lines a count holds. */
export const MAX_COUNT_LINES = 5_000;
