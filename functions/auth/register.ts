import { register } from '../../lib/auth/registration';
import { registerBody } from '../../lib/auth/schemas';
import { sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.register, { body: registerBody }, async ({ body, request }) => {
  const { user, tokens } = await register(body, request, Date.now());
  return ok({ user }, { cookies: sessionCookies(tokens) });
});
