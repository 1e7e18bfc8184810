import { listCompanies } from '../../lib/companies/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listCompanies, {}, async ({ principal }) => ok(await listCompanies(principal)));
