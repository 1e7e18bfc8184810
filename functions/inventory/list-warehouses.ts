import { httpHandler, ok } from '../../lib/http/handler';
import { warehouseListView } from '../../lib/inventory/schemas';
import { listWarehouses } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listWarehouses, {
  success: { status: 200, description: "The tenant's warehouses, by name.", body: warehouseListView },
  notes: 'by name',
}, async ({ principal }) => ok(await listWarehouses(principal)));
