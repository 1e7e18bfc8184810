import { listActiveSessions } from '../../lib/auth/sessions';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { sessionListView } from '../../lib/auth/schemas';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listSessions, {}, async ({ principal }) => ok(await listActiveSessions(principal, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "The caller's live sessions in the caller's tenant.", body: sessionListView },
  description:
    "The caller's live sessions (one per login or registration, kept alive by refresh), newest first, with the one in use marked. Shares the session routes' limit of 10 requests per minute per user.",
  notes: "the caller's active sessions, newest first; 10 per minute per user",
});
