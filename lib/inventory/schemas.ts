import * as classic from 'zod';
import * as z from 'zod/mini';
import { MONEY_PLACES, parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { cursorParam } from '../domain/cursor';
import { documented, nameField, queryInteger, requiredText, timeBound, uuidField } from '../domain/fields';
import {
  MANUAL_MOVEMENT_TYPES,
  movementSchema,
  MOVEMENT_TYPES,
  PRODUCT_STATUSES,
  PRODUCT_UNITS,
  productSchema,
  warehouseInputSchema,
  warehouseSchema,
} from './model';
import { gtinProblem } from './gtin';
import { COST_METHODS } from '../domain/companies';
import { textProblem } from '../domain/text';
import { schema } from '../domain/schema';

export { MANUAL_MOVEMENT_TYPES, MOVEMENT_TYPES, type ManualMovementType, type MovementType } from './model';

/**
 * Quantities (3 decimal places) and unit costs (4): at most a billion, and exactly a decimal
 * of that many places (checked on the digits, lib/domain/decimal, never by float arithmetic).
 */
const amount = (places: number) =>
  z.number().check(
    z.lte(1e9, 'must be at most 1000000000'),
    z.refine((value) => parseScaled(value, places) !== undefined, `must have at most ${places} decimal places`),
  );

/** A movement's `quantity` and `unitCost` as the service parses them (the per-type rules are `movementBody`'s). */
export const quantityField = /* @__PURE__ */ schema(() => z.pipe(amount(QUANTITY_PLACES), z.number().check(z.gte(0, 'must not be negative'))));
export const unitCostField = /* @__PURE__ */ schema(() => z.pipe(amount(UNIT_COST_PLACES), z.number().check(z.gte(0, 'must not be negative'))));

/**
 * The earliest `occurredAt` a movement may carry: a back-dated movement older than this is a
 * typo (a year 100 sale once gave a business day "100-06-15" that broke coverage for good),
 * and every business day then has a four-digit year. The latest is "now" (the service).
 */
export const OCCURRED_AT_FLOOR = '2000-01-01T00:00:00.000Z';
export const OCCURRED_AT_FLOOR_MS = Date.parse(OCCURRED_AT_FLOOR);

/** The warehouse input fields (lib/inventory/model) with their input rules. */
export const warehouseBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    ...warehouseInputSchema.shape,
    name: nameField,
    companyId: z.optional(
      documented(uuidField, {
        description: "The company (an ACTIVE one of the tenant) whose stock the warehouse holds; by default the tenant's oldest ACTIVE company.",
      }),
    ),
  }),
);

/** A product's SKU: letters, digits and `. _ / -` (they sort and search as themselves). */
const skuField = /* @__PURE__ */ schema(() => requiredText(64).check(z.regex(/^[A-Za-z0-9._/-]+$/, 'must be letters, digits and . _ / - only')));

