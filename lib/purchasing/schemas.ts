import * as classic from 'zod';
import * as z from 'zod/mini';
import { cursorParam } from '../domain/cursor';
import { documented, queryInteger, uuidField } from '../domain/fields';
import { schema } from '../domain/schema';
import { INDEXED_COVERAGE_DAYS } from '../inventory/model';
import { quantityField } from '../inventory/schemas';
import { DEFAULT_SAFETY_DAYS, DEFAULT_TARGET_DAYS, MAX_REORDER_DAYS } from './model';

const days = (description: string, min: number, example: number) =>
  documented(
    z
      .int('must be an integer')
      .check(z.gte(min, `must be from ${min} to ${MAX_REORDER_DAYS}`), z.lte(MAX_REORDER_DAYS, `must be from ${min} to ${MAX_REORDER_DAYS}`)),
    { description, examples: [example] },
  );

/** PUT /inventory/products/{id}/reorder: the settings for one warehouse, or for every warehouse without its own. */
export const reorderSettingsBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    warehouseId: z.optional(
      z.nullable(
        documented(uuidField, {
          description: 'The warehouse they hold for; absent or null: every warehouse without its own.',
          examples: ['6c1d9a5f-3e2b-4d4c-8f9a-8b7c6d5e4f3a'],
        }),
      ),
    ),
    reorderPoint: z.optional(
      z.nullable(documented(quantityField, { description: 'Buy when available + on order falls below it; null: none.', examples: [24] })),
    ),
    targetDays: z.optional(days(`Days of sales an order should cover, 1–${MAX_REORDER_DAYS}; default ${DEFAULT_TARGET_DAYS}.`, 1, 30)),
    safetyDays: z.optional(days(`Days of margin over the supplier's lead time, 0–${MAX_REORDER_DAYS}; default ${DEFAULT_SAFETY_DAYS}.`, 0, 3)),
  }),
);
export type ReorderSettingsBody = z.output<typeof reorderSettingsBody>;

export const reorderSettingsView = /* @__PURE__ */ schema(() =>
  classic.object({
    productId: classic.uuid(),
    warehouseId: classic.uuid().nullable(),
    reorderPoint: classic.number().nullable(),
    targetDays: classic.number().int(),
    safetyDays: classic.number().int(),
    updatedAt: classic.iso.datetime(),
  }),
);
export type ReorderSettingsView = classic.infer<typeof reorderSettingsView>;

export const MAX_SUGGESTION_PAGE = 100;

/** GET /purchasing/suggestions. */
export const suggestionsQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    supplierId: z.optional(
      documented(uuidField, {
        description: "The supplier's products; absent: every product's preferred supplier.",
        examples: ['5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f'],
      }),
    ),
    warehouseId: z.optional(
      documented(uuidField, { description: 'The stock of this warehouse; absent: of every warehouse.', examples: ['6c1d9a5f-3e2b-4d4c-8f9a-8b7c6d5e4f3a'] }),
    ),
    days: z._default(
      documented(
        z
          .pipe(z.string(), z.transform(Number))
          .check(z.refine((value) => (INDEXED_COVERAGE_DAYS as readonly number[]).includes(value), `must be one of ${INDEXED_COVERAGE_DAYS.join(', ')}`)),
        { description: `The window of the average daily sales, in days: ${INDEXED_COVERAGE_DAYS.join(', ')}.`, examples: ['30'] },
      ),
      30,
    ),
    limit: z._default(queryInteger(1, MAX_SUGGESTION_PAGE, `must be an integer from 1 to ${MAX_SUGGESTION_PAGE}`), 50),
    cursor: cursorParam,
  }),
);
export type SuggestionsInput = z.output<typeof suggestionsQuery>;

export const suggestionView = /* @__PURE__ */ schema(() =>
  classic.object({
    productId: classic.uuid(),
    sku: classic.string(),
    name: classic.string(),
    supplierId: classic.uuid(),
    /** The quantity to order, in the product's units: whole packs, at least the minimum. */
    suggestedQuantity: classic.number(),
    packs: classic.number(),
    /** What led to it. */
    averageDailySales: classic.number(),
    available: classic.number(),
    onOrder: classic.number(),
    leadTimeDays: classic.number().int(),
    safetyDays: classic.number().int(),
    targetDays: classic.number().int(),
    reorderPoint: classic.number().nullable(),
    unitsPerPack: classic.number(),
    minimumOrder: classic.number().nullable(),
    lastCost: classic.number().nullable(),
  }),
);
export type SuggestionView = classic.infer<typeof suggestionView>;

export const suggestionPageView = /* @__PURE__ */ schema(() =>
  classic.object({
    items: classic.array(suggestionView),
    /** The last day whose sales the averages count (the roll-up's); null before the first roll-up. */
    salesThrough: classic.string().nullable(),
    nextCursor: classic.string().nullable(),
  }),
);
