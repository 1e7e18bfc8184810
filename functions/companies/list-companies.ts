import { listCompanies } from '../../lib/companies/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { companyListView } from '../../lib/companies/schemas';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listCompanies, {}, async ({ principal }) => ok(await listCompanies(principal)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "The caller's tenant's companies, oldest first.", body: companyListView },
  notes: "the caller's tenant's companies, oldest first",
});
