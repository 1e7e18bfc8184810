import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { deleteSupplier } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.deleteSupplier, { path: idPath }, async ({ path, principal }) => {
  await deleteSupplier(principal, path.id, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The supplier was deleted: gone from the list and from `total`, its document free again in the tenant.' },
  errors: {
    404: "No such supplier in the caller's tenant, or it was already deleted.",
    409: 'The supplier sells products here (GET /suppliers/{id}/products): remove them from it first.',
  },
  description: 'A hard delete. To stop using a supplier but keep it listed, PATCH it with `active: false`.',
  notes: "204, no body; the document is free again in the tenant; 404 unknown, already deleted or another tenant's",
  example: { path: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' } },
});
