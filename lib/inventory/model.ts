import * as z from 'zod/mini';
import { divideRounded } from '../domain/decimal';
import { schema } from '../domain/schema';
import { COMPANY_STATUSES } from '../domain/companies';

/**
 * The inventory: warehouses, products, stock movements and the balances and sales they
 * leave. The enums, each entity's shape as stored, the types derived from them and each
 * item's `type`; request schemas and views (./schemas), the services, the repositories
 * and the OpenAPI document all start here.
 */

/** What a person or a system records with POST /inventory/movements. */
export const MANUAL_MOVEMENT_TYPES = ['IN', 'OUT', 'SALE', 'ADJUSTMENT'] as const;
export type ManualMovementType = (typeof MANUAL_MOVEMENT_TYPES)[number];
/** Every type the stock history holds: the manual ones and the two sides of a transfer (lib/transfers). */
export const MOVEMENT_TYPES = [...MANUAL_MOVEMENT_TYPES, 'TRANSFER_OUT', 'TRANSFER_IN'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];

export const warehouseSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    name: z.string(),
    createdAt: z.iso.datetime(),
    /**
     * Maintained by every movement, exactly (lib/domain/decimal): units on hand in thousandths,
     * products with a non-zero balance, stock value in 10^-7 of the currency.
     */
    totalItems: z.bigint(),
    totalProducts: z.number().check(z.int()),
    totalValue: z.bigint(),
    /** The same stock valued at each balance's last cost (Σ quantity x lastCost), 10^-7: what a REPLACEMENT company's dashboard shows. */
    totalReplacementValue: z.bigint(),
    /** The company (fiscal entity) whose stock it holds; null for a warehouse of a tenant that had no company when it was made. */
    companyId: z.nullable(z.uuid()),
    /**
     * Its company's status, kept by every status change of the company in the same
     * transaction: a movement is conditioned on it (BLOCKED and SUSPENDED refuse), reading nothing more.
     */
    companyStatus: z.nullable(z.enum(COMPANY_STATUSES)),
  }),
);
export type Warehouse = z.infer<typeof warehouseSchema>;

/** What a caller gives to create a warehouse (the rest is the service's). */
export const warehouseInputSchema = /* @__PURE__ */ schema(() => z.extend(z.pick(warehouseSchema, { name: true }), { companyId: z.optional(z.uuid()) }));
export type WarehouseInput = z.infer<typeof warehouseInputSchema>;

/**
 * The units a product is counted in (the NF-e's commercial units a merchant meets most). Those
 * of FRACTIONAL_UNITS take quantities of up to 3 decimals; the others whole quantities only.
 */
export const PRODUCT_UNITS = ['UN', 'CX', 'PC', 'PCT', 'DZ', 'FD', 'SC', 'KIT', 'KG', 'G', 'L', 'ML', 'M', 'M2', 'M3'] as const;
export type ProductUnit = (typeof PRODUCT_UNITS)[number];
export const FRACTIONAL_UNITS: readonly ProductUnit[] = ['KG', 'G', 'L', 'ML', 'M', 'M2', 'M3'];
export const DEFAULT_UNIT: ProductUnit = 'UN';

/** Whether a quantity (thousandths) can be counted in `unit`: whole units unless the unit is fractional. */
export const quantityFitsUnit = (thousandths: bigint, unit: ProductUnit): boolean => FRACTIONAL_UNITS.includes(unit) || thousandths % 1000n === 0n;

/** An INACTIVE product takes no IN or SALE (its stock can still leave or be adjusted) and leaves the default lists. */
export const PRODUCT_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** A warehouse of a company in one of these takes no movement. */
export const HALTED_COMPANY_STATUSES = ['BLOCKED', 'SUSPENDED'] as const;

/** The movement types an INACTIVE product refuses: those that bring or sell stock. */
export const REFUSED_WHEN_INACTIVE: readonly MovementType[] = ['IN', 'SALE'];

