import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { warehouseSummaryListView } from '../../lib/inventory/schemas';
import { stockByWarehouse } from '../../lib/inventory/dashboards';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.stockByWarehouse, {}, async ({ principal }) => ok(await stockByWarehouse(principal)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'One summary per warehouse.', body: warehouseSummaryListView },
  description:
    "Stock totals per warehouse of the caller's tenant, by warehouse name: units on hand (2 decimals), products with stock, and the stock's value at average cost. A warehouse without stock shows zeros.",
  notes: 'totals per warehouse, by name',
});
