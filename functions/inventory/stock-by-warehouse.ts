import { httpHandler, ok } from '../../lib/http/handler';
import { stockByWarehouse } from '../../lib/inventory/dashboards';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.stockByWarehouse, {}, async ({ principal }) => ok(await stockByWarehouse(principal)));
