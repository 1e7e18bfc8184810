import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routes } from '../../lib/routes';
import { tenantView, updateTenantBody } from '../../lib/tenants/schemas';
import { updateTenant } from '../../lib/tenants/service';

export const handler = httpHandler(routes.updateTenant, { path: idPath, body: updateTenantBody }, async ({ path, body, principal }) => ok(await updateTenant(principal, path.id, body, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The tenant as updated.', body: tenantView },
  errors: { 403: 'A member (not administrator) of the tenant.', 404: 'No such tenant, or another tenant (to a tenant administrator).' },
  description: 'By a platform administrator, or an administrator of that tenant.',
  access: 'tenant or platform administrator',
  notes: 'brandName, document, address, phone, logoUrl; `null` clears',
  example: { path: { id: '6f1c2a0e-3b7d-4e5f-9a8b-1c2d3e4f5a6b' }, body: { brandName: 'Loja da Ana Centro', phone: '+55 11 98765-4321' } },
});
