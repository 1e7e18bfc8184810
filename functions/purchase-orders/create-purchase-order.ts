import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { createPurchaseOrderBody, purchaseOrderView } from '../../lib/purchase-orders/schemas';
import { createPurchaseOrder, purchaseOrderEtag } from '../../lib/purchase-orders/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createPurchaseOrder, { body: createPurchaseOrderBody }, async ({ body, principal, idempotency }) => {
  const order = await createPurchaseOrder(principal, body, Date.now(), idempotency);
  return { status: 201, body: order, headers: { ETag: purchaseOrderEtag(order) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The order, DRAFT, with its number and `ETag`.', body: purchaseOrderView },
  responseHeaders: { ETag: { description: "The order's version, quoted: a PATCH's `If-Match`.", schema: { type: 'string' } } },
  errors: {
    400: 'A field breaks its rule (no items, more than 80, a product twice, a fraction of a product of a whole unit, more decimal places than a quantity (3) or a cost (4) takes).',
    404: "No such supplier, company, warehouse or product in the caller's tenant.",
  },
  description:
    "Creates a purchase order, DRAFT, for a company of the tenant to buy from a supplier, for one of its warehouses. It takes the company's next number (`PC-000123`): sequential per company, with no gaps and no duplicates however many are created at once. Items, totals (exact: quantity × unit cost, summed, rounded once to the cent), the expected day and the notes can be changed while it is a DRAFT. Publishes `purchase_order.created`. With an `Idempotency-Key`, a retry creates it once.",
  notes: '201 DRAFT with its number and ETag; 404 supplier, company, warehouse or product',
  example: {
    body: {
      supplierId: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f',
      companyId: '7d2e0b6a-4f3c-4e5d-9a0b-9c8d7e6f5a4b',
      warehouseId: '6c1d9a5f-3e2b-4d4c-8f9a-8b7c6d5e4f3a',
      expectedAt: '2026-12-10',
      items: [{ productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b', quantity: 84, unitCost: 8.5 }],
    },
  },
});
