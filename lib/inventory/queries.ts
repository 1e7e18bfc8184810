import * as z from 'zod/mini';
import { schema } from '../domain/schema';
import { documented, uuidField } from '../domain/fields';
import { listPageQuery } from '../pages';
import { gtinField } from './schemas';
import { PRODUCT_STATUSES } from './model';

/** The longest `search` a product list takes (as the supplier list). */
export const MAX_PRODUCT_SEARCH_CHARACTERS = 100;

/** Which products a list shows: one status, or `ALL`. */
export const PRODUCT_LIST_STATUSES = [...PRODUCT_STATUSES, 'ALL'] as const;
export type ProductListStatus = (typeof PRODUCT_LIST_STATUSES)[number];

/**
 * GET /inventory/products: `limit`, `cursor`, an optional `search` over SKU, name, brand and
 * GTIN (case- and accent-insensitive substring, as the supplier search) and a `status`
 * (ACTIVE unless given); a `gtin` finds the one product that has it with one read (any status
 * unless one is given; with a `search`, only if it matches too), a page without a next one;
 * a `categoryId` keeps one category's products. Any other parameter is a 400. A cursor is
 * bound to the search, the status and the category it was given with.
 */
export const listProductsQuery = /* @__PURE__ */ schema(() =>
  z.extend(listPageQuery, {
    search: z.optional(z.string().check(z.trim(), z.maxLength(MAX_PRODUCT_SEARCH_CHARACTERS, `must be at most ${MAX_PRODUCT_SEARCH_CHARACTERS} characters`))),
    status: z.optional(z.enum(PRODUCT_LIST_STATUSES, { message: `must be one of ${PRODUCT_LIST_STATUSES.join(', ')}` })),
    gtin: z.optional(gtinField),
    categoryId: z.optional(
      documented(uuidField, {
        description: 'Only the products of this category (with `status`, of that status too).',
        examples: ['5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f'],
      }),
    ),
  }),
);
export type ListProductsInput = z.output<typeof listProductsQuery>;
