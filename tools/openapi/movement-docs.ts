import * as z from 'zod';
import { QUANTITY_PLACES, UNIT_COST_PLACES } from '../../lib/domain/decimal';
import { documented } from '../../lib/domain/fields';
import { movementFields, quantityField, unitCostField, type ManualMovementType } from '../../lib/inventory/schemas';

/**
 * The movement request as the OpenAPI document shows it. Tooling only: built here rather than
 * beside `movementBody` in lib/inventory/schemas.ts, so that no function bundle evaluates these
 * schemas at cold start.
 */

/**
 * What the OpenAPI document says of an amount: the bounds of the `.pipe()`, which a conversion of
 * the input side does not see, and the decimal places in words (`multipleOf: 0.0001` would be
 * exact but binary floats make validators refuse 18.9). Metadata only: parsing is the schema's.
 */
const amountDocs = (places: number, minimum: { minimum: number } | { exclusiveMinimum: number }, example: number) => ({
  ...minimum,
  maximum: 1e9,
  description: `At most ${places} decimal places.`,
  examples: [example],
});

/**
 * `movementBody`'s per-type rules (its `superRefine`) as the OpenAPI document states them: one
 * strict object per `type`, discriminated on it. Documentation only: the service parses with
 * `movementBody`, whose messages name the rule a request broke; test/unit/openapi.test.ts holds
 * the two to accepting the same bodies.
 */
const positiveQuantity = documented(quantityField, amountDocs(QUANTITY_PLACES, { exclusiveMinimum: 0 }, 24));
const cost = (description: string) => documented(unitCostField, { ...amountDocs(UNIT_COST_PLACES, { minimum: 0 }, 18.9), description });
const { productId, warehouseId, occurredAt } = movementFields;
export const movementBodyByType = {
  IN: z.strictObject({
    productId,
    warehouseId,
    type: z.literal('IN'),
    quantity: positiveQuantity,
    unitCost: cost('The unit cost of what comes in; at most 4 decimal places.'),
    occurredAt,
  }),
  OUT: z.strictObject({ productId, warehouseId, type: z.literal('OUT'), quantity: positiveQuantity, occurredAt }),
  SALE: z.strictObject({ productId, warehouseId, type: z.literal('SALE'), quantity: positiveQuantity, occurredAt }),
  ADJUSTMENT: z.strictObject({
    productId,
    warehouseId,
    type: z.literal('ADJUSTMENT'),
    quantity: documented(quantityField, {
      ...amountDocs(QUANTITY_PLACES, { minimum: 0 }, 120),
      description: 'The counted on-hand quantity (0 allowed); at most 3 decimal places.',
    }),
    unitCost: z.optional(cost('Optional: the unit cost of the counted stock; at most 4 decimal places.')),
    occurredAt,
  }),
} as const satisfies Record<ManualMovementType, z.ZodType>;
export const movementBodyDocs = z.discriminatedUnion('type', [
  movementBodyByType.IN,
  movementBodyByType.OUT,
  movementBodyByType.SALE,
  movementBodyByType.ADJUSTMENT,
]);
