import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { supplierView } from '../../lib/suppliers/schemas';
import { getSupplier } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.getSupplier, { path: idPath }, async ({ path, principal }) => ok(await getSupplier(principal, path.id)));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The supplier, as POST /suppliers and PATCH /suppliers/{id} answer it.', body: supplierView },
  errors: { 404: "No such supplier in the caller's tenant (unknown, deleted or another tenant's: which is not disclosed)." },
  description:
    "One supplier of the caller's tenant, as the create and the update answer it. An unknown id, a deleted supplier and another tenant's are the same 404.",
  notes: "the supplier as the create and the update answer it; 404 unknown, deleted or another tenant's",
  example: { path: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' } },
});
