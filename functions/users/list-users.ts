import { tenantUserListView } from '../../lib/auth/schemas';
import { listUsers } from '../../lib/auth/users';
import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { listPageQuery } from '../../lib/pages';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listUsers, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listUsers.path, query, await listUsers(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's users, by name.", body: tenantUserListView },
  errors: { 403: 'The caller is not a tenant administrator.' },
  linkPages: true,
  access: 'tenant administrator',
  description:
    "The users of the caller's tenant, by name, with their roles, for tenant administrators. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'tenant administrators; by name; `limit` 1–100 (100), `cursor`; next page in `Link`',
});
