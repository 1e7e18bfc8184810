import { tenantUserView, updateUserBody } from '../../lib/auth/schemas';
import { changeUserRole } from '../../lib/auth/users';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.updateUser, { path: idPath, body: updateUserBody }, async ({ path, body, principal }) =>
  ok(await changeUserRole(principal, path.id, body.role, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The user with its new role (the same role is a no-op).', body: tenantUserView },
  errors: {
    403: 'The caller is not a tenant administrator.',
    404: "No such user in the caller's tenant.",
    409: 'The change would leave the tenant without an administrator.',
  },
  description: "The new role applies from the user's next request. A tenant always keeps one administrator, also when two of them demote each other at once.",
  access: 'tenant administrator',
  notes: 'tenant administrators; `role` ADMIN or MEMBER; 409 for the last administrator',
  example: { path: { id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e' }, body: { role: 'ADMIN' } },
});
