import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { warehouseListView } from '../../lib/inventory/schemas';
import { listWarehouses } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listWarehouses, {}, async ({ principal }) => ok(await listWarehouses(principal)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "The tenant's warehouses, by name.", body: warehouseListView },
  notes: 'by name',
});
