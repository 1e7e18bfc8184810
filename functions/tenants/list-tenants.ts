import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';
import { listTenants } from '../../lib/tenants/service';

export const handler = httpHandler(routes.listTenants, {}, async ({ principal }) => ok(await listTenants(principal)));
