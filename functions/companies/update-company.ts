import { companyView, updateCompanyBody } from '../../lib/companies/schemas';
import { updateCompany } from '../../lib/companies/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.updateCompany, { path: idPath, body: updateCompanyBody }, async ({ path, body, principal }) =>
  ok(await updateCompany(principal, path.id, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The company as updated.', body: companyView },
  errors: { 404: "No such company in the caller's tenant." },
  description: 'The document never changes.',
  notes: 'name, email, address, settings, taxRegime, costMethod; the document never changes',
  example: { path: { id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b' }, body: { taxRegime: 'LUCRO_PRESUMIDO' } },
});
