import { httpHandler, ok } from '../../lib/http/handler';
import { stockCoverage } from '../../lib/inventory/dashboards';
import { coverageQuery } from '../../lib/inventory/schemas';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.stockCoverage, { query: coverageQuery }, async ({ query, principal }) =>
  ok(await stockCoverage(principal, query.days, Date.now())),
);
