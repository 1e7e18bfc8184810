import * as classic from 'zod';
import * as z from 'zod/mini';
import { cursorParam } from '../domain/cursor';
import { isDay } from '../domain/days';
import { documented, emailField, queryInteger, requiredText, timeBound, uuidField } from '../domain/fields';
import { schema } from '../domain/schema';
import { quantityField, unitCostField } from '../inventory/schemas';
import { MAX_ORDER_ITEMS, MAX_ORDER_NOTES, PURCHASE_ORDER_STATUSES } from './model';

const expectedAtField = /* @__PURE__ */ schema(() =>
  documented(z.string().check(z.refine(isDay, 'must be a day, YYYY-MM-DD')), {
    description: 'The day the goods are expected, `YYYY-MM-DD`.',
    examples: ['2026-12-10'],
  }),
);

const itemsField = /* @__PURE__ */ schema(() =>
  documented(
    z
      .array(
        z.strictObject({
          productId: documented(uuidField, { description: 'A product of the tenant (each at most once).', examples: ['1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b'] }),
          quantity: documented(quantityField.check(z.gt(0, 'must be greater than 0')), {
            description: 'Units of the product, greater than 0; at most 3 decimal places, whole for a product of a whole unit.',
            examples: [84],
          }),
          unitCost: documented(unitCostField, { description: 'The price of one unit, up to 4 decimal places.', examples: [8.5] }),
        }),
      )
      .check(
        z.minLength(1, 'must have at least one item'),
        z.maxLength(MAX_ORDER_ITEMS, `must have at most ${MAX_ORDER_ITEMS} items`),
        z.superRefine((items, ctx) => {
          const seen = new Set<string>();
          items.forEach((item, index) => {
            if (seen.has(item.productId)) ctx.addIssue({ code: 'custom', path: [index, 'productId'], message: 'names a product already in items' });
            seen.add(item.productId);
          });
        }),
      ),
    { description: `What is bought: 1 to ${MAX_ORDER_ITEMS} products, each once.` },
  ),
);

/** POST /purchase-orders. */
export const createPurchaseOrderBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    supplierId: documented(uuidField, { description: 'The supplier the order is for.', examples: ['5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f'] }),
    companyId: documented(uuidField, {
      description: 'The company that buys (its sequence numbers the order).',
      examples: ['7d2e0b6a-4f3c-4e5d-9a0b-9c8d7e6f5a4b'],
    }),
    warehouseId: documented(uuidField, { description: 'Where the goods are to arrive.', examples: ['6c1d9a5f-3e2b-4d4c-8f9a-8b7c6d5e4f3a'] }),
    expectedAt: z.optional(expectedAtField),
    notes: z.optional(requiredText(MAX_ORDER_NOTES)),
    items: itemsField,
  }),
);
export type CreatePurchaseOrderBody = z.output<typeof createPurchaseOrderBody>;

/** PATCH /purchase-orders/{id}: items only in DRAFT; the expected date and the notes until it is received or cancelled. */
export const updatePurchaseOrderBody = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      expectedAt: z.optional(z.nullable(expectedAtField)),
      notes: z.optional(z.nullable(requiredText(MAX_ORDER_NOTES))),
      items: z.optional(itemsField),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })),
);
export type UpdatePurchaseOrderBody = z.output<typeof updatePurchaseOrderBody>;

export const MAX_ORDER_PAGE = 100;

/** GET /purchase-orders. */
export const listPurchaseOrdersQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    status: z.optional(documented(z.enum(PURCHASE_ORDER_STATUSES), { description: 'Only orders of this status.', examples: ['SENT'] })),
    supplierId: z.optional(uuidField),
    companyId: z.optional(uuidField),
    from: z.optional(timeBound),
    to: z.optional(timeBound),
    limit: z._default(queryInteger(1, MAX_ORDER_PAGE, `must be an integer from 1 to ${MAX_ORDER_PAGE}`), 50),
    cursor: cursorParam,
  }),
);
export type ListPurchaseOrdersInput = z.output<typeof listPurchaseOrdersQuery>;

export const purchaseOrderView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    /** `PC-000123`: the company's sequence number. */
    code: classic.string(),
    number: classic.number().int(),
    companyId: classic.uuid(),
    supplierId: classic.uuid(),
    warehouseId: classic.uuid(),
    status: classic.enum(PURCHASE_ORDER_STATUSES),
    expectedAt: classic.string().nullable(),
    notes: classic.string().nullable(),
    items: classic.array(
      classic.object({
        productId: classic.uuid(),
        quantity: classic.number(),
        unitCost: classic.number(),
        /** quantity × unitCost, in cents. */
        total: classic.number(),
        received: classic.number(),
      }),
    ),
    /** The items' exact values summed, in cents. */
    total: classic.number(),
    createdAt: classic.iso.datetime(),
    updatedAt: classic.iso.datetime(),
    sentAt: classic.iso.datetime().nullable(),
    cancelledAt: classic.iso.datetime().nullable(),
    /** The ETag's value: send `If-Match: "<version>"` with a PATCH. */
    version: classic.number().int(),
  }),
);
export type PurchaseOrderView = classic.infer<typeof purchaseOrderView>;

export const purchaseOrderPageView = /* @__PURE__ */ schema(() =>
  classic.object({ items: classic.array(purchaseOrderView), nextCursor: classic.string().nullable() }),
);

/** POST /purchase-orders/{id}/send: to the supplier's e-mail, or to `to`. */
export const sendPurchaseOrderBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    /** Where to send it instead of the supplier's e-mail. */
    to: z.optional(emailField),
  }),
);
export type SendPurchaseOrderBody = z.output<typeof sendPurchaseOrderBody>;
