import { created, httpHandler } from '../../lib/http/handler';
import { warehouseBody } from '../../lib/inventory/schemas';
import { createWarehouse } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.createWarehouse, { body: warehouseBody }, async ({ body, principal }) =>
  created(await createWarehouse(principal, body.name, Date.now())),
);
