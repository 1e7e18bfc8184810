import { requestPasswordReset } from '../../lib/auth/password-reset';
import { forgotPasswordBody, messageView } from '../../lib/auth/schemas';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.forgotPassword, { body: forgotPasswordBody }, async ({ body }) => {
  await requestPasswordReset(body.email, Date.now(), routeLimit(routes.forgotPassword, 'email'));
  return ok({ message: 'If an account exists for this address, a reset link is on its way' });
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The same answer whether the address exists or not; a reset link is mailed only when it does.', body: messageView },
  description:
    'Sends a single-use password reset link to the address if it has an account. The answer is the same whether it has one or not, so it cannot be used to find accounts. 3 requests per hour per IP, and 5 per day per address (counted whether it has an account or not), so that many IPs cannot flood one mailbox.',
  notes: 'the same 200 whether the address exists or not; 3 per hour per IP, 5 per day per address',
  example: { body: { email: 'ana@example.com' } },
});
