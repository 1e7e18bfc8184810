import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { retryWebhookDelivery } from '../../lib/webhooks/deliveries-service';
import { deliveryIdPath, deliveryView } from '../../lib/webhooks/delivery-schemas';
import { storeDeliveryDeps } from '../../lib/webhooks/deps';

const deps = storeDeliveryDeps();

export const handler = httpHandler(routes.retryWebhookDelivery, { path: deliveryIdPath }, async ({ path, principal }) =>
  ok(await retryWebhookDelivery(principal, path.id, deps)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'The delivery with the new attempt: its status code (null when no answer came), latency and the first 1 KB of the answer, and what follows.',
    body: deliveryView,
  },
  errors: {
    400: '`id` is not a delivery id (40 letters and digits, as the delivery log lists them).',
    403: 'The caller is not a tenant administrator, or is an API key.',
    404: "No such delivery in the caller's tenant (deliveries are kept 30 days), or its endpoint was deleted.",
    409: 'The endpoint is disabled (enable it first), or another attempt of the delivery is under way.',
  },
  access: 'tenant administrator',
  description:
    "Sends a delivery again now, whatever its state (a failed one, a succeeded one to replay it, a pending one without waiting), with the same `webhook-id`, and answers the delivery with the new attempt. A pending delivery keeps its schedule if this attempt fails; a finished one has failed again and is not retried. The endpoint's 410 disables it, as on any delivery. At most 60 tests and retries per hour per administrator.",
  notes: 'tenant administrators; one attempt now, same `webhook-id`; 409 while the endpoint is disabled; 60 per hour',
  example: { path: { id: '3jErfXoDKceufJLr1nth1h0Vc5H6cG47wNnaltWr' } },
});
