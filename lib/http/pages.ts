import { config } from '../config';
import type { Page, PageRequest } from '../pages';
import type { Reply } from './handler';

/**
 * The `Link` header of a page with a next one: an absolute-path reference (the stage prefix
 * included), so it works behind the execute-api URL and a custom domain alike.
 */
export function nextPageLink(path: string, limit: number, nextCursor: string | null): Record<string, string> {
  if (nextCursor === null) return {};
  const query = new URLSearchParams({ limit: String(limit), cursor: nextCursor });
  return { Link: `<${config().PATH_PREFIX}${path}?${query.toString()}>; rel="next"` };
}

/** The answer of a list route: the page's items as the array body, the next page in `Link`. */
export function pageReply<T>(path: string, request: PageRequest, page: Page<T>): Reply {
  return { status: 200, body: page.items, headers: nextPageLink(path, request.limit, page.nextCursor) };
}