export const productSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    sku: z.string(),
    name: z.string(),
    description: z.nullable(z.string()),
    brand: z.nullable(z.string()),
    unit: z.enum(PRODUCT_UNITS),
    /** GTIN-8, -12, -13 or -14 with a valid check digit (./gtin); unique in the tenant. */
    gtin: z.nullable(z.string()),
    /** Mercosur Common Nomenclature, 8 digits. */
    ncm: z.nullable(z.string()),
    /** Tax substitution code, 7 digits. */
    cest: z.nullable(z.string()),
    /** In cents, exact. */
    salePrice: z.nullable(z.bigint()),
    status: z.enum(PRODUCT_STATUSES),
    /** The product's category (lib/categories), or none. */
    categoryId: z.nullable(z.uuid()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** One at creation, one more per change of the fields above: the product's ETag. */
    version: z.number().check(z.int()),
    /** Units on hand over every warehouse in thousandths, maintained by every movement. */
    onHand: z.bigint(),
  }),
);
export type Product = z.infer<typeof productSchema>;

/** The fields a caller sets on a product (create and change); the rest is the service's. */
export const PRODUCT_MASTER_FIELDS = ['sku', 'name', 'description', 'brand', 'unit', 'gtin', 'ncm', 'cest', 'salePrice', 'status', 'categoryId'] as const;
export type ProductMasterField = (typeof PRODUCT_MASTER_FIELDS)[number];
export type ProductMaster = Pick<Product, ProductMasterField>;

/** What a caller gives to create a product: a SKU and a name; every other field has its default (none, UN, ACTIVE); the price in currency. */
export type ProductInput = Pick<Product, 'sku' | 'name'> & Partial<Omit<ProductMaster, 'sku' | 'name' | 'salePrice'>> & { salePrice?: number };

export const movementSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    tenantId: z.uuid(),
    productId: z.uuid(),
    warehouseId: z.uuid(),
    type: z.enum(MOVEMENT_TYPES),
    quantity: z.number(),
    /** Given for IN (and optionally ADJUSTMENT); a TRANSFER_IN's is the source's last cost it carries; null for OUT, SALE and TRANSFER_OUT, which leave at the average. */
    unitCost: z.nullable(z.number()),
    /** The transfer a TRANSFER_OUT or TRANSFER_IN is a side of, and the warehouse of its other side; null for the others. */
    transferId: z.nullable(z.uuid()),
    counterpartWarehouseId: z.nullable(z.uuid()),
    occurredAt: z.iso.datetime(),
    createdAt: z.iso.datetime(),
    /** The business day of `occurredAt` (daily sales counter). */
    day: z.string(),
  }),
);
export type Movement = z.infer<typeof movementSchema>;

/**
 * A movement as its items store it (lib/db/keys `history`): `type` names the item kind
 * everywhere, so the movement's own type is `movementType`; with the balance it left in its
 * warehouse, exact: quantity in thousandths, average unit cost in 10^-4.
 */
export type StoredMovement = Omit<Movement, 'type'> & {
  movementType: MovementType;
  balanceAfter: bigint;
  averageCostAfter: bigint;
  /** The last cost it left (10^-4); undefined for a movement recorded before balances kept one. */
  lastCostAfter?: bigint;
  /** A TRANSFER_IN's exact value (10^-7): what left the source (lib/transfers). */
  transferValue?: bigint;
};

/**
 * The stock of one product in one warehouse, exact (lib/inventory/costing): quantity in
 * thousandths of a unit, the value of what is on hand in 10^-7 of the currency, the weighted
 * average unit cost in 10^-4 (kept when the quantity reaches 0).
 */
export const balanceSchema = /* @__PURE__ */ schema(() =>
  z.object({
    quantity: z.bigint(),
    totalCost: z.bigint(),
    averageCost: z.bigint(),
    /** The unit cost of the latest IN, or of an ADJUSTMENT that gave one, in 10^-4 (./costing `lastCostAfter`). */
    lastCost: z.bigint(),
    version: z.number().check(z.int()),
  }),
);
export type Balance = z.infer<typeof balanceSchema>;

/** One business day's sales of a product (the `day` of its SALE movements), as they or the seed leave it. */
export const salesDaySchema = /* @__PURE__ */ schema(() =>
  z.extend(z.pick(movementSchema, { tenantId: true, productId: true, day: true }), { units: z.number() }),
);
export type SalesDay = z.infer<typeof salesDaySchema>;

/**
 * A product's rolled-up daily sales: thousandths of a unit sold on each business day of a
 * fixed window ending at `through`, always integers (see lib/inventory/sales-series for the window
 * and its encoding).
 */
