import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { updateWebhookEndpointBody, webhookEndpointView } from '../../lib/webhooks/schemas';
import { updateEndpoint } from '../../lib/webhooks/service';

export const handler = httpHandler(routes.updateWebhookEndpoint, { path: idPath, body: updateWebhookEndpointBody }, async ({ path, body, principal }) =>
  ok(await updateEndpoint(principal, path.id, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The endpoint as updated.', body: webhookEndpointView },
  errors: {
    400: 'A new `url` is refused as at registration (not https, not a public address), or `events` is empty or names a type twice.',
    403: 'The caller is not a tenant administrator, or is an API key.',
    404: "No such webhook endpoint in the caller's tenant.",
    409: 'The endpoint was changed or deleted meanwhile.',
  },
  access: 'tenant administrator',
  description:
    "Changes any of an endpoint's `url`, `events`, `description` (`null` clears it) and `enabled` (at least one). A new URL passes the same checks as at registration. `enabled: false` disables it (`disabledReason` becomes `manual`); `enabled: true` enables it again, whatever disabled it, and clears `disabledReason`. At most 30 endpoint changes per hour per administrator.",
  notes: 'tenant administrators; url, events, description, enabled; re-enabling clears `disabledReason`; 409 on a concurrent change',
  example: { path: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' }, body: { enabled: true } },
});
