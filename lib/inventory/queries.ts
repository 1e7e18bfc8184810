import * as z from 'zod/mini';
import { schema } from '../domain/schema';
import { listPageQuery } from '../pages';

/** The longest `search` a product list takes (as the supplier list). */
export const MAX_PRODUCT_SEARCH_CHARACTERS = 100;

/**
 * GET /inventory/products: `limit`, `cursor` and an optional `search` over SKU and name
 * (case- and accent-insensitive substring, as the supplier search); any other parameter is
 * a 400. A cursor is bound to the search it was given with.
 */
export const listProductsQuery = /* @__PURE__ */ schema(() =>
  z.extend(listPageQuery, {
    search: z.optional(z.string().check(z.trim(), z.maxLength(MAX_PRODUCT_SEARCH_CHARACTERS, `must be at most ${MAX_PRODUCT_SEARCH_CHARACTERS} characters`))),
  }),
);
export type ListProductsInput = z.output<typeof listProductsQuery>;
