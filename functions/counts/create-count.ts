import { createCountBody, countView } from '../../lib/counts/schemas';
import { createCount } from '../../lib/counts/service';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createCount, { body: createCountBody }, async ({ body, principal, idempotency }) => ({
  status: 201,
  body: await createCount(principal, body, Date.now(), idempotency),
}));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The count, OPEN, with no lines yet.', body: countView },
  errors: {
    404: "No such warehouse, or a product named is not the caller's tenant's.",
    409: 'A count of the same warehouse and product is already open (a count of the whole warehouse holds every product of it).',
  },
  description:
    'Opens a stock count (inventário) of a warehouse. Without `productIds`, every product with stock in the warehouse is in scope, and any product counted there; with them (1 to 80), only those. While it is OPEN (or CLOSING), no other count of the same warehouse and product can be opened. Lines are counted with PUT /inventory/counts/{id}/lines/{productId} or POST /inventory/counts/{id}/scans; POST /inventory/counts/{id}/close applies the differences. With an `Idempotency-Key`, a retry opens it once.',
  notes: '201 OPEN; 409 the warehouse or a product already has an open count',
  example: { body: { warehouseId: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f', note: 'Balanço de novembro' } },
});
