import * as z from 'zod';
import { listPageQuery } from '../pages';

/** The longest `search` a product list takes (as the supplier list). */
export const MAX_PRODUCT_SEARCH_CHARACTERS = 100;

/**
 * GET /inventory/products: `limit`, `cursor` and an optional `search` over SKU and name
 * (case- and accent-insensitive substring, as the supplier search); any other parameter is
 * a 400. A cursor is bound to the search it was given with.
 */
export const listProductsQuery = listPageQuery.extend({
  search: z.string().trim().max(MAX_PRODUCT_SEARCH_CHARACTERS, `must be at most ${MAX_PRODUCT_SEARCH_CHARACTERS} characters`).optional(),
});
export type ListProductsInput = z.output<typeof listProductsQuery>;
