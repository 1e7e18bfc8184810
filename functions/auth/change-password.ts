import { changePassword } from '../../lib/auth/change-password';
import { changePasswordBody, userEnvelopeView } from '../../lib/auth/schemas';
import { sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.changePassword, { body: changePasswordBody }, async ({ body, principal, request }) => {
  // The current password is checked in the password-attempt window login counts in (the manifest's).
  const { user, tokens } = await changePassword(principal, body, request, Date.now(), routeLimit(routes.changePassword, 'email-and-ip'));
  return ok({ user }, { cookies: sessionCookies(tokens) });
});

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'The password is changed: every other session of the user has ended, and this one goes on with the new cookies.',
    body: userEnvelopeView,
    cookies: 'issued',
  },
  errors: {
    400: 'The body is invalid, the new password breaks the password rules, or `currentPassword` is not the current password.',
    409: 'The password or the second factor was changed by another request meanwhile.',
  },
  description:
    'A notification e-mail is sent to the user. The current password is checked in the window login counts in (5 attempts per 15 minutes per e-mail and IP): a wrong one counts as a failed attempt, past the limit the answer is 429 with Retry-After, and a right one clears the window.',
  notes: '200 `{ user }` with fresh cookies; other sessions end; 400 wrong current password; login throttle',
  example: { body: { currentPassword: 'correct horse battery', newPassword: 'staple battery horse correct' } },
});
