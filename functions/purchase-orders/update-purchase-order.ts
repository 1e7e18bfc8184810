import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { purchaseOrderView, updatePurchaseOrderBody } from '../../lib/purchase-orders/schemas';
import { purchaseOrderEtag, updatePurchaseOrder } from '../../lib/purchase-orders/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.updatePurchaseOrder, { path: idPath, body: updatePurchaseOrderBody }, async ({ path, body, principal, request }) => {
  const order = await updatePurchaseOrder(principal, path.id, body, request.ifMatch, Date.now());
  return { status: 200, body: order, headers: { ETag: purchaseOrderEtag(order) } };
});

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The order as changed, with its new `ETag`.', body: purchaseOrderView },
  requestHeaders: {
    'If-Match': {
      description:
        'The `ETag` of the order as the client read it (`"3"`; several, comma-separated, match any): if someone changed it since, 412 and nothing changes. Without it, or with `*`, the change applies to the order as it is.',
      schema: { type: 'string', examples: ['"1"'] },
    },
  },
  responseHeaders: { ETag: { description: "The order's version after the change, quoted.", schema: { type: 'string' } } },
  errors: {
    400: 'A field breaks its rule, no field at all, or the If-Match is not an ETag.',
    404: "No such purchase order (or a product of the items) in the caller's tenant.",
    409: 'Items of an order that is no longer a DRAFT, or any change to a RECEIVED or CANCELLED one.',
    412: 'The order changed since the `If-Match` version was read.',
  },
  description:
    "Changes a DRAFT order's `items` (the whole list, replaced), and the `expectedAt` day and `notes` of any order not yet RECEIVED or CANCELLED (`null` clears them). Audited with the fields before and after; publishes `purchase_order.updated`.",
  notes: '`If-Match` (ETag) or 412; 409 items after DRAFT',
  example: { path: { id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60' }, body: { expectedAt: '2026-12-12', notes: 'Entregar pela manhã' } },
});
