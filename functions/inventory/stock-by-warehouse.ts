import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { warehouseSummaryListView } from '../../lib/inventory/schemas';
import { stockByWarehouse } from '../../lib/inventory/dashboards';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.stockByWarehouse, {}, async ({ principal }) => ok(await stockByWarehouse(principal)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'One summary per warehouse.', body: warehouseSummaryListView },
  notes: 'totals per warehouse, by name',
});
