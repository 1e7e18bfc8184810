import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { createTenantBody, tenantCreatedView } from '../../lib/tenants/schemas';
import { createTenant } from '../../lib/tenants/service';

export const handler = httpHandler(routes.createTenant, { body: createTenantBody }, async ({ body }) => created(await createTenant(body, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 201,
    description: "The tenant was created; with `adminEmail`, its administrator's invitation was mailed to that address.",
    body: tenantCreatedView,
  },
  errors: {
    400: 'The body is invalid, or the request carries an `Idempotency-Key` (a public route does not take one).',
    409: 'A tenant with this name already exists, or the name is reserved (`platform`, `admin`, `www`, ...).',
    503: 'The invitation e-mail could not be sent: nothing was kept, try again.',
  },
  description:
    "Public sign-up. `name` is a slug, unique across the service, and not one of the reserved names. With `adminEmail`, that address gets an invitation e-mail whose link (`invitationToken`) opens the tenant's administrator account through POST /auth/register: every account proves its mailbox. Without it, the tenant has no account until a platform administrator sets one with PATCH /tenants/{id}.",
  notes: '201 `{ id, name, brandName, plan }`, the administrator invited by e-mail; 409 name taken; 10 per hour per IP',
  example: { body: { name: 'loja-da-ana', plan: 'STARTER', brandName: 'Loja da Ana', document: '11222333000181', adminEmail: 'ana@example.com' } },
});
