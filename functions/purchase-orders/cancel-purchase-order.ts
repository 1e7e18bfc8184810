import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { purchaseOrderView } from '../../lib/purchase-orders/schemas';
import { cancelPurchaseOrder, purchaseOrderEtag } from '../../lib/purchase-orders/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.cancelPurchaseOrder, { path: idPath }, async ({ path, principal }) => {
  const order = await cancelPurchaseOrder(principal, path.id, Date.now());
  return { status: 200, body: order, headers: { ETag: purchaseOrderEtag(order) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The order, CANCELLED.', body: purchaseOrderView },
  errors: {
    404: "No such purchase order in the caller's tenant.",
    409: 'The order is PARTIALLY_RECEIVED, RECEIVED or CANCELLED: only a DRAFT or SENT one can be cancelled.',
  },
  description:
    'Cancels a DRAFT or SENT order: what a SENT order had on order in its warehouse is no longer expected (purchase suggestions count it no more). Publishes `purchase_order.cancelled`.',
  notes: '200 CANCELLED; 409 from any other status than DRAFT or SENT',
  example: { path: { id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60' } },
});
