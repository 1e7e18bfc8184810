import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { stockByWarehouseQuery, warehouseSummaryListView } from '../../lib/inventory/schemas';
import { stockByWarehouse } from '../../lib/inventory/dashboards';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.stockByWarehouse, { query: stockByWarehouseQuery }, async ({ principal, query }) =>
  ok(await stockByWarehouse(principal, query.companyId)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'One summary per warehouse.', body: warehouseSummaryListView },
  description:
    "Stock totals per warehouse of the caller's tenant, by warehouse name: its company, units on hand (2 decimals), products with stock, and the stock's value by its company's cost method (`costMethod`): at average cost (WEIGHTED_AVERAGE), or each balance's quantity at its last cost, the unit cost of its latest IN or ADJUSTMENT that gave one (REPLACEMENT). A warehouse without a company values at average cost. Both values are kept with every movement, so changing a company's cost method revalues its warehouses at once. `companyId` keeps one company's warehouses. A warehouse without stock shows zeros.",
  notes: "totals per warehouse, by name; `companyId` filters; value by the company's cost method",
});
