import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { tenantListView } from '../../lib/tenants/schemas';
import { routes } from '../../lib/routes';
import { listTenants } from '../../lib/tenants/service';

export const handler = httpHandler(routes.listTenants, {}, async ({ principal }) => ok(await listTenants(principal)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'Every tenant, by name.', body: tenantListView },
  errors: { 403: 'The caller is not a platform administrator.' },
  access: 'platform administrator',
  notes: 'every tenant, by name, document formatted',
  example: { platformAdmin: true },
});
