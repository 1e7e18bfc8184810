import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { suggestionPageView, suggestionsQuery } from '../../lib/purchasing/schemas';
import { listSuggestions } from '../../lib/purchasing/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listSuggestions, { query: suggestionsQuery }, async ({ query, principal }) =>
  ok(await listSuggestions(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of suggestions by SKU, with the day the sales averages count through.', body: suggestionPageView },
  errors: {
    400: 'A filter breaks its rule, `days` not 7, 30 or 90, or a cursor not from this list.',
    404: "No such supplier or warehouse in the caller's tenant.",
  },
  description:
    "The products of a supplier (or each product's preferred supplier) whose available + on-order quantity falls short of the average daily sales × (the supplier's lead time + safety days), or below its reorder point, with the quantity to buy: targetDays × average − available − on order, raised to the supplier's minimum and rounded up to whole packs; and the numbers that led to it. The averages are the coverage roll-up's of `days` (7, 30 or 90); the stock is the warehouse's, or every warehouse's. Sorted by SKU, pages of `limit` with `nextCursor`.",
  notes: '`supplierId`, `warehouseId`, `days` (7, 30, 90), `limit` 1–100 (50), `cursor`; `{ items, salesThrough, nextCursor }`',
  example: { query: { supplierId: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f', days: '30' } },
});
