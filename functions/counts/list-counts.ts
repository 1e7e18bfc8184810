import { countPageView, listCountsQuery } from '../../lib/counts/schemas';
import { listCounts } from '../../lib/counts/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listCounts, { query: listCountsQuery }, async ({ query, principal }) => ok(await listCounts(principal, query)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of counts, newest first.', body: countPageView },
  description:
    "The tenant's stock counts, newest first: every one, a warehouse's (`warehouseId`), or of one `status` (OPEN and CLOSING read the short list of active counts). A page may hold fewer than `limit` counts when a status is asked of the long lists; `nextCursor` is null on the last page, else pass it as `cursor` with the same filters.",
  notes: '`status`, `warehouseId`, `limit` 1–100 (50), `cursor`; `{ items, nextCursor }` newest first',
  example: { query: { status: 'OPEN' } },
});
