import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productListView } from '../../lib/inventory/schemas';
import { listProducts } from '../../lib/inventory/service';
import { pageReply } from '../../lib/http/pages';
import { listProductsQuery } from '../../lib/inventory/queries';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listProducts, { query: listProductsQuery }, async ({ query, principal }) =>
  pageReply(routes.listProducts.path, query, await listProducts(principal, query, Date.now(), routeLimit(routes.listProducts, 'user', 'searches')), {
    ...(query.search === undefined || query.search === '' ? {} : { search: query.search }),
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.categoryId === undefined ? {} : { categoryId: query.categoryId }),
  }),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's products, by SKU, optionally searched or found by GTIN.", body: productListView },
  linkPages: true,
  description:
    "The products of the caller's tenant, by SKU, each as GET /inventory/products/{id} shows it. `status` picks ACTIVE (the default), INACTIVE or ALL. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header. `search` (up to 100 characters) keeps the products whose SKU, name or brand holds it, case- and accent-insensitive, or whose GTIN holds its digits; searches are limited per user (30 a minute; 429 past them), pages without `search` are not. `categoryId` keeps one category's products (of the `status` asked), one Query of that category's list. `gtin` (a barcode, its check digit verified) finds the one product that has it, whatever its status unless `status` is given, with one read: a page of that product or of none; it takes no `search` or `cursor`. A cursor only continues the list it came from. Any other query parameter is a 400.",
  notes:
    'by SKU; `status` ACTIVE (default), INACTIVE or ALL; `limit` 1–100 (100), `cursor`, `search` (SKU, name, brand, GTIN; 30 a minute per user), `categoryId`, `gtin` (one read); next page in `Link`',
});
