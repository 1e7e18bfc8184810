import { countDetailView, countLinesQuery } from '../../lib/counts/schemas';
import { getCount } from '../../lib/counts/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.getCount, { path: idPath, query: countLinesQuery }, async ({ path, query, principal }) =>
  ok(await getCount(principal, path.id, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The count, its totals and a page of its lines.', body: countDetailView },
  errors: { 404: "No such count in the caller's tenant." },
  description:
    "A stock count with its totals (lines, lines with a difference, the value of the surplus, of the shortage and the net, in cents at the count's cost) and a page of its lines: each with what was counted, the system's quantity at the moment it was counted, the difference and its value. `order=difference` lists the largest value of a difference first (the review); `order=product` (default) by product id. `limit` 1 to 500 (100); `nextCursor` pages the lines. The products in scope not counted yet: GET /inventory/counts/{id}/uncounted.",
  notes: '`order` product|difference, `limit` 1–500 (100), `cursor`; the count with `lines` and `nextCursor`',
  example: { path: { id: '7d2e0b6a-4f3c-4e5d-9a0b-1c2d3e4f5a6b' }, query: { order: 'difference' } },
});
