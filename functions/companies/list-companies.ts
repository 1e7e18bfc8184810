import { listCompanies } from '../../lib/companies/service';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { companyListView } from '../../lib/companies/schemas';
import { pageReply } from '../../lib/http/pages';
import { listPageQuery } from '../../lib/pages';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listCompanies, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listCompanies.path, query, await listCompanies(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the caller's tenant's companies, oldest first.", body: companyListView },
  linkPages: true,
  description:
    "The companies of the caller's tenant, oldest first, documents as stored (unformatted). Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: "the caller's tenant's companies, oldest first; `limit` 1–100 (100), `cursor`; next page in `Link`",
});
