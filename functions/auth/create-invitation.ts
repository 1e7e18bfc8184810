import { inviteUser } from '../../lib/auth/invitations';
import { invitationBody } from '../../lib/auth/schemas';
import { created, httpHandler } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.createInvitation, { body: invitationBody }, async ({ body, principal }) =>
  created(await inviteUser(principal, body.email, Date.now())),
);
