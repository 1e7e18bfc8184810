import * as classic from 'zod';
import * as z from 'zod/mini';
import { COST_METHODS } from '../domain/companies';
import { cursorParam } from '../domain/cursor';
import { parseScaled, QUANTITY_PLACES } from '../domain/decimal';
import { documented, queryInteger, requiredText, uuidField } from '../domain/fields';
import { schema } from '../domain/schema';
import { gtinField, quantityField } from '../inventory/schemas';
import { COUNT_SCOPES, COUNT_STATUSES, MAX_COUNT_NOTE, MAX_COUNT_PRODUCTS, UNCOUNTED_RULES } from './model';

/** POST /inventory/counts: a warehouse, and the products to count (every one with stock there, or scanned, when none are named). */
export const createCountBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    warehouseId: documented(uuidField, { description: 'The warehouse counted.', examples: ['5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f'] }),
    productIds: z.optional(
      documented(
        z.array(uuidField).check(
          z.minLength(1, 'must name at least one product (leave it out to count the whole warehouse)'),
          z.maxLength(MAX_COUNT_PRODUCTS, `must name at most ${MAX_COUNT_PRODUCTS} products`),
          z.refine((ids) => new Set(ids).size === ids.length, 'must not name a product twice'),
        ),
        {
          description: `The products to count, 1 to ${MAX_COUNT_PRODUCTS}. Left out: every product with stock in the warehouse, and any product counted there.`,
          examples: [['1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b']],
        },
      ),
    ),
    note: z.optional(requiredText(MAX_COUNT_NOTE)),
  }),
);
export type CreateCountBody = z.output<typeof createCountBody>;

/** A count's line: the count's id and the product's. */
export const countLinePath = /* @__PURE__ */ schema(() => z.object({ id: uuidField, productId: uuidField }));

/** PUT /inventory/counts/{id}/lines/{productId}: what was counted. */
export const countLineBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    counted: documented(quantityField, {
      description: 'Units on the shelf: 0 or more, at most 3 decimal places, whole for a product of a whole unit.',
      examples: [12],
    }),
  }),
);
export type CountLineBody = z.output<typeof countLineBody>;

/** A scan's quantity: not 0, at most 3 decimals; a negative one takes units back (an undo). */
const scanQuantity = /* @__PURE__ */ schema(() =>
  z.number().check(
    z.gte(-1e9, 'must be at least -1000000000'),
    z.lte(1e9, 'must be at most 1000000000'),
    z.refine((value) => value !== 0, 'must not be 0'),
    z.refine((value) => parseScaled(Math.abs(value), QUANTITY_PLACES) !== undefined, `must have at most ${QUANTITY_PLACES} decimal places`),
  ),
);

/** POST /inventory/counts/{id}/scans: a barcode or a SKU (exactly one), and how many units it stands for. */
export const scanBody = /* @__PURE__ */ schema(() =>
  documented(
    z
      .strictObject({
        gtin: z.optional(gtinField),
        sku: z.optional(documented(requiredText(64), { description: "The product's SKU, when it has no barcode.", examples: ['CAF-500'] })),
        quantity: z._default(
          documented(scanQuantity, { description: 'Units to add to the line (default 1); a negative quantity takes units back (an undo).', examples: [1] }),
          1,
        ),
      })
      .check(z.refine((body) => (body.gtin === undefined) !== (body.sku === undefined), { message: 'give exactly one of gtin and sku', path: ['gtin'] })),
    // The refinement, as the OpenAPI document states it.
    { oneOf: [{ required: ['gtin'] }, { required: ['sku'] }] },
  ),
);
export type ScanBody = z.output<typeof scanBody>;

/** POST /inventory/counts/{id}/close. */
export const closeCountBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    uncounted: documented(z.enum(UNCOUNTED_RULES), {
      description: 'What the close does to a product in scope nobody counted: `ignore` leaves its stock, `zero` counts it as 0.',
      examples: ['ignore'],
    }),
  }),
);
export type CloseCountBody = z.output<typeof closeCountBody>;

export const MAX_COUNT_PAGE = 100;
export const DEFAULT_COUNT_PAGE = 50;
export const MAX_LINE_PAGE = 500;
export const DEFAULT_LINE_PAGE = 100;

