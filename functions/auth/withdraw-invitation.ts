import { withdrawInvitation } from '../../lib/auth/invitations';
import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.withdrawInvitation, { path: idPath }, async ({ path, principal }) => {
  await withdrawInvitation(principal, path.id, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The invitation was withdrawn: its link can no longer register anyone.' },
  errors: {
    403: 'The caller is not a tenant administrator.',
    404: "No such pending invitation in the caller's tenant (unknown, expired, used or already withdrawn).",
  },
  access: 'tenant administrator',
  description:
    "Withdraws a pending invitation of the caller's tenant (tenant administrators): its link stops working. An invitation that is no longer pending (expired, used or withdrawn) is a 404.",
  notes: 'tenant administrators; 204; the link stops working; 404 when not pending',
  example: { path: { id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f' } },
});
