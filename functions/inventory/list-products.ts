import { httpHandler, ok } from '../../lib/http/handler';
import { productListView } from '../../lib/inventory/schemas';
import { listProducts } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listProducts, {
  success: { status: 200, description: "The tenant's products, by SKU.", body: productListView },
  notes: 'by SKU',
}, async ({ principal }) => ok(await listProducts(principal)));
