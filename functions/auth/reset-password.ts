import { resetPassword } from '../../lib/auth/password-reset';
import { messageView, resetPasswordBody } from '../../lib/auth/schemas';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.resetPassword, { body: resetPasswordBody }, async ({ body }) => {
  await resetPassword(body, Date.now());
  return ok({ message: 'Password changed; every session was signed out' });
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The password was changed and every session of the user signed out.', body: messageView },
  description: 'A 400 names `token` when it is unknown, expired (30 minutes) or already used.',
  notes: '400 unknown, expired or used token; signs out every session',
  example: { body: { token: 'paste-the-token-from-the-reset-link', newPassword: 'a new long password' } },
});
