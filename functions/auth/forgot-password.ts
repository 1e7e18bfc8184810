import { requestPasswordReset } from '../../lib/auth/password-reset';
import { forgotPasswordBody } from '../../lib/auth/schemas';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.forgotPassword, { body: forgotPasswordBody }, async ({ body }) => {
  await requestPasswordReset(body.email, Date.now());
  return ok({ message: 'If an account exists for this address, a reset link is on its way' });
});
