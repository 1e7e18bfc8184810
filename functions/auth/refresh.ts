import { refreshSession } from '../../lib/auth/sessions';
import { REFRESH_COOKIE, sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.refresh, {}, async ({ request }) => {
  const { user, tokens } = await refreshSession(request.cookies[REFRESH_COOKIE], Date.now());
  return ok({ user }, { cookies: sessionCookies(tokens) });
});
