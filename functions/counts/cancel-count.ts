import { countView } from '../../lib/counts/schemas';
import { cancelCount } from '../../lib/counts/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.cancelCount, { path: idPath }, async ({ path, principal }) => ok(await cancelCount(principal, path.id, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The count, CANCELLED.', body: countView },
  errors: { 404: "No such count in the caller's tenant.", 409: 'The count is not OPEN (closing, closed or cancelled).' },
  description: 'Cancels an OPEN count: nothing is adjusted, its lines stay as they were, and its warehouse and products can be counted again.',
  notes: '200 CANCELLED; 409 not OPEN',
  example: { path: { id: '7d2e0b6a-4f3c-4e5d-9a0b-1c2d3e4f5a6b' } },
});
