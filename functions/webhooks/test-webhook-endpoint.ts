import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { sendTestEvent } from '../../lib/webhooks/deliveries-service';
import { deliveryView } from '../../lib/webhooks/delivery-schemas';
import { storeDeliveryDeps } from '../../lib/webhooks/deps';

const deps = storeDeliveryDeps();

export const handler = httpHandler(routes.testWebhookEndpoint, { path: idPath }, async ({ path, principal }) =>
  ok(await sendTestEvent(principal, path.id, deps)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: "The `ping` delivery with its one attempt: the endpoint's status code (null when no answer came), latency and the first 1 KB of its answer.",
    body: deliveryView,
  },
  errors: {
    403: 'The caller is not a tenant administrator, or is an API key.',
    404: "No such webhook endpoint in the caller's tenant.",
  },
  access: 'tenant administrator',
  description:
    'Sends a `ping` event (`{"type":"ping","timestamp":…,"data":{"id":<endpoint id>,"tenantId":…}}`), signed like every delivery, to the endpoint now, enabled or disabled, and answers what came back. One attempt, checked against the SSRF guard first, with the 10-second timeout: never retried, recorded in the endpoint\'s delivery log, and no effect on the endpoint (a 410 does not disable it). At most 60 tests and retries per hour per administrator.',
  notes: 'tenant administrators; one signed `ping` now, its answer in the reply and the log; never retried; 60 per hour',
  example: { path: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' } },
});
