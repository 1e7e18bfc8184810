import { userView } from '../../lib/auth/schemas';
import { toUserView } from '../../lib/auth/sessions';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

/** The authorizer already read the user; its context answers without another round trip. */
export const handler = httpHandler(routes.me, {}, ({ principal }) =>
  Promise.resolve(ok(toUserView({ id: principal.userId, name: principal.name, email: principal.email, tenantId: principal.tenantId }))),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The current user.', body: userView },
  description:
    'The user the access cookie belongs to: id, name, e-mail and tenant. A client calls it on start to learn whether it is signed in (401: not, or the session ended).',
  notes: 'the user `{ id, name, email, tenantId }`',
});
