import { created, httpHandler } from '../../lib/http/handler';
import { routes } from '../../lib/routes';
import { createTenantBody } from '../../lib/tenants/schemas';
import { createTenant } from '../../lib/tenants/service';

export const handler = httpHandler(routes.createTenant, { body: createTenantBody }, async ({ body }) =>
  created(await createTenant(body, Date.now())),
);
