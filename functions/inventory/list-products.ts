import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productListView } from '../../lib/inventory/schemas';
import { listProducts } from '../../lib/inventory/service';
import { pageReply } from '../../lib/http/pages';
import { listProductsQuery } from '../../lib/inventory/queries';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listProducts, { query: listProductsQuery }, async ({ query, principal }) =>
  pageReply(
    routes.listProducts.path,
    query,
    await listProducts(principal, query, Date.now(), routeLimit(routes.listProducts, 'user', 'searches')),
    query.search === undefined || query.search === '' ? {} : { search: query.search },
  ),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's products, by SKU, optionally searched.", body: productListView },
  linkPages: true,
  description:
    "The products of the caller's tenant, by SKU. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header. `search` (up to 100 characters) keeps the products whose SKU or name holds it, case- and accent-insensitive; searches are limited per user (30 a minute; 429 past them), pages without `search` are not. A cursor only continues the search it came from. Any other query parameter is a 400.",
  notes: 'by SKU; `limit` 1–100 (100), `cursor`, `search` (up to 100 characters; 30 searches a minute per user); next page in `Link`',
});
