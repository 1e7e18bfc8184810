import { login } from '../../lib/auth/login';
import { loginBody } from '../../lib/auth/schemas';
import { challengeCookie, sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { loginResultView } from '../../lib/auth/schemas';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.login, { body: loginBody }, async ({ body, request }) => {
  const outcome = await login(body, request, Date.now(), { perAddress: routeLimit(routes.login, 'email-and-ip'), perIp: routeLimit(routes.login, 'ip') });
  if (outcome.kind === 'mfa-required') return ok({ mfaRequired: true }, { cookies: [challengeCookie(outcome.challenge.token, outcome.challenge.maxAge)] });
  return ok({ user: outcome.user }, { cookies: sessionCookies(outcome.tokens) });
});

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description:
      'Signed in: `{ user }` and both cookies. For a user with a second factor, `{ mfaRequired: true }` and the `mfaChallenge` cookie instead (HttpOnly, 5 minutes, sent only to POST /auth/mfa/verify); no session exists until that route gets a code.',
    body: loginResultView,
    cookies: 'issued',
  },
  errors: { 401: 'Bad credentials (the same answer whether the e-mail exists or not), or the password changed while it was being checked.' },
  description: '`rememberMe` makes the refresh cookie persistent for 30 days (else a browser-session cookie; the session lasts 12 hours).',
  notes: '200 `{ user }`, both cookies; 401 bad credentials',
  example: { body: { email: 'ana@example.com', password: 'correct horse battery', rememberMe: true } },
});
