import { login } from '../../lib/auth/login';
import { loginBody } from '../../lib/auth/schemas';
import { sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { limitScope } from '../../lib/rate-limit';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.login, { body: loginBody }, async ({ body, request }) => {
  const { user, tokens } = await login(body, request, Date.now(), { scope: limitScope(routes.login), limit: routes.login.rateLimit });
  return ok({ user }, { cookies: sessionCookies(tokens) });
});
