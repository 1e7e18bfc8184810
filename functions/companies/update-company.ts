import { updateCompanyBody } from '../../lib/companies/schemas';
import { updateCompany } from '../../lib/companies/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.updateCompany, { path: idPath, body: updateCompanyBody }, async ({ path, body, principal }) =>
  ok(await updateCompany(principal, path.id, body, Date.now())),
);
