import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';
import { updateTenantBody } from '../../lib/tenants/schemas';
import { updateTenant } from '../../lib/tenants/service';

export const handler = httpHandler(routes.updateTenant, { path: idPath, body: updateTenantBody }, async ({ path, body, principal }) =>
  ok(await updateTenant(principal, path.id, body, Date.now())),
);
