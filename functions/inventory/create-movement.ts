import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { movementView } from '../../lib/inventory/schemas';
import { movementBody } from '../../lib/inventory/schemas';
import { addMovement } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createMovement, { body: movementBody }, async ({ body, principal, idempotency }) =>
  created(await addMovement(principal, body, Date.now(), idempotency)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The movement, with the balance of the product in the warehouse after it.', body: movementView },
  errors: { 404: 'No such product or warehouse in the tenant.', 409: 'OUT or SALE would take the quantity below zero.' },
  description: "Weighted-average costing. Recorded in one transaction with the balance, the warehouse totals and, for a SALE, the day's sales counter.",
  notes: '201 movement with `balance: { quantity, averageCost }`; 409 not enough stock; 404 product or warehouse',
  example: {
    body: { productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b', warehouseId: '2f3a4b5c-6d7e-4f8a-9b0c-1d2e3f4a5b6c', type: 'IN', quantity: 24, unitCost: 18.9 },
  },
});
