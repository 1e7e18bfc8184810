import { inviteUser } from '../../lib/auth/invitations';
import { invitationBody } from '../../lib/auth/schemas';
import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { invitationView } from '../../lib/auth/schemas';
import * as routes from '../../lib/routes';

const invited =
  'The same answer whether or not the address has an account. The invitation (7 days): its e-mail carries the tenant id and a single-use token. A pending invitation of this address into this tenant mailed less than 24 hours ago is answered as it is, and no e-mail is sent.';

export const handler = httpHandler(routes.createInvitation, { body: invitationBody }, async ({ body, principal }) =>
  created(await inviteUser(principal, body.email, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: invited, body: invitationView },
  errors: { 403: 'The caller is not a tenant administrator.' },
  access: 'tenant administrator',
  description:
    "Invites an e-mail address into the caller's tenant (tenant administrators): the address receives a single-use link valid for 7 days, which POST /auth/register redeems. The answer is the same for an address that already has an account. At most 20 invitations per hour per administrator and 3 per address per day.",
  notes:
    '201 `{ id, email, expiresAt }`, 7 days, the same for an address that has an account; e-mail with a single-use token; 20 per hour per user, 3 per day per address',
  example: { body: { email: 'bruno@example.com' } },
});
