import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { closeTenant } from '../../lib/tenants/offboarding';
import { tenantClosureView } from '../../lib/tenants/schemas';

export const handler = httpHandler(routes.closeTenant, { path: idPath }, async ({ path, principal }) => ok(await closeTenant(principal, path.id, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'The tenant is closed: its users, sessions and API keys are refused from now on, and its deletion is due at `deletionDueAt`.',
    body: tenantClosureView,
  },
  errors: {
    403: 'The caller is not a platform administrator.',
    404: 'No such tenant.',
    409: "The platform's own tenant, a tenant already closed or being deleted, or a tenant that changed meanwhile.",
  },
  access: 'platform administrator',
  description:
    "Closes a tenant: its status becomes `CLOSED`, which refuses sign-in at once (login, refresh, the second factor, every session's next request and every API key answer 401), and its deletion is scheduled `TENANT_DELETION_GRACE_DAYS` (30 unless set) later. Until the deletion starts, POST /tenants/{id}/reopen undoes it; then every item of the tenant is deleted and the count before and after recorded in the platform's trail (docs/api.md, \"Closing a tenant\"). Recorded as `tenant.closed` in the platform's trail.",
  notes: 'platform administrators; sign-in refused at once; deletion due after the grace period (30 days); 409 for the platform tenant or one already closed',
  example: { path: { id: '9b2e41c0-5d1a-4c7e-8f3b-2a6d9e0c4b71' }, platformAdmin: true },
});
