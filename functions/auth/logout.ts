import { messageView } from '../../lib/auth/schemas';
import { endSession } from '../../lib/auth/sessions';
import { clearedSessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.logout, {}, async ({ principal }) => {
  await endSession(principal, Date.now());
  return ok({ message: 'Logged out' }, { cookies: clearedSessionCookies() });
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The session was revoked and both cookies cleared.', body: messageView, cookies: 'cleared' },
  description:
    "Ends the current session: the session is revoked, its access token's `jti` is blacklisted until it expires, and both cookies are cleared. Other sessions of the user continue.",
  notes: 'revokes the session, blacklists the jti, clears both cookies',
});
