import { removeUser } from '../../lib/auth/users';
import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.deleteUser, { path: idPath }, async ({ path, principal }) => {
  await removeUser(principal, path.id, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The user was removed: every session of it answers 401 from its next request, and its e-mail can be invited again.' },
  errors: {
    403: 'The caller is not a tenant administrator.',
    404: "No such user in the caller's tenant, or it was already removed.",
    409: 'The user is the last administrator of the tenant.',
  },
  access: 'tenant administrator',
  description:
    "Removes a user from the caller's tenant (tenant administrators): its sessions end at their next request and its e-mail can be invited again. The tenant's last administrator cannot be removed (409).",
  notes: 'tenant administrators; 204; its sessions get 401; 409 for the last administrator',
  example: { path: { id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e' } },
});
