import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { coverageListView, coverageQuery } from '../../lib/inventory/schemas';
import { coveragePage } from '../../lib/inventory/dashboards';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.stockCoverage, { query: coverageQuery }, async ({ query, principal }) =>
  pageReply(routes.stockCoverage.path, query, await coveragePage(principal, query, Date.now(), routeLimit(routes.stockCoverage, 'user', 'full-reads')), {
    days: String(query.days),
  }),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of the dashboard, one item per product, shortest coverage first.', body: coverageListView },
  linkPages: true,
  description:
    "`averageDailySales` = units sold in the `days` complete business days before today / `days`; `estimatedCoverageDays` = available / average. Ordered by coverage, shortest first, products without sales last, then by SKU. `limit` 1 to 1000 (default 500); the next page is in `Link`, with the same `days`. `days` of 7, 30 and 90 are precomputed each day; any other window (or one asked before the day's precomputation) reads the whole catalog, and such reads are limited to 60 an hour per user (429 past them). Any other query parameter is a 400.",
  notes: '`days` 1 to 365, default 30; `limit` 1–1000 (500), `cursor`; next page in `Link`',
  example: { query: { days: '30' } },
});