export const salesSeriesSchema = /* @__PURE__ */ schema(() =>
  z.object({
    /** The last day the series covers, `YYYY-MM-DD`; null before any roll-up. */
    through: z.nullable(z.string()),
    units: z.custom<Float64Array>((value) => value instanceof Float64Array),
  }),
);
export type SalesSeries = z.infer<typeof salesSeriesSchema>;

/**
 * The coverage dashboard's precomputed index (lib/inventory/coverage-repository) is kept for these
 * `days` values: a week, a month (the default) and a quarter. Any other value from 1 to 365
 * is answered exactly from a full read (docs/decisions.md: every indexed window costs every
 * movement up to two more writes).
 */
export const INDEXED_COVERAGE_DAYS = [7, 30, 90] as const;
export const isIndexedCoverageDays = (days: number): boolean => (INDEXED_COVERAGE_DAYS as readonly number[]).includes(days);

/** What a coverage item is computed from, with the units sold in its window (thousandths). */
export type CoverageSource = Pick<Product, 'id' | 'sku' | 'name' | 'onHand'>;

/**
 * Coverage in hundredths of a day, exactly as the dashboard shows it: onHand x days / sold
 * (both in thousandths), rounded once, half to even; null without sales.
 */
export function coverageHundredths(onHand: bigint, sold: bigint, days: number): bigint | null {
  return sold > 0n ? divideRounded(onHand * BigInt(days) * 100n, sold) : null;
}

/**
 * The dashboard's order (coverage, shortest first, no sales last; then SKU; then id) as one
 * string, which DynamoDB's sort-key order (UTF-8 bytes) and a plain comparison agree on:
 * coverage as `F` + its digit count (2 digits) + its digits, so a shorter number sorts first;
 * `N` (after every `F`) for no sales; then the SKU (letters, digits and `._/-`, all above `#`,
 * so a SKU sorts before its own extensions) and the id.
 */
export function coverageOrder(product: Omit<CoverageSource, 'name'>, sold: bigint, days: number): string {
  const hundredths = coverageHundredths(product.onHand, sold, days);
  if (hundredths !== null && hundredths < 0n) throw new Error('coverage cannot be negative: stock never goes below zero');
  const digits = hundredths?.toString();
  const coverage = digits === undefined ? 'N' : `F${String(digits.length).padStart(2, '0')}${digits}`;
  return `${coverage}#${product.sku}#${product.id}`;
}

/**
 * The window a product's stock-low coverage is taken over (lib/inventory/stock-low): the
 * dashboard's default, one of the indexed windows whose units sold every product item holds
 * (`coverageSold`), so a movement reads nothing more for it.
 */
export const STOCK_LOW_WINDOW_DAYS: (typeof INDEXED_COVERAGE_DAYS)[number] = 30;

/** What a movement knows of its product's coverage, exactly. */
export interface CoverageReading {
  /** The tenant's stock-low threshold in hundredths of a day; null: off. */
  threshold: bigint | null;
  /** Thousandths of a unit sold in STOCK_LOW_WINDOW_DAYS; undefined when the product has no coverage state yet. */
  sold: bigint | undefined;
  /** The product's quantity on hand over every warehouse (thousandths), as the movement read it and as it leaves it. */
  onHandBefore: bigint;
  onHandAfter: bigint;
}

/**
 * The crossing rule of `product.stock_low` (lib/inventory/stock-low): the coverage after the
 * movement, in hundredths of a day as the dashboard shows it (coverageHundredths over
 * STOCK_LOW_WINDOW_DAYS), when the movement took it from at or above the threshold to below
 * it; else null. Before and after share the units sold, so only the change of the quantity
 * on hand decides; no threshold, no coverage state or no sales in the window (no coverage at
 * all) is never a crossing.
 */
export function crossedBelow({ threshold, sold, onHandBefore, onHandAfter }: CoverageReading): bigint | null {
  if (threshold === null || sold === undefined) return null;
  const before = coverageHundredths(onHandBefore, sold, STOCK_LOW_WINDOW_DAYS);
  const after = coverageHundredths(onHandAfter, sold, STOCK_LOW_WINDOW_DAYS);
  if (before === null || after === null) return null;
  return before >= threshold && after < threshold ? after : null;
}
