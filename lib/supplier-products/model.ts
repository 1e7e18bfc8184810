import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * What a supplier sells: the link between a supplier and a product of the tenant, with the
 * supplier's own code for it (the `cProd` of its invoices, unique per supplier), its unit and
 * how many of the product's units one of its units holds (a box of 12), the last cost paid
 * (updated by every receipt from that supplier), its lead time and minimum order. A product may
 * have several suppliers; one of them may be `preferred` (the one purchase suggestions go to).
 *
 * Stored twice, in the supplier's list and in the product's (one transaction writes both), and
 * counted on each side, so neither a supplier nor a product with links can be deleted.
 */
export const supplierProductSchema = /* @__PURE__ */ schema(() =>
  z.object({
    supplierId: z.uuid(),
    productId: z.uuid(),
    /** The supplier's code for the product, as given (trimmed); unique per supplier whatever its case. */
    supplierCode: z.nullable(z.string()),
    /** The supplier's unit (`CX`, `FD`), as on its invoices; null: the product's own. */
    unit: z.nullable(z.string()),
    /** The product's units in one of the supplier's units, thousandths (12 000 = 12). */
    unitsPerPack: z.bigint(),
    /** The cost of one of the product's units at the last receipt from this supplier (or as given), 10^-4; null before any. */
    lastCost: z.nullable(z.bigint()),
    /** Days from the order to the goods, 0–365. */
    leadTimeDays: z.number().check(z.int()),
    /** The fewest of the product's units the supplier takes in one order, thousandths; null: no minimum. */
    minimumOrder: z.nullable(z.bigint()),
    preferred: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** One at creation, one more per change: the link's ETag. */
    version: z.number().check(z.int()),
  }),
);
export type SupplierProduct = z.infer<typeof supplierProductSchema>;

export const DEFAULT_LEAD_TIME_DAYS = 7;
export const MAX_LEAD_TIME_DAYS = 365;
/** NF-e's `cProd` is at most 60 characters, its `uCom` at most 6. */
export const MAX_SUPPLIER_CODE = 60;
export const MAX_SUPPLIER_UNIT = 6;

/** How a supplier code is compared: trimmed, upper case (`ab-1` and `AB-1` are one code). */
export const supplierCodeKey = (code: string): string => code.trim().toUpperCase();
