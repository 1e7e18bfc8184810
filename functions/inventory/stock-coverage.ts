import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { coverageListView, coverageQuery } from '../../lib/inventory/schemas';
import { coveragePage } from '../../lib/inventory/dashboards';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.stockCoverage, { query: coverageQuery }, async ({ query, principal }) =>
  pageReply(routes.stockCoverage.path, query, await coveragePage(principal, query, Date.now()), { days: String(query.days) }),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of the dashboard, one item per product, shortest coverage first.', body: coverageListView },
  linkPages: true,
  description:
    '`averageDailySales` = units sold in the `days` complete business days before today / `days`; `estimatedCoverageDays` = available / average. Ordered by coverage, shortest first, products without sales last, then by SKU. `limit` 1 to 1000 (default 500); the next page is in `Link`, with the same `days`. Any other query parameter is a 400.',
  notes: '`days` 1 to 365, default 30; `limit` 1–1000 (500), `cursor`; next page in `Link`',
  example: { query: { days: '30' } },
});
