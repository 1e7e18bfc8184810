import * as z from 'zod';
import { integerParam } from '../domain/fields';

/**
 * GET /suppliers' query, apart from the body schemas (./schemas): those validate phones with
 * libphonenumber's full metadata (190 KB bundled), which a list never needs.
 */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_SEARCH_CHARACTERS = 100;

/** GET /suppliers (contract section 5); any other parameter is a 400. */
export const listSuppliersQuery = z.strictObject({
  page: integerParam(1, Number.MAX_SAFE_INTEGER, 'must be an integer of at least 1').default(1),
  limit: integerParam(1, MAX_PAGE_SIZE, `must be an integer from 1 to ${MAX_PAGE_SIZE}`).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(MAX_SEARCH_CHARACTERS, `must be at most ${MAX_SEARCH_CHARACTERS} characters`).optional(),
});
export type ListSuppliersInput = z.output<typeof listSuppliersQuery>;
