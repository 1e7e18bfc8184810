import { resetUserSecondFactor } from '../../lib/auth/users';
import { resetUserMfaQuery } from '../../lib/auth/schemas';
import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.resetUserMfa, { path: idPath, query: resetUserMfaQuery }, async ({ path, query, principal }) => {
  await resetUserSecondFactor(principal, path.id, query.tenantId, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 204,
    description:
      "The user's second factor was reset: every session of the user has ended, signing in takes the password alone until a new one is enrolled, and the user was mailed.",
  },
  errors: {
    403: "The caller is not a tenant administrator; the user is an administrator (a platform administrator's work), the caller, or a platform administrator.",
    404: "No such user in the tenant (a tenant administrator's own tenant; `tenantId` names another only for platform administrators).",
    409: 'The user has no second factor.',
  },
  access: 'tenant administrator (members); platform administrator (administrators)',
  description:
    "For a user who lost both the authenticator and the recovery codes. A tenant administrator resets a member's second factor in the tenant; a platform administrator resets a tenant administrator's (`tenantId` names the user's tenant). Audited (`user.mfa_reset`), mailed to the user, and every session of the user ends. A tenant whose policy requires a second factor holds the user to enrolment at the next sign-in.",
  notes: "204; tenant administrators for members, platform administrators for administrators (`?tenantId=`); the user's sessions end; 409 none on",
  example: { path: { id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e' } },
});
