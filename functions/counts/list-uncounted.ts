import { uncountedPageView, uncountedQuery } from '../../lib/counts/schemas';
import { listUncounted } from '../../lib/counts/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listUncounted, { path: idPath, query: uncountedQuery }, async ({ path, query, principal }) =>
  ok(await listUncounted(principal, path.id, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of the products in scope without a line, with their quantity in the warehouse.', body: uncountedPageView },
  errors: { 404: "No such count in the caller's tenant." },
  description:
    'The products in the count\'s scope that nobody counted yet, by product id, each with its quantity in the warehouse now: of a count of products, those named; of a count of the warehouse, those with stock there. A page reads `limit` products of the scope and leaves out the counted ones, so it may hold fewer than `limit` (even none) while `nextCursor` is not null. The close\'s `uncounted: "zero"` counts these as 0.',
  notes: '`limit` 1–500 (100), `cursor`; `{ items, nextCursor }` by product id',
  example: { path: { id: '7d2e0b6a-4f3c-4e5d-9a0b-1c2d3e4f5a6b' } },
});
