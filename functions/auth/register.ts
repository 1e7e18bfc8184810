import { register } from '../../lib/auth/registration';
import { registerBody } from '../../lib/auth/schemas';
import { sessionCookies } from '../../lib/http/cookies';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { userEnvelopeView } from '../../lib/auth/schemas';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

const invitationRule =
  'Registration is not permitted: a pending invitation of this e-mail into this tenant and its token (`invitationToken`) are needed; a missing, wrong, used or expired token is this 403, whatever the address.';

export const handler = httpHandler(routes.register, { body: registerBody }, async ({ body, request }) => {
  const { user, tokens } = await register(body, request, Date.now(), routeLimit(routes.register, 'ip'));
  return ok({ user }, { cookies: sessionCookies(tokens) });
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The user was created and signed in.', body: userEnvelopeView, cookies: 'issued' },
  errors: { 403: invitationRule, 404: 'No such tenant, or the tenant is not active.', 409: 'An account with this e-mail already exists.' },
  description:
    "Every account is opened through a link e-mailed to its address: `invitationToken` is the single-use token of the invitation e-mail's link (the invitation must be pending, for this e-mail, in this tenant). The invitation POST /tenants sends to `adminEmail` makes the tenant's administrator (its base account); an administrator's invitation makes a member. The token is checked before the password is hashed. 30 attempts per 15 minutes per IP, a success giving its slot back.",
  notes: '200 `{ user }`, both cookies; 403 without a valid `invitationToken` (from the invitation e-mail); 409 e-mail taken; 404 tenant',
  example: {
    body: {
      name: 'Ana Souza',
      email: 'ana@example.com',
      password: 'correct horse battery',
      tenantId: '6f1c2a0e-3b7d-4e5f-9a8b-1c2d3e4f5a6b',
      invitationToken: 'jG2Yw0cXz3l1bZ5oQkM6sVdT8rN4uH7pA9eF1iC0xKq',
    },
  },
});