/** A description: text of up to 2,000 characters, where line breaks and tabs are data. */
export const MAX_DESCRIPTION = 2_000;
const descriptionField = /* @__PURE__ */ schema(() =>
  z.string().check(
    z.trim(),
    z.minLength(1, 'must not be empty (null clears it)'),
    z.maxLength(MAX_DESCRIPTION, `must be at most ${MAX_DESCRIPTION} characters`),
    z.superRefine((value, ctx) => {
      const problem = textProblem(value.replace(/[\n\t]/g, ' '));
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  ),
);

/** A GTIN as a body or a query takes it: a 400 says which of its rules it breaks. */
export const gtinField = /* @__PURE__ */ schema(() =>
  documented(
    z.string().check(
      z.superRefine((value, ctx) => {
        const problem = gtinProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    ),
    {
      description: 'The barcode: GTIN-8, -12, -13 or -14, digits only, its check digit verified. Unique in the tenant.',
      pattern: '^(?:[0-9]{8}|[0-9]{12,14})$',
      examples: ['7891000315507'],
    },
  ),
);

/** A sale price: exact, at most 2 decimals, never negative, at most a billion. */
export const MAX_SALE_PRICE = 1e9;
const salePriceField = /* @__PURE__ */ schema(() =>
  z.number().check(
    z.gte(0, 'must not be negative'),
    z.lte(MAX_SALE_PRICE, 'must be at most 1000000000'),
    z.refine((value) => parseScaled(value, MONEY_PLACES) !== undefined, `must have at most ${MONEY_PLACES} decimal places`),
  ),
);

/** The fields a product takes, each with its input rule; the optional ones may be null in a change (cleared). */
const productFields = /* @__PURE__ */ schema(() => ({
  sku: skuField,
  name: nameField,
  description: descriptionField,
  brand: requiredText(120),
  unit: z.enum(PRODUCT_UNITS, { message: `must be one of ${PRODUCT_UNITS.join(', ')}` }),
  gtin: gtinField,
  ncm: documented(z.string().check(z.regex(/^[0-9]{8}$/, 'must be an NCM: 8 digits')), {
    description: 'The Mercosur Common Nomenclature of the goods, 8 digits (without dots).',
    examples: ['09012100'],
  }),
  cest: documented(z.string().check(z.regex(/^[0-9]{7}$/, 'must be a CEST: 7 digits')), {
    description: 'The tax substitution code, 7 digits (without dots).',
    examples: ['1709600'],
  }),
  salePrice: salePriceField,
  status: z.enum(PRODUCT_STATUSES, { message: `must be one of ${PRODUCT_STATUSES.join(', ')}` }),
  categoryId: documented(uuidField, {
    description: "The product's category (GET /inventory/categories): one of the tenant's, else 404.",
    examples: ['5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f'],
  }),
}));

/** POST /inventory/products: a SKU and a name; every other field optional (unit UN and status ACTIVE by default). */
export const productBody = /* @__PURE__ */ schema(() => {
  const { sku, name, ...optional } = productFields;
  return z.strictObject({
    sku,
    name,
    description: z.optional(optional.description),
    brand: z.optional(optional.brand),
    unit: z.optional(optional.unit),
    gtin: z.optional(optional.gtin),
    ncm: z.optional(optional.ncm),
    cest: z.optional(optional.cest),
    salePrice: z.optional(optional.salePrice),
    status: z.optional(optional.status),
    categoryId: z.optional(optional.categoryId),
  });
});
export type ProductBody = z.output<typeof productBody>;

/** PATCH /inventory/products/{id}: any field (at least one); null clears an optional one. */
export const updateProductBody = /* @__PURE__ */ schema(() => {
  const fields = productFields;
  return z
    .strictObject({
      sku: z.optional(fields.sku),
      name: z.optional(fields.name),
      description: z.optional(z.nullable(fields.description)),
      brand: z.optional(z.nullable(fields.brand)),
      unit: z.optional(fields.unit),
      gtin: z.optional(z.nullable(fields.gtin)),
      ncm: z.optional(z.nullable(fields.ncm)),
      cest: z.optional(z.nullable(fields.cest)),
      salePrice: z.optional(z.nullable(fields.salePrice)),
      status: z.optional(fields.status),
      categoryId: z.optional(z.nullable(fields.categoryId)),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' }));
});
export type UpdateProductBody = z.output<typeof updateProductBody>;

export const occurredAtField = /* @__PURE__ */ schema(() =>
  documented(
    z.iso
      .datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-11-21T10:00:00.000Z' })
      .check(z.refine((value) => Date.parse(value) >= OCCURRED_AT_FLOOR_MS, `must not be before ${OCCURRED_AT_FLOOR}`)),
    {
      description: `When the goods moved; defaults to now. Not before ${OCCURRED_AT_FLOOR} and not in the future (both 400).`,
      examples: ['2026-11-20T14:30:00.000Z'],
    },
  ),
);

export const movementFields = /* @__PURE__ */ schema(() => ({
  productId: uuidField,
  warehouseId: uuidField,
  type: z.enum(MANUAL_MOVEMENT_TYPES, { message: `must be one of ${MANUAL_MOVEMENT_TYPES.join(', ')}` }),
  quantity: quantityField,
  unitCost: z.optional(unitCostField),
  occurredAt: z.optional(occurredAtField),
}));

export const movementBody = /* @__PURE__ */ schema(() =>
  z.strictObject(movementFields).check(
    z.superRefine((movement, ctx) => {
      if (movement.type !== 'ADJUSTMENT' && movement.quantity <= 0) {
        ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'must be greater than 0' });
      }
      if (movement.type === 'IN' && movement.unitCost === undefined) {
        ctx.addIssue({ code: 'custom', path: ['unitCost'], message: 'is required for IN' });
      }
      if ((movement.type === 'OUT' || movement.type === 'SALE') && movement.unitCost !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['unitCost'], message: `is not accepted for ${movement.type}: stock leaves at its average cost` });
      }
    }),
  ),
);

/**
 * GET /inventory/dashboard/coverage pages: bounded like every list, large enough
 * that a catalog of up to 500 products sees its whole dashboard in one answer (about 85 KB).
 */
export const MAX_COVERAGE_PAGE = 1_000;
export const DEFAULT_COVERAGE_PAGE = 500;

export const coverageQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    days: z._default(
      z.pipe(
        z.pipe(z.string().check(z.regex(/^\d+$/, 'must be a whole number of days from 1 to 365')), z.transform(Number)),
        z.number().check(z.int(), z.gte(1, 'must be at least 1'), z.lte(365, 'must be at most 365')),
      ),
      30,
    ),
    limit: z._default(queryInteger(1, MAX_COVERAGE_PAGE, `must be an integer from 1 to ${MAX_COVERAGE_PAGE}`), DEFAULT_COVERAGE_PAGE),
    cursor: cursorParam,
  }),
);
export type CoverageInput = z.output<typeof coverageQuery>;

