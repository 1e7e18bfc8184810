import { login } from '../../lib/auth/login';
import { loginBody } from '../../lib/auth/schemas';
import { sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { userEnvelopeView } from '../../lib/auth/schemas';
import { limitScope } from '../../lib/rate-limit';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.login, { body: loginBody }, async ({ body, request }) => {
  const { user, tokens } = await login(body, request, Date.now(), { scope: limitScope(routes.login), limit: routes.login.rateLimit });
  return ok({ user }, { cookies: sessionCookies(tokens) });
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'Signed in.', body: userEnvelopeView, cookies: 'issued' },
  errors: { 401: 'Bad credentials (the same answer whether the e-mail exists or not).' },
  description: '`rememberMe` makes the refresh cookie persistent for 30 days (else a browser-session cookie; the session lasts 12 hours).',
  notes: '200 `{ user }`, both cookies; 401 bad credentials',
  example: { body: { email: 'ana@example.com', password: 'correct horse battery', rememberMe: true } },
});
