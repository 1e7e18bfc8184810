import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { pageReply } from '../../lib/http/pages';
import { listPageQuery } from '../../lib/pages';
import { tenantListView } from '../../lib/tenants/schemas';
import * as routes from '../../lib/routes';
import { listTenants } from '../../lib/tenants/service';

export const handler = httpHandler(routes.listTenants, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listTenants.path, query, await listTenants(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of the tenants, by name.', body: tenantListView },
  errors: { 403: 'The caller is not a platform administrator.' },
  linkPages: true,
  access: 'platform administrator',
  description:
    "Every tenant of the platform, by name, for platform administrators only: the document formatted, the phone in E.164. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'every tenant, by name, document formatted; `limit` 1–100 (100), `cursor`; next page in `Link`',
  example: { platformAdmin: true },
});
