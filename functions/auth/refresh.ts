import { refreshSession } from '../../lib/auth/sessions';
import { REFRESH_COOKIE, sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { userEnvelopeView } from '../../lib/auth/schemas';
import * as routes from '../../lib/routes';

const ROTATION =
  'Call it when a request answers 401, then retry once. Parallel refreshes with one token have one winner; replaying a rotated token after 10 seconds revokes the session.';

export const handler = httpHandler(routes.refresh, {}, async ({ request }) => {
  const { user, tokens } = await refreshSession(request.cookies[REFRESH_COOKIE], Date.now());
  return ok({ user }, { cookies: sessionCookies(tokens) });
});

ROUTE_DOCS: describeRoute(handler, {
  refreshCookie: true,
  success: { status: 200, description: 'A new access token and a rotated refresh token.', body: userEnvelopeView, cookies: 'issued' },
  errors: { 401: 'The refresh token is absent, invalid, expired, revoked or was already used.' },
  description: ROTATION,
  notes: 'rotates both tokens; 401 absent, invalid, reused',
  example: { cookie: `${REFRESH_COOKIE}=paste-a-refresh-token-here` },
});
