import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { tenantView } from '../../lib/tenants/schemas';
import { readTenant } from '../../lib/tenants/service';

export const handler = httpHandler(routes.getTenant, { path: idPath }, async ({ path, principal }) => ok(await readTenant(principal, path.id)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The tenant: its profile and its settings (the second-factor policy, the stock-low threshold).', body: tenantView },
  errors: {
    403: 'The caller is a member of the tenant, not an administrator, or is an API key.',
    404: "No such tenant, or another tenant than the caller's (a platform administrator reads any).",
  },
  access: 'tenant or platform administrator',
  description:
    "The tenant as PATCH /tenants/{id} answers it, before changing it: for an administrator of that tenant (the console's settings), or a platform administrator.",
  notes: 'the tenant view; its administrators or platform administrators',
  example: { path: { id: '9b2e41c0-5d1a-4c7e-8f3b-2a6d9e0c4b71' } },
});
