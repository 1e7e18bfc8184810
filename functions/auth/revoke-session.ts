import { messageView } from '../../lib/auth/schemas';
import { revokeOwnSession } from '../../lib/auth/sessions';
import { idPath } from '../../lib/domain/fields';
import { clearedSessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

const revoked = 'The session was revoked; revoking the session in use also clears its cookies.';

export const handler = httpHandler(routes.revokeSession, { path: idPath }, async ({ path, principal, idempotency }) => {
  const answer = await revokeOwnSession(principal, path.id, Date.now(), idempotency);
  // Revoking the session in use is a logout: its cookies go too.
  const current = path.id === principal.sessionId;
  return ok(answer, current ? { cookies: clearedSessionCookies() } : {});
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: revoked, body: messageView, cookies: 'cleared-if-current' },
  errors: { 404: "Not one of the caller's live sessions." },
  description:
    "Ends one of the caller's own live sessions, by id (from GET /auth/sessions). Revoking the session in use also clears the cookies. Shares the session routes' limit of 10 requests per minute per user.",
  notes: "404 unless one of the caller's live sessions; 10 per minute per user",
  example: { path: { id: '9d8c7b6a-5f4e-4d3c-9b2a-1f0e9d8c7b6a' } },
});
