import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { listPurchaseOrdersQuery, purchaseOrderPageView } from '../../lib/purchase-orders/schemas';
import { listPurchaseOrders } from '../../lib/purchase-orders/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listPurchaseOrders, { query: listPurchaseOrdersQuery }, async ({ query, principal }) =>
  ok(await listPurchaseOrders(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of orders, newest first.', body: purchaseOrderPageView },
  errors: { 400: 'A filter breaks its rule, `to` before `from`, a limit outside 1–100, or a cursor not from this list.' },
  description:
    "The tenant's purchase orders, newest first by creation, of a `status`, a `supplierId` and/or a `companyId`, created within `from`/`to` (a day or a date-time). One Query of the list of the most selective filter given (supplier, then company, then status); the other filters apply to that page, so a page may hold fewer than `limit` while `nextCursor` says more follow.",
  notes: '`status`, `supplierId`, `companyId`, `from`/`to`, `limit` 1–100 (50), `cursor`; `{ items, nextCursor }` newest first',
  example: { query: { status: 'SENT', limit: '50' } },
});
