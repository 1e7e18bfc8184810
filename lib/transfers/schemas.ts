import * as classic from 'zod';
import * as z from 'zod/mini';
import { cursorParam } from '../domain/cursor';
import { documented, queryInteger, requiredText, timeBound, uuidField } from '../domain/fields';
import { schema } from '../domain/schema';
import { occurredAtField, quantityField } from '../inventory/schemas';
import { COST_METHODS } from '../domain/companies';
import { MAX_TRANSFER_ITEMS, MAX_TRANSFER_NOTE, TRANSFER_BATCH_STATUSES } from './model';

const transferQuantity = /* @__PURE__ */ schema(() =>
  documented(quantityField.check(z.gt(0, 'must be greater than 0')), {
    description: 'Units to move, greater than 0; at most 3 decimal places, and whole for a product of a whole unit.',
    examples: [12],
  }),
);

/** One line of a transfer of several products. */
const transferItem = /* @__PURE__ */ schema(() =>
  z.strictObject({
    productId: documented(uuidField, { description: 'A product to move (each at most once).', examples: ['1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b'] }),
    quantity: transferQuantity,
  }),
);

/**
 * POST /inventory/transfers: two different warehouses and either one product (`productId` and
 * `quantity`) or several (`items`, up to MAX_TRANSFER_ITEMS, each product once), moved all or none.
 */
export const transferBody = /* @__PURE__ */ schema(() =>
  documented(
    z
      .strictObject({
        productId: z.optional(
          documented(uuidField, { description: 'The product to move (or `items` for several).', examples: ['1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b'] }),
        ),
        quantity: z.optional(transferQuantity),
        items: z.optional(
          documented(
            z
              .array(transferItem)
              .check(z.minLength(1, 'must name at least one product'), z.maxLength(MAX_TRANSFER_ITEMS, `must have at most ${MAX_TRANSFER_ITEMS} products`)),
            {
              description: `Several products to move at once, all or none (instead of \`productId\` and \`quantity\`): up to ${MAX_TRANSFER_ITEMS}, each product once.`,
              examples: [[{ productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b', quantity: 12 }]],
            },
          ),
        ),
        fromWarehouseId: documented(uuidField, { description: 'The warehouse the units leave.', examples: ['5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f'] }),
        toWarehouseId: documented(uuidField, {
          description: 'The warehouse the units arrive in: another one of the tenant (400 for the same).',
          examples: ['6c1d9a5f-3e2b-4d4c-8f9a-8b7c6d5e4f3a'],
        }),
        occurredAt: z.optional(occurredAtField),
        note: z.optional(requiredText(MAX_TRANSFER_NOTE)),
      })
      .check(
        z.superRefine((body, ctx) => {
          if (body.fromWarehouseId === body.toWarehouseId)
            ctx.addIssue({ code: 'custom', path: ['toWarehouseId'], message: 'must not be the warehouse the units leave' });
          if (body.items === undefined) {
            if (body.productId === undefined) ctx.addIssue({ code: 'custom', path: ['productId'], message: 'give productId and quantity, or items' });
            if (body.quantity === undefined) ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'give productId and quantity, or items' });
            return;
          }
          if (body.productId !== undefined || body.quantity !== undefined)
            ctx.addIssue({ code: 'custom', path: ['items'], message: 'give items, or productId and quantity, not both' });
          const seen = new Set<string>();
          body.items.forEach((item, index) => {
            if (seen.has(item.productId)) ctx.addIssue({ code: 'custom', path: ['items', index, 'productId'], message: 'names a product already in items' });
            seen.add(item.productId);
          });
        }),
      ),
    // The refinement, as the OpenAPI document states it.
    { oneOf: [{ required: ['productId', 'quantity'] }, { required: ['items'] }] },
  ),
);
export type TransferBody = z.output<typeof transferBody>;

export const MAX_TRANSFER_PAGE = 100;
export const DEFAULT_TRANSFER_PAGE = 50;

/** GET /inventory/transfers: newest first, of a product and/or a warehouse (either side), within `from`/`to`. */
export const listTransfersQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    productId: z.optional(uuidField),
    warehouseId: z.optional(
      documented(uuidField, { description: 'Transfers out of or into this warehouse.', examples: ['5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f'] }),
    ),
    from: z.optional(timeBound),
    to: z.optional(timeBound),
    limit: z._default(queryInteger(1, MAX_TRANSFER_PAGE, `must be an integer from 1 to ${MAX_TRANSFER_PAGE}`), DEFAULT_TRANSFER_PAGE),
    cursor: cursorParam,
  }),
);
export type ListTransfersInput = z.output<typeof listTransfersQuery>;

const balanceView = () => classic.object({ quantity: classic.number(), averageCost: classic.number(), lastCost: classic.number() });

/** A transfer as the API shows it: quantity to 3 decimals, the value moved in cents, each side's movement and the balance it left. */
export const transferView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    productId: classic.uuid(),
    fromWarehouseId: classic.uuid(),
    toWarehouseId: classic.uuid(),
    fromCompanyId: classic.uuid().nullable(),
    toCompanyId: classic.uuid().nullable(),
    quantity: classic.number(),
    value: classic.number(),
    costMethod: classic.enum(COST_METHODS),
    note: classic.string().nullable(),
    /** The transfer of several products it is a line of; null for a transfer of one product. */
    batchId: classic.uuid().nullable(),
    occurredAt: classic.iso.datetime(),
    createdAt: classic.iso.datetime(),
    from: classic.object({ movementId: classic.uuid(), balance: balanceView() }),
    to: classic.object({ movementId: classic.uuid(), balance: balanceView() }),
  }),
);
export type TransferView = classic.infer<typeof transferView>;

export const transferPageView = /* @__PURE__ */ schema(() =>
  classic.object({
    items: classic.array(transferView),
    /** Pass as `cursor` (with the same filters) for the next page; null on the last page. */
    nextCursor: classic.string().nullable(),
  }),
);

/** A transfer of several products as the API shows it: each line a transfer of its own (with `batchId`), the value moved in all. */
export const transferBatchView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    status: classic.enum(TRANSFER_BATCH_STATUSES),
    fromWarehouseId: classic.uuid(),
    toWarehouseId: classic.uuid(),
    fromCompanyId: classic.uuid().nullable(),
    toCompanyId: classic.uuid().nullable(),
    costMethod: classic.enum(COST_METHODS),
    /** The sum of the lines' values, in cents. */
    value: classic.number(),
    note: classic.string().nullable(),
    occurredAt: classic.iso.datetime(),
    createdAt: classic.iso.datetime(),
    completedAt: classic.iso.datetime().nullable(),
    items: classic.array(transferView),
  }),
);
export type TransferBatchView = classic.infer<typeof transferBatchView>;
