import { companyView, updateCompanyStatusBody } from '../../lib/companies/schemas';
import { changeCompanyStatus } from '../../lib/companies/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

const TRANSITIONS = 'ACTIVE to DISABLED, SUSPENDED or BLOCKED; DISABLED or SUSPENDED to ACTIVE; BLOCKED to ACTIVE by a platform administrator';

export const handler = httpHandler(routes.updateCompanyStatus, { path: idPath, body: updateCompanyStatusBody }, async ({ path, body, principal }) =>
  ok(await changeCompanyStatus(principal, path.id, body.status, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The company in its new status.', body: companyView },
  errors: {
    403: 'The caller is not a tenant administrator.',
    404: "No such company in the caller's tenant.",
    409: 'The transition is not allowed (BLOCKED to ACTIVE needs a platform administrator; a status to itself is refused).',
  },
  description: `${TRANSITIONS}.`,
  access: 'tenant administrator',
  notes: `${TRANSITIONS}; else 409`,
  example: { path: { id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b' }, body: { status: 'SUSPENDED' } },
});
