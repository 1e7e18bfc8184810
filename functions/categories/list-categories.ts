import { categoryListView } from '../../lib/categories/schemas';
import { listCategories } from '../../lib/categories/service';
import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { listPageQuery } from '../../lib/pages';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listCategories, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listCategories.path, query, await listCategories(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's categories, by name.", body: categoryListView },
  linkPages: true,
  description:
    "The product categories of the caller's tenant, by name (case- and accent-insensitive), each with the count of its products. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'by name, with `productCount`; `limit` 1–100 (100), `cursor`; next page in `Link`',
});
