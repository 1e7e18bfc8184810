import { httpHandler, ok } from '../../lib/http/handler';
import { tenantListView } from '../../lib/tenants/schemas';
import { routes } from '../../lib/routes';
import { listTenants } from '../../lib/tenants/service';

export const handler = httpHandler(routes.listTenants, {
  success: { status: 200, description: 'Every tenant, by name.', body: tenantListView },
  errors: { 403: 'The caller is not a platform administrator.' },
  access: 'platform administrator',
  notes: 'every tenant, by name, document formatted',
  example: { platformAdmin: true },
}, async ({ principal }) => ok(await listTenants(principal)));
