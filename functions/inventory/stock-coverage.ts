import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { coverageListView, coverageQuery } from '../../lib/inventory/schemas';
import { coverageFiguresHeaders, coveragePage } from '../../lib/inventory/dashboards';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.stockCoverage, { query: coverageQuery }, async ({ query, principal }) => {
  const page = await coveragePage(principal, query, Date.now(), routeLimit(routes.stockCoverage, 'user', 'full-reads'));
  const reply = pageReply(routes.stockCoverage.path, query, page, { days: String(query.days) });
  return { ...reply, headers: { ...reply.headers, ...coverageFiguresHeaders(page) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of the dashboard, one item per product, shortest coverage first.', body: coverageListView },
  linkPages: true,
  responseHeaders: {
    'Coverage-Figures-Date': {
      description:
        'The business day (YYYY-MM-DD) whose figures the page shows: `averageDailySales` counts the `days` complete days before it. Today, unless `Coverage-Stale` is `true`.',
      schema: { type: 'string', format: 'date' },
    },
    'Coverage-Stale': {
      description:
        "`true` when the day's precomputation has not completed yet (it failed, or has not run): the page comes from the last one completed, whose day `Coverage-Figures-Date` gives. Available quantities are always current.",
      schema: { type: 'string', enum: ['true', 'false'] },
    },
  },
  description:
    "`averageDailySales` = units sold in the `days` complete business days before today / `days`; `estimatedCoverageDays` = available / average. Ordered by coverage, shortest first, products without sales last, then by SKU. `limit` 1 to 1000 (default 500); the next page is in `Link`, with the same `days`. `days` of 7, 30 and 90 are precomputed each day; until the day's precomputation completes, those pages show the last one completed, with `Coverage-Stale: true` and its day in `Coverage-Figures-Date` (available quantities stay current). Any other window, or one never precomputed, reads the whole catalog, and such reads are limited to 60 an hour per user (429 past them). Any other query parameter is a 400.",
  notes: '`days` 1 to 365, default 30; `limit` 1–1000 (500), `cursor`; next page in `Link`; `Coverage-Stale` and `Coverage-Figures-Date` headers',
  example: { query: { days: '30' } },
});
