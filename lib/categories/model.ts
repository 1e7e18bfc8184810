import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * A product category: a name unique in the tenant (case- and accent-insensitive) and the count
 * of the products in it, which every product write keeps in its own transaction (so a
 * category in use cannot be deleted, and `verify` re-derives the count). Flat: no parent.
 */
export const categorySchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    name: z.string(),
    /** The products whose `categoryId` is this one, whatever their status. */
    productCount: z.number().check(z.int()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** One at creation, one more per rename: the category's ETag. */
    version: z.number().check(z.int()),
  }),
);
export type Category = z.infer<typeof categorySchema>;

/** The longest name a category takes. */
export const MAX_CATEGORY_NAME = 120;
