import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { idPath } from '../../lib/domain/fields';
import { deliveriesQuery, deliveryListView } from '../../lib/webhooks/delivery-schemas';
import { listWebhookDeliveries } from '../../lib/webhooks/deliveries-service';

export const handler = httpHandler(routes.listWebhookDeliveries, { path: idPath, query: deliveriesQuery }, async ({ path, query, principal }) =>
  pageReply(routes.listWebhookDeliveries.path.replace('{id}', path.id), query, await listWebhookDeliveries(principal, path.id, query), {
    ...(query.status ? { status: query.status } : {}),
    ...(query.eventType ? { eventType: query.eventType } : {}),
  }),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the endpoint's deliveries, newest first, each with its attempts.", body: deliveryListView },
  errors: { 403: 'The caller is not a tenant administrator.', 404: "No such webhook endpoint in the caller's tenant." },
  linkPages: true,
  access: 'tenant administrator',
  description:
    "The deliveries of one webhook endpoint of the last 30 days, newest first (tenant administrators): the event delivered, whether it is pending, succeeded or failed, each attempt's time, status code (null when no answer came), latency and the first 1 KB of the answer, and when the next attempt is due. `status` and `eventType` filter; with a filter a page may hold fewer than `limit` deliveries and still have a next one. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'tenant administrators; newest first; `status`, `eventType`, `limit` 1–100 (100), `cursor`; next page in `Link`; 30 days',
  example: { path: { id: '3f2b8c1e-7a4d-4e6f-9b0c-1d2e3f4a5b6c' }, query: { status: 'failed' } },
});
