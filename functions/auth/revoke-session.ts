import { revokeOwnSession } from '../../lib/auth/sessions';
import { clearedSessionCookies } from '../../lib/http/cookies';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.revokeSession, { path: idPath }, async ({ path, principal }) => {
  await revokeOwnSession(principal, path.id, Date.now());
  // Revoking the session in use is a logout: its cookies go too.
  const current = path.id === principal.sessionId;
  return ok({ message: 'Session revoked' }, current ? { cookies: clearedSessionCookies() } : {});
});
