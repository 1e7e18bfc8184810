import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { tenantView, updateTenantBody } from '../../lib/tenants/schemas';
import { updateTenant } from '../../lib/tenants/service';

export const handler = httpHandler(routes.updateTenant, { path: idPath, body: updateTenantBody }, async ({ path, body, principal }) =>
  ok(await updateTenant(principal, path.id, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The tenant as updated.', body: tenantView },
  errors: {
    403: 'A member (not administrator) of the tenant, or `adminEmail` from anyone but a platform administrator.',
    404: 'No such tenant, or another tenant (to a tenant administrator).',
    409: '`adminEmail` for a tenant that already has its administrator.',
    503: 'The invitation e-mail could not be sent: the invitation was taken back, try again.',
  },
  description:
    "By a platform administrator, or an administrator of that tenant. `adminEmail` (platform administrators only) invites the tenant's administrator: for a tenant signed up without one, or whose invitation was lost; the address gets an invitation e-mail whose link opens the account through POST /auth/register. `stockLowThresholdDays` (more than 0, at most 365, 2 decimals): below how many days of coverage a stock movement publishes `product.stock_low`; null turns it off (the default).",
  access: 'tenant or platform administrator',
  notes:
    'brandName, document, address, phone, logoUrl, mfaPolicy, stockLowThresholdDays; `null` clears; `adminEmail` invites the administrator (platform administrators)',
  example: { path: { id: '6f1c2a0e-3b7d-4e5f-9a8b-1c2d3e4f5a6b' }, body: { brandName: 'Loja da Ana Centro', phone: '+55 11 98765-4321' } },
});
