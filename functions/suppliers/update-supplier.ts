import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { supplierView, updateSupplierBody } from '../../lib/suppliers/schemas';
import { updateSupplier } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.updateSupplier, { path: idPath, body: updateSupplierBody }, async ({ path, body, principal }) =>
  ok(await updateSupplier(principal, path.id, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The supplier as updated.', body: supplierView },
  errors: { 404: "No such supplier in the caller's tenant.", 409: 'Another supplier of the tenant already has this document.' },
  description:
    "Changes any of a supplier's fields (at least one); `null` clears the e-mail or the phone. A document already used by another supplier of the tenant is a 409.",
  notes: 'any create field; `null` clears email or phone',
  example: { path: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' }, body: { active: false } },
});
