import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';
import { updateSupplierBody } from '../../lib/suppliers/schemas';
import { updateSupplier } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.updateSupplier, { path: idPath, body: updateSupplierBody }, async ({ path, body, principal }) =>
  ok(await updateSupplier(principal, path.id, body, Date.now())),
);
