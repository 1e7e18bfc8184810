import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { deleteEndpoint } from '../../lib/webhooks/service';

export const handler = httpHandler(routes.deleteWebhookEndpoint, { path: idPath }, async ({ path, principal }) => {
  await deleteEndpoint(principal, path.id, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The endpoint and its secrets were deleted: nothing more is delivered to it.' },
  errors: {
    403: 'The caller is not a tenant administrator, or is an API key.',
    404: "No such webhook endpoint in the caller's tenant.",
  },
  access: 'tenant administrator',
  description:
    "Deletes a webhook endpoint of the caller's tenant and its signing secrets (tenant administrators). At most 30 endpoint changes per hour per administrator.",
  notes: 'tenant administrators; 204',
  example: { path: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' } },
});