/** GET /inventory/dashboard/by-warehouse: one company's warehouses, or all. */
export const stockByWarehouseQuery = /* @__PURE__ */ schema(() => z.strictObject({ companyId: z.optional(uuidField) }));

/** GET /inventory/movements: page sizes. */
export const MAX_HISTORY_PAGE = 100;
export const DEFAULT_HISTORY_PAGE = 50;

/** GET /inventory/movements; any other parameter is a 400. */
export const movementHistoryQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    productId: z.optional(uuidField),
    warehouseId: z.optional(uuidField),
    type: z.optional(z.enum(MOVEMENT_TYPES, { message: `must be one of ${MOVEMENT_TYPES.join(', ')}` })),
    from: z.optional(timeBound),
    to: z.optional(timeBound),
    limit: z._default(queryInteger(1, MAX_HISTORY_PAGE, `must be an integer from 1 to ${MAX_HISTORY_PAGE}`), DEFAULT_HISTORY_PAGE),
    cursor: cursorParam,
  }),
);
export type MovementHistoryInput = z.output<typeof movementHistoryQuery>;

/*
 * The views (the answers' schemas, for the tooling) are classic zod and never built in a
 * bundle: lib/domain/schema.ts, "Views".
 */

/** A warehouse as the API shows it (its maintained totals are the by-warehouse dashboard's). */
export const warehouseView = /* @__PURE__ */ schema(() =>
  classic.object(warehouseSchema.shape).pick({ id: true, name: true, companyId: true, createdAt: true }),
);
export type WarehouseView = classic.infer<typeof warehouseView>;

/**
 * A product as the API shows it: every field a caller sets (the sale price in currency, to the
 * cent; an optional field not set is null), its timestamps and its `version`, which its ETag
 * names (its on-hand quantity is the coverage dashboard's).
 */
export const productView = /* @__PURE__ */ schema(() =>
  classic.object(productSchema.shape).omit({ onHand: true }).extend({
    salePrice: classic.number().nullable(),
  }),
);
export type ProductView = classic.infer<typeof productView>;

/** POST /inventory/movements: the movement as recorded, with the balance it left. */
export const movementView = /* @__PURE__ */ schema(() =>
  classic
    .object(movementSchema.shape)
    .omit({ tenantId: true, day: true })
    .extend({
      /**
       * The balance after it: its quantity (3 decimals), its average unit cost and its last
       * unit cost (of the latest IN, or ADJUSTMENT that gave one) in cents; the last cost is
       * null for a movement recorded before balances kept it.
       */
      balance: classic.object({ quantity: classic.number(), averageCost: classic.number(), lastCost: classic.number().nullable() }),
    }),
);
export type MovementView = classic.infer<typeof movementView>;

/** GET /inventory/movements: a page of the stock history, newest first. */
export const movementHistoryPageView = /* @__PURE__ */ schema(() =>
  classic.object({
    items: classic.array(movementView),
    /** Pass as `cursor` (with the same filters) for the next page; null on the last page. */
    nextCursor: classic.string().nullable(),
  }),
);
export type MovementHistoryPage = classic.infer<typeof movementHistoryPageView>;

/** GET /inventory/dashboard/coverage, one per product. */
export const coverageItemView = /* @__PURE__ */ schema(() =>
  classic.object({
    productId: productSchema.shape.id,
    sku: productSchema.shape.sku,
    name: productSchema.shape.name,
    availableQuantity: classic.number(),
    averageDailySales: classic.number(),
    /** null when the product sold nothing in the period. */
    estimatedCoverageDays: classic.number().nullable(),
  }),
);
export type CoverageItem = classic.infer<typeof coverageItemView>;

/** GET /inventory/dashboard/by-warehouse, one per warehouse. */
export const warehouseSummaryView = /* @__PURE__ */ schema(() =>
  classic.object({
    warehouseId: warehouseSchema.shape.id,
    warehouseName: warehouseSchema.shape.name,
    /** null: a warehouse of a tenant that had no company when it was made. */
    companyId: classic.string().uuid().nullable(),
    /** The cost method its value follows: its company's (WEIGHTED_AVERAGE for a warehouse without one). */
    costMethod: classic.enum(COST_METHODS),
    /** Units on hand, to 2 decimals. */
    totalItems: classic.number(),
    totalProducts: warehouseSchema.shape.totalProducts,
    /** In cents: Σ value at average cost (WEIGHTED_AVERAGE), or Σ quantity x last cost (REPLACEMENT). */
    totalValue: classic.number(),
  }),
);
export type WarehouseSummary = classic.infer<typeof warehouseSummaryView>;

export const warehouseListView = /* @__PURE__ */ schema(() => classic.array(warehouseView));
export const productListView = /* @__PURE__ */ schema(() => classic.array(productView));
export const coverageListView = /* @__PURE__ */ schema(() => classic.array(coverageItemView));
export const warehouseSummaryListView = /* @__PURE__ */ schema(() => classic.array(warehouseSummaryView));
