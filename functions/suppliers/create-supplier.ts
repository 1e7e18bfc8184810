import { created, httpHandler } from '../../lib/http/handler';
import { routes } from '../../lib/routes';
import { createSupplierBody } from '../../lib/suppliers/schemas';
import { createSupplier } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.createSupplier, { body: createSupplierBody }, async ({ body, principal }) =>
  created(await createSupplier(principal, body, Date.now())),
);
