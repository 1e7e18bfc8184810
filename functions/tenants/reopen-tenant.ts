import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { reopenTenant } from '../../lib/tenants/offboarding';
import { tenantClosureView } from '../../lib/tenants/schemas';

export const handler = httpHandler(routes.reopenTenant, { path: idPath }, async ({ path, principal }) =>
  ok(await reopenTenant(principal, path.id, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description:
      'The tenant is active again: its users sign in as before (the sessions of before the close stay valid until they expire), and no deletion is scheduled.',
    body: tenantClosureView,
  },
  errors: {
    403: 'The caller is not a platform administrator.',
    404: 'No such tenant.',
    409: 'The tenant is not closed, or its deletion has started.',
  },
  access: 'platform administrator',
  description:
    "Undoes POST /tenants/{id}/close while the deletion has not started: the tenant is `ACTIVE` again and its deletion unscheduled. Recorded as `tenant.reopened` in the platform's trail.",
  notes: 'platform administrators; 409 once the deletion started',
  example: { path: { id: '9b2e41c0-5d1a-4c7e-8f3b-2a6d9e0c4b71' }, platformAdmin: true },
});
