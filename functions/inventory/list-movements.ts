import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { movementHistoryPageView, movementHistoryQuery } from '../../lib/inventory/schemas';
import { listMovementHistory } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listMovements, { query: movementHistoryQuery }, async ({ query, principal }) =>
  ok(await listMovementHistory(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'A page of movements, newest first, each with the balance of its product in its warehouse right after it.',
    body: movementHistoryPageView,
  },
  description:
    "Filters combine: `productId`, `warehouseId`, `type`, and `from`/`to` (inclusive; a day `YYYY-MM-DD` is the whole business day in the business time zone, America/Sao_Paulo by default; or give an ISO 8601 date-time). `limit` is 1 to 100 (default 50). `nextCursor` is null on the last page; pass it as `cursor` with the same filters for the next one. A cursor is bound to the tenant and the filters: an edited one, another tenant's, or one used with other filters is a 400. Unknown product or warehouse ids give an empty page. Any other query parameter is a 400.",
  notes:
    '`productId`, `warehouseId`, `type`, `from`/`to` (day or date-time), `limit` 1–100 (50), `cursor`; `{ items, nextCursor }` newest first, each with `balance`',
  example: { query: { productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b', type: 'SALE', from: '2026-11-01', to: '2026-11-30', limit: '20' } },
});
