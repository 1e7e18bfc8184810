import { listPendingInvitations } from '../../lib/auth/invitations';
import { pendingInvitationListView } from '../../lib/auth/schemas';
import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { listPageQuery } from '../../lib/pages';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listInvitations, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listInvitations.path, query, await listPendingInvitations(principal, query, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: "A page of the tenant's pending invitations (not expired, not used, not withdrawn), by e-mail.",
    body: pendingInvitationListView,
  },
  errors: { 403: 'The caller is not a tenant administrator.' },
  linkPages: true,
  access: 'tenant administrator',
  description:
    "The tenant's pending invitations (not expired, used or withdrawn), by e-mail, for tenant administrators. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'tenant administrators; pending only, by e-mail; `limit` 1–100 (100), `cursor`; next page in `Link`',
});
