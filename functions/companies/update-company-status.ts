import { updateCompanyStatusBody } from '../../lib/companies/schemas';
import { changeCompanyStatus } from '../../lib/companies/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.updateCompanyStatus, { path: idPath, body: updateCompanyStatusBody }, async ({ path, body, principal }) =>
  ok(await changeCompanyStatus(principal, path.id, body.status, Date.now())),
);
