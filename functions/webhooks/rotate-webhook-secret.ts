import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { webhookEndpointSecretView } from '../../lib/webhooks/schemas';
import { PREVIOUS_SECRET_HOURS, rotateSecret } from '../../lib/webhooks/service';

export const handler = httpHandler(routes.rotateWebhookSecret, { path: idPath }, async ({ path, principal }) =>
  ok(await rotateSecret(principal, path.id, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'The endpoint with its new signing secret in `secret`, shown this once, and until when the previous one signs too.',
    body: webhookEndpointSecretView,
  },
  errors: {
    403: 'The caller is not a tenant administrator, or is an API key.',
    404: "No such webhook endpoint in the caller's tenant.",
    409: 'The secret was rotated or the endpoint deleted meanwhile.',
  },
  access: 'tenant administrator',
  description: `Gives an endpoint a new signing secret (tenant administrators), answered once. The secret it replaces signs too for ${PREVIOUS_SECRET_HOURS} hours more (each delivery carries both signatures), so the receiver can move over; a secret from before that stops now. At most 30 endpoint changes per hour per administrator.`,
  notes: `tenant administrators; new \`secret\` shown once; the previous one signs ${PREVIOUS_SECRET_HOURS} h more; 409 on a concurrent rotation`,
  example: { path: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' } },
});
