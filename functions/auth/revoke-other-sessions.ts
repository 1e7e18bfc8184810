import { revokedSessionsView } from '../../lib/auth/schemas';
import { revokeOtherSessions } from '../../lib/auth/sessions';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.revokeOtherSessions, {}, async ({ principal }) => ok(await revokeOtherSessions(principal, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'Every other live session of the caller is ended (each answers 401 from its next request); the current one continues.',
    body: revokedSessionsView,
  },
  description:
    'Ends every live session of the caller except the one in use ("sign out everywhere else"); `revoked` says how many. Limited to 10 requests per minute per user, counted apart from the other session routes.',
  notes: 'ends every session but the current one; `revoked` counts them; 10 per minute per user',
});
