import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { listTransfersQuery, transferPageView } from '../../lib/transfers/schemas';
import { listTransfers } from '../../lib/transfers/service';

export const handler = httpHandler(routes.listTransfers, { query: listTransfersQuery }, async ({ query, principal }) =>
  ok(await listTransfers(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of transfers, newest first.', body: transferPageView },
  description:
    "The tenant's transfers between warehouses, newest first. Filters combine: `productId`, `warehouseId` (out of it or into it), and `from`/`to` (inclusive; a day `YYYY-MM-DD` is the whole business day, or an ISO 8601 date-time). `limit` is 1 to 100 (default 50); `nextCursor` is null on the last page, else pass it as `cursor` with the same filters. Each is one Query. Any other query parameter is a 400.",
  notes: '`productId`, `warehouseId` (either side), `from`/`to`, `limit` 1–100 (50), `cursor`; `{ items, nextCursor }` newest first',
  example: { query: { productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b', from: '2026-11-01', limit: '20' } },
});
