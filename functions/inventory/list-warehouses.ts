import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { warehouseListView } from '../../lib/inventory/schemas';
import { listWarehouses } from '../../lib/inventory/service';
import { pageReply } from '../../lib/http/pages';
import { listPageQuery } from '../../lib/pages';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listWarehouses, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listWarehouses.path, query, await listWarehouses(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's warehouses, by name.", body: warehouseListView },
  linkPages: true,
  description: "The warehouses of the caller's tenant, by name. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'by name; `limit` 1–100 (100), `cursor`; next page in `Link`',
});
