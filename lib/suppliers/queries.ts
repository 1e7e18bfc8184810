import * as z from 'zod/mini';
import { queryInteger } from '../domain/fields';
import { schema } from '../domain/schema';

/**
 * GET /suppliers' query, apart from the body schemas (./schemas): those validate phones with
 * libphonenumber, which a list never needs.
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_SEARCH_CHARACTERS = 100;

/** GET /suppliers (docs/api.md, "Request conventions"); any other parameter is a 400. */
export const listSuppliersQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    page: z._default(queryInteger(1, Number.MAX_SAFE_INTEGER, 'must be an integer of at least 1'), 1),
    limit: z._default(queryInteger(1, MAX_PAGE_SIZE, `must be an integer from 1 to ${MAX_PAGE_SIZE}`), DEFAULT_PAGE_SIZE),
    search: z.optional(z.string().check(z.trim(), z.maxLength(MAX_SEARCH_CHARACTERS, `must be at most ${MAX_SEARCH_CHARACTERS} characters`))),
  }),
);
export type ListSuppliersInput = z.output<typeof listSuppliersQuery>;
