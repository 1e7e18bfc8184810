import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { warehouseView } from '../../lib/inventory/schemas';
import { getWarehouse } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.getWarehouse, { path: idPath }, async ({ path, principal }) => ok(await getWarehouse(principal, path.id)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The warehouse, as POST /inventory/warehouses answers it.', body: warehouseView },
  errors: { 404: "No such warehouse in the caller's tenant (unknown or another tenant's: which is not disclosed)." },
  description: "One warehouse of the caller's tenant, as the create answers it. An unknown id and another tenant's are the same 404.",
  notes: "the warehouse as the create answers it; 404 unknown or another tenant's",
  example: { path: { id: '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c' } },
});
