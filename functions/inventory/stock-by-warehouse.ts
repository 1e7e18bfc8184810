import { httpHandler, ok } from '../../lib/http/handler';
import { warehouseSummaryListView } from '../../lib/inventory/schemas';
import { stockByWarehouse } from '../../lib/inventory/dashboards';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.stockByWarehouse, {
  success: { status: 200, description: 'One summary per warehouse.', body: warehouseSummaryListView },
  notes: 'totals per warehouse, by name',
}, async ({ principal }) => ok(await stockByWarehouse(principal)));
