import { anonymizeUser } from '../../lib/auth/anonymize';
import { anonymizedUserView } from '../../lib/auth/schemas';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.anonymizeUser, { path: idPath }, async ({ path, principal }) =>
  ok(await anonymizeUser(principal, path.id, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description:
      "The removed user's name and e-mail are replaced by the placeholders shown wherever the tenant's trail held them (`complete`), or the call stopped at its bound and the next call goes on (`complete: false`).",
    body: anonymizedUserView,
  },
  errors: {
    403: 'The caller is not a tenant administrator.',
    404: "The tenant's audit trail has no trace of that user id (another tenant's user included).",
    409: 'The user still exists: remove it first (DELETE /users/{id}).',
  },
  access: 'tenant administrator',
  description:
    "For a user already removed (LGPD Art. 18): every audit entry the user made shows the actor as `Anonymized user`, and the name or e-mail in the `changes` of user entries about them become the placeholders, in every list GET /audit-events reads; ids, actions and times stay. What is left of the user's sessions is deleted. Calling again is harmless: it writes only its own `user.anonymized` entry. At most 300 entries a call: `complete: false` asks for another call. 30 requests an hour per administrator.",
  notes: 'tenant administrators; removed users only (409 while it exists); `complete: false`: call again',
  example: { path: { id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e' } },
});
