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
  errors: { 404: "No such company in the caller's tenant.", 409: 'The company is not ACTIVE.' },
  description:
    "Creates a warehouse in the caller's tenant, holding the stock of one of its companies (fiscal entities): `companyId`, an ACTIVE company of the tenant; by default the tenant's oldest ACTIVE company, or none when the tenant has no company. Its stock totals start at zero and follow every movement.",
  notes: '201 `{ id, name, companyId, createdAt }`; `companyId` ACTIVE (default: the oldest)',
  example: { body: { name: 'Depósito Centro' } },
});
