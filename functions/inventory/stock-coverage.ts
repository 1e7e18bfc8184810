import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { coverageListView } from '../../lib/inventory/schemas';
import { stockCoverage } from '../../lib/inventory/dashboards';
import { coverageQuery } from '../../lib/inventory/schemas';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.stockCoverage, { query: coverageQuery }, async ({ query, principal }) => ok(await stockCoverage(principal, query.days, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'One item per product.', body: coverageListView },
  description:
    '`averageDailySales` = units sold in the `days` complete business days before today / `days`; `estimatedCoverageDays` = available / average. Any other query parameter is a 400.',
  notes: '`days` 1 to 365, default 30',
  example: { query: { days: '30' } },
});
