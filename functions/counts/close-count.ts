import { closeCountBody, countView } from '../../lib/counts/schemas';
import { closeCount } from '../../lib/counts/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.closeCount, { path: idPath, body: closeCountBody }, async ({ path, body, principal }) =>
  ok(await closeCount(principal, path.id, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'The count: CLOSED with its totals, or CLOSING while the rest of its lines are applied in the background (GET it to follow `applied`).',
    body: countView,
  },
  errors: {
    404: "No such count in the caller's tenant.",
    409: "The count was cancelled, it is closing or closed with the other `uncounted` rule, or the warehouse's company is BLOCKED or SUSPENDED.",
  },
  description:
    'Closes a count: each line\'s difference (counted − system at count) is applied as an ADJUSTMENT to the balance as it is now, so sales recorded after a shelf was counted are kept (a balance never goes below 0). `uncounted: "zero"` also counts every product in scope without a line as 0. The lines are applied in bounded transactions, each line once: closing again, or two closes at once, applies each difference once. A count that closes within the request answers CLOSED; a larger one answers CLOSING and ends in the background (GET it to follow `applied`). Writes one audit entry and publishes `stock_count.closed` when it ends.',
  notes: '200 CLOSED, or CLOSING while it ends in the background; closing twice applies once',
  example: { path: { id: '7d2e0b6a-4f3c-4e5d-9a0b-1c2d3e4f5a6b' }, body: { uncounted: 'ignore' } },
});
