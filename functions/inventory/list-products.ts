import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productListView } from '../../lib/inventory/schemas';
import { listProducts } from '../../lib/inventory/service';
import { pageReply } from '../../lib/http/pages';
import { listPageQuery } from '../../lib/pages';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listProducts, { query: listPageQuery }, async ({ query, principal }) => pageReply(routes.listProducts.path, query, await listProducts(principal, query)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's products, by SKU.", body: productListView },
  linkPages: true,
  description:
    "The products of the caller's tenant, by SKU. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'by SKU; `limit` 1–100 (100), `cursor`; next page in `Link`',
});