/** GET /inventory/counts: newest first, of a status and/or a warehouse. */
export const listCountsQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    status: z.optional(z.enum(COUNT_STATUSES)),
    warehouseId: z.optional(uuidField),
    limit: z._default(queryInteger(1, MAX_COUNT_PAGE, `must be an integer from 1 to ${MAX_COUNT_PAGE}`), DEFAULT_COUNT_PAGE),
    cursor: cursorParam,
  }),
);
export type ListCountsInput = z.output<typeof listCountsQuery>;

/** GET /inventory/counts/{id}: its lines by product, or by the value of their difference (largest first). */
export const countLinesQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    order: z._default(
      documented(z.enum(['product', 'difference']), {
        description: '`product` (by product id) or `difference` (the largest value of a difference first, surplus or shortage).',
        examples: ['difference'],
      }),
      'product',
    ),
    limit: z._default(queryInteger(1, MAX_LINE_PAGE, `must be an integer from 1 to ${MAX_LINE_PAGE}`), DEFAULT_LINE_PAGE),
    cursor: cursorParam,
  }),
);
export type CountLinesInput = z.output<typeof countLinesQuery>;

/** GET /inventory/counts/{id}/uncounted. */
export const uncountedQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    limit: z._default(queryInteger(1, MAX_LINE_PAGE, `must be an integer from 1 to ${MAX_LINE_PAGE}`), DEFAULT_LINE_PAGE),
    cursor: cursorParam,
  }),
);
export type UncountedInput = z.output<typeof uncountedQuery>;

export const countTotalsView = /* @__PURE__ */ schema(() =>
  classic.object({
    lines: classic.number().int(),
    linesWithDifference: classic.number().int(),
    surplusValue: classic.number(),
    shortageValue: classic.number(),
    differenceValue: classic.number(),
  }),
);

/** A count as the API shows it: values in cents. */
export const countView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    warehouseId: classic.uuid(),
    companyId: classic.uuid().nullable(),
    status: classic.enum(COUNT_STATUSES),
    scope: classic.enum(COUNT_SCOPES),
    productIds: classic.array(classic.uuid()).nullable(),
    costMethod: classic.enum(COST_METHODS),
    note: classic.string().nullable(),
    uncounted: classic.enum(UNCOUNTED_RULES).nullable(),
    totals: countTotalsView,
    applied: classic.number().int(),
    createdAt: classic.iso.datetime(),
    createdBy: classic.string().nullable(),
    closedAt: classic.iso.datetime().nullable(),
    cancelledAt: classic.iso.datetime().nullable(),
  }),
);
export type CountView = classic.infer<typeof countView>;

/** A line as the API shows it: quantities to 3 decimals, the unit cost to 4, values in cents. */
export const countLineView = /* @__PURE__ */ schema(() =>
  classic.object({
    productId: classic.uuid(),
    sku: classic.string(),
    name: classic.string(),
    gtin: classic.string().nullable(),
    unit: classic.string(),
    counted: classic.number(),
    systemAtCount: classic.number(),
    difference: classic.number(),
    unitCost: classic.number(),
    differenceValue: classic.number(),
    countedAt: classic.iso.datetime(),
    zeroed: classic.boolean(),
    appliedAt: classic.iso.datetime().nullable(),
    movementId: classic.uuid().nullable(),
    appliedDifference: classic.number().nullable(),
  }),
);
export type CountLineView = classic.infer<typeof countLineView>;

export const countDetailView = /* @__PURE__ */ schema(() =>
  countView.extend({
    lines: classic.array(countLineView),
    /** Pass as `cursor` (with the same `order`) for the next page of lines; null on the last page. */
    nextCursor: classic.string().nullable(),
  }),
);
export type CountDetailView = classic.infer<typeof countDetailView>;

export const countPageView = /* @__PURE__ */ schema(() => classic.object({ items: classic.array(countView), nextCursor: classic.string().nullable() }));

export const uncountedProductView = /* @__PURE__ */ schema(() =>
  classic.object({
    productId: classic.uuid(),
    sku: classic.string(),
    name: classic.string(),
    gtin: classic.string().nullable(),
    unit: classic.string(),
    quantity: classic.number(),
  }),
);
export type UncountedProductView = classic.infer<typeof uncountedProductView>;

export const uncountedPageView = /* @__PURE__ */ schema(() =>
  classic.object({ items: classic.array(uncountedProductView), nextCursor: classic.string().nullable() }),
);
