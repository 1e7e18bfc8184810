import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routes } from '../../lib/routes';
import { createTenantBody, tenantCreatedView } from '../../lib/tenants/schemas';
import { createTenant } from '../../lib/tenants/service';

export const handler = httpHandler(routes.createTenant, { body: createTenantBody }, async ({ body, idempotency }) => created(await createTenant(body, Date.now(), idempotency)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The tenant was created.', body: tenantCreatedView },
  errors: { 409: 'A tenant with this name already exists, or the name is reserved (`platform`, `admin`, `www`, ...).' },
  description: 'Public sign-up. `name` is a slug, unique across the service, and not one of the reserved names; `adminEmail`, when given, is the only e-mail that may register the base account.',
  notes: '201 `{ id, name, brandName, plan }`; 409 name taken; 10 per hour per IP',
  example: { body: { name: 'loja-da-ana', plan: 'STARTER', brandName: 'Loja da Ana', document: '11222333000181', adminEmail: 'ana@example.com' } },
});
