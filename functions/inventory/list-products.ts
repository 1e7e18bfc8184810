import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productListView } from '../../lib/inventory/schemas';
import { listProducts } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listProducts, {}, async ({ principal }) => ok(await listProducts(principal)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "The tenant's products, by SKU.", body: productListView },
  notes: 'by SKU',
});
