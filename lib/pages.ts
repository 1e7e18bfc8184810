import * as z from 'zod/mini';
import { cursorParam, cursorRefused, openCursor, sealCursor, type CursorScope } from './domain/cursor';
import { queryInteger } from './domain/fields';
import { cursorSecret } from './secrets';
import { schema } from './domain/schema';

/**
 * Cursor pages of the list routes: GET /tenants, /companies, /inventory/products
 * and /inventory/warehouses answer an array, as the specification says, and name the next
 * page in a `Link: <…>; rel="next"` header (RFC 8288); the stock history puts its cursor in
 * its body. A cursor is a store position sealed for the tenant and the list (lib/domain/cursor).
 *
 * The cursor key is read only when a cursor is opened or sealed: a list that fits in one
 * page (the usual case) never loads it.
 */

export const MAX_LIST_PAGE = 100;
/** The default is the maximum: a caller that never pages sees every list of up to 100 items whole. */
export const DEFAULT_LIST_PAGE = MAX_LIST_PAGE;

/** `limit` and `cursor`, for the lists whose only parameters they are. */
export const listPageQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    limit: z._default(queryInteger(1, MAX_LIST_PAGE, `must be an integer from 1 to ${MAX_LIST_PAGE}`), DEFAULT_LIST_PAGE),
    cursor: cursorParam,
  }),
);
export type PageRequest = z.output<typeof listPageQuery>;

/** A page: its items, and the cursor of the next one (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** The position a request's cursor names (400 unless it was sealed for this scope), or none on a first page. */
export async function openPageCursor(cursor: string | undefined, scope: CursorScope): Promise<Record<string, string> | undefined> {
  if (cursor === undefined) return undefined;
  const position = openCursor(cursor, scope, await cursorSecret());
  if (Object.keys(position).length === 0) throw cursorRefused();
  return position;
}

/** The next page's cursor for a position (null when there is none). */
export async function sealPageCursor(position: Record<string, string> | undefined, scope: CursorScope): Promise<string | null> {
  return position ? sealCursor(position, scope, await cursorSecret()) : null;
}

/**
 * A page of a list kept in key order: open the cursor (the last entry's sort key), read the
 * page after it, seal the next one. `read` answers the page and, when another entry
 * follows, the sort key of its last entry.
 */
export async function keyOrderedPage<T>(
  scope: CursorScope,
  request: PageRequest,
  read: (page: { limit: number; afterSk?: string }) => Promise<{ items: T[]; lastSk?: string }>,
): Promise<Page<T>> {
  const after = await openPageCursor(request.cursor, scope);
  const { items, lastSk } = await read({ limit: request.limit, ...(after?.sk === undefined ? {} : { afterSk: after.sk }) });
  return { items, nextCursor: await sealPageCursor(lastSk === undefined ? undefined : { sk: lastSk }, scope) };
}
