import { turnOffTotp } from '../../lib/auth/mfa';
import { secondFactorBody, userEnvelopeView } from '../../lib/auth/schemas';
import { sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.disableTotp, { body: secondFactorBody }, async ({ body, principal, request }) => {
  const { user, tokens } = await turnOffTotp(principal, body, request, Date.now());
  return ok({ user }, { cookies: sessionCookies(tokens) });
});

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description:
      'The second factor is off: its secret and recovery codes are gone, every other session of the user has ended, and this one goes on with the new cookies.',
    body: userEnvelopeView,
    cookies: 'issued',
  },
  errors: {
    400: 'The code is wrong or already used, or the recovery code is not an unused one.',
    409: 'No second factor is on, or the code was used meanwhile.',
  },
  description:
    'Proven by a current code (`{ code }`) or an unused recovery code (`{ recoveryCode }`), not by the password: whoever holds a session and the password but not the device cannot turn it off. A notification e-mail is sent to the user.',
  notes: '`{ code }` or `{ recoveryCode }`; 200 `{ user }` with fresh cookies; other sessions end',
  example: { body: { code: '123456' } },
});
