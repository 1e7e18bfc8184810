import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { warehouseView } from '../../lib/inventory/schemas';
import { warehouseBody } from '../../lib/inventory/schemas';
import { createWarehouse } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createWarehouse, { body: warehouseBody }, async ({ body, principal, idempotency }) =>
  created(await createWarehouse(principal, body, Date.now(), idempotency)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The warehouse.', body: warehouseView },
  description: "Creates a warehouse in the caller's tenant. Its stock totals start at zero and follow every movement.",
  notes: '201 `{ id, name, createdAt }`',
  example: { body: { name: 'Depósito Centro' } },
});
