import { verifyChallenge } from '../../lib/auth/mfa';
import { secondFactorBody, userEnvelopeView } from '../../lib/auth/schemas';
import { CHALLENGE_COOKIE, clearedChallengeCookie, sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.verifySecondFactor, { body: secondFactorBody }, async ({ body, request }) => {
  const { user, tokens } = await verifyChallenge(request.cookies[CHALLENGE_COOKIE], body, request, Date.now(), routeLimit(routes.verifySecondFactor, 'user'));
  return ok({ user }, { cookies: [...sessionCookies(tokens), clearedChallengeCookie()] });
});

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'Signed in, exactly as POST /auth/login signs in a user without a second factor (with the `rememberMe` of that login).',
    body: userEnvelopeView,
    cookies: 'issued',
  },
  errors: {
    400: 'The code is wrong or already used, or the recovery code is not an unused one (each counts against the challenge and the user).',
    401: 'No challenge cookie, or the challenge expired (5 minutes), took 5 wrong codes, or was opened with a password that has changed since (or the tenant is no longer active): sign in again.',
  },
  description:
    'The second step of a login that answered `{ mfaRequired: true }`: the `mfaChallenge` cookie it set (HttpOnly, 5 minutes, sent to this route only) and `{ code }` from the authenticator app or `{ recoveryCode }`. A code is accepted once: a replay within its 30 seconds is refused. Wrong codes are limited per challenge (it dies at the fifth) and per user (10 attempts per 15 minutes across challenges, 429 past them).',
  notes: '`{ code }` or `{ recoveryCode }` with the challenge cookie; 200 `{ user }` and both cookies',
  example: { body: { code: '123456' } },
});
