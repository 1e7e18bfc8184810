import { countLineBody, countLinePath, countLineView } from '../../lib/counts/schemas';
import { setLine } from '../../lib/counts/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.setCountLine, { path: countLinePath, body: countLineBody }, async ({ path, body, principal }) =>
  ok(await setLine(principal, path.id, path.productId, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The line.', body: countLineView },
  errors: {
    400: 'A counted quantity that is negative, or a fraction of a product counted in whole units.',
    404: "No such count or product in the caller's tenant.",
    409: 'The count is not OPEN, the product is not one of a count of products, or the count has 5,000 lines.',
  },
  description:
    "Sets what was counted of a product in an OPEN count. The line records the system's quantity in the warehouse at this moment (the balance the write is conditioned on), so the close applies only the difference seen now: sales recorded after this are kept. Setting it again counts the shelf again (both quantities taken anew). Its difference is valued at the balance's average cost, or its last cost when the warehouse's company values stock at REPLACEMENT.",
  notes: '200 the line with `systemAtCount` and its difference; 409 count not OPEN',
  example: { path: { id: '7d2e0b6a-4f3c-4e5d-9a0b-1c2d3e4f5a6b', productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' }, body: { counted: 12 } },
});
