import * as classic from 'zod';
import * as z from 'zod/mini';
import { cursorParam } from '../domain/cursor';
import { documented, queryInteger, requiredText, uuidField } from '../domain/fields';
import { schema } from '../domain/schema';
import { quantityField, unitCostField } from '../inventory/schemas';
import { MAX_LEAD_TIME_DAYS, MAX_SUPPLIER_CODE, MAX_SUPPLIER_UNIT } from './model';

const editable = () => ({
  supplierCode: z.optional(
    z.nullable(
      documented(requiredText(MAX_SUPPLIER_CODE), {
        description: "The supplier's own code for the product (the `cProd` of its NF-e), unique per supplier whatever its case; null clears it.",
        examples: ['CAF-500'],
      }),
    ),
  ),
  unit: z.optional(
    z.nullable(documented(requiredText(MAX_SUPPLIER_UNIT), { description: "The supplier's unit (`CX`, `FD`); null: the product's own.", examples: ['CX'] })),
  ),
  unitsPerPack: z.optional(
    documented(quantityField.check(z.gt(0, 'must be greater than 0')), {
      description: "The product's units in one of the supplier's units (a box of 12: 12); default 1. Suggestions round up to whole packs.",
      examples: [12],
    }),
  ),
  lastCost: z.optional(
    z.nullable(
      documented(unitCostField, {
        description: "The cost of one of the product's units from this supplier, up to 4 decimal places; every receipt from the supplier sets it.",
        examples: [8.5],
      }),
    ),
  ),
  leadTimeDays: z.optional(
    documented(z.int('must be an integer').check(z.gte(0, 'must be from 0 to 365'), z.lte(MAX_LEAD_TIME_DAYS, 'must be from 0 to 365')), {
      description: 'Days from the order to the goods, 0–365; default 7.',
      examples: [7],
    }),
  ),
  minimumOrder: z.optional(
    z.nullable(
      documented(quantityField, {
        description: "The fewest of the product's units the supplier takes in one order; null: none. Suggestions order at least this.",
        examples: [24],
      }),
    ),
  ),
  preferred: z.optional(
    documented(z.boolean(), {
      description: "The product's preferred supplier (at most one: making this one preferred makes the other not), whom suggestions buy from.",
      examples: [true],
    }),
  ),
});

/** POST /suppliers/{id}/products: the product, and what the supplier's terms for it are. */
export const createSupplierProductBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    productId: documented(uuidField, { description: 'The product the supplier sells.', examples: ['1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b'] }),
    ...editable(),
  }),
);
export type CreateSupplierProductBody = z.output<typeof createSupplierProductBody>;

/** PATCH /suppliers/{id}/products/{productId}: any of the terms (`null` clears an optional one). */
export const updateSupplierProductBody = /* @__PURE__ */ schema(() =>
  z.strictObject(editable()).check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })),
);
export type UpdateSupplierProductBody = z.output<typeof updateSupplierProductBody>;

export const supplierProductPath = /* @__PURE__ */ schema(() => z.object({ id: uuidField, productId: uuidField }));

export const MAX_SUPPLIER_PRODUCT_PAGE = 100;

/** GET /suppliers/{id}/products and GET /inventory/products/{id}/suppliers: pages in id order. */
export const listSupplierProductsQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    limit: z._default(queryInteger(1, MAX_SUPPLIER_PRODUCT_PAGE, `must be an integer from 1 to ${MAX_SUPPLIER_PRODUCT_PAGE}`), 50),
    cursor: cursorParam,
  }),
);
export type ListSupplierProductsInput = z.output<typeof listSupplierProductsQuery>;

/** A link as the API shows it: quantities to 3 decimals, costs to 4; with the product's SKU and name and the supplier's name as they are now. */
export const supplierProductView = /* @__PURE__ */ schema(() =>
  classic.object({
    supplierId: classic.uuid(),
    supplierName: classic.string(),
    productId: classic.uuid(),
    sku: classic.string(),
    productName: classic.string(),
    supplierCode: classic.string().nullable(),
    unit: classic.string().nullable(),
    unitsPerPack: classic.number(),
    lastCost: classic.number().nullable(),
    leadTimeDays: classic.number().int(),
    minimumOrder: classic.number().nullable(),
    preferred: classic.boolean(),
    createdAt: classic.iso.datetime(),
    updatedAt: classic.iso.datetime(),
    /** The ETag's value: send `If-Match: "<version>"` with a PATCH or DELETE. */
    version: classic.number().int(),
  }),
);
export type SupplierProductView = classic.infer<typeof supplierProductView>;

export const supplierProductPageView = /* @__PURE__ */ schema(() =>
  classic.object({ items: classic.array(supplierProductView), nextCursor: classic.string().nullable() }),
);
