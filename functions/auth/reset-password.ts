import { resetPassword } from '../../lib/auth/password-reset';
import { resetPasswordBody } from '../../lib/auth/schemas';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.resetPassword, { body: resetPasswordBody }, async ({ body }) => {
  await resetPassword(body, Date.now());
  return ok({ message: 'Password changed; every session was signed out' });
});
