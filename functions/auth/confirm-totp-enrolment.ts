import { confirmEnrolment } from '../../lib/auth/mfa';
import { totpConfirmBody, totpConfirmedView } from '../../lib/auth/schemas';
import { sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.confirmTotpEnrolment, { body: totpConfirmBody }, async ({ body, principal, request }) => {
  const { user, recoveryCodes, tokens } = await confirmEnrolment(principal, body.code, request, Date.now());
  return ok({ user, recoveryCodes }, { cookies: sessionCookies(tokens) });
});

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description:
      'The second factor is on. The 10 recovery codes are in this answer only (each works once, in place of a code); every other session of the user has ended, and this one goes on with the new cookies.',
    body: totpConfirmedView,
    cookies: 'issued',
  },
  errors: {
    400: 'The code is not one of the pending secret (the current step, or one step either side).',
    409: 'No enrolment was started, or a second factor is already on.',
  },
  description: 'A notification e-mail is sent to the user.',
  notes: '200 `{ user, recoveryCodes }` with fresh cookies; other sessions end',
  example: { body: { code: '123456' } },
});
