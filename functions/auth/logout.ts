import { endSession } from '../../lib/auth/sessions';
import { clearedSessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.logout, {}, async ({ principal }) => {
  await endSession(principal, Date.now());
  return ok({ message: 'Logged out' }, { cookies: clearedSessionCookies() });
});
