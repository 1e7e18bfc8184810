import { apiKeyIdPath } from '../../lib/api-keys/schemas';
import { revokeApiKey } from '../../lib/api-keys/service';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.deleteApiKey, { path: apiKeyIdPath }, async ({ path, principal }) => {
  await revokeApiKey(principal, path.id, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The key was revoked: the next request with it, or with a secret a roll replaced, gets 401.' },
  errors: {
    403: 'The caller is not a tenant administrator.',
    404: "No such API key in the caller's tenant.",
  },
  access: 'tenant administrator',
  description:
    "Revokes an API key of the caller's tenant (tenant administrators), at once: the authorizer reads the key on every request, so the next one is refused. At most 20 key changes per hour per administrator.",
  notes: 'tenant administrators; 204; refused from the next request on',
  example: { path: { id: '3FqjGk6uVtJ2W8yH1bN5xZ0AbCdEfG' } },
});
