import { createCompanyBody } from '../../lib/companies/schemas';
import { createCompany } from '../../lib/companies/service';
import { created, httpHandler } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.createCompany, { body: createCompanyBody }, async ({ body, principal }) =>
  created(await createCompany(principal, body, Date.now())),
);
