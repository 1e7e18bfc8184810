import { httpHandler, ok } from '../../lib/http/handler';
import { listProducts } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listProducts, {}, async ({ principal }) => ok(await listProducts(principal)));
