import { config } from '../config';
import type { Page, PageRequest } from '../pages';
import type { Reply } from './handler';

/**
 * The `Link` header of a page with a next one: an absolute-path reference (PATH_PREFIX
 * included, empty where the API is at its origin's root: the console's distribution, a custom
 * domain, npm start).
 */
export function nextPageLink(path: string, limit: number, nextCursor: string | null, filters: Record<string, string> = {}): Record<string, string> {
  if (nextCursor === null) return {};
  const query = new URLSearchParams({ ...filters, limit: String(limit), cursor: nextCursor });
  return { Link: `<${config().PATH_PREFIX}${path}?${query.toString()}>; rel="next"` };
}

/**
 * The answer of a list route: the page's items as the array body, the next page in `Link`
 * (with the list's own `filters`, such as coverage's `days`, which its cursor is bound to).
 */
export function pageReply<T>(path: string, request: PageRequest, page: Page<T>, filters: Record<string, string> = {}): Reply {
  return { status: 200, body: page.items, headers: nextPageLink(path, request.limit, page.nextCursor, filters) };
}
