import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { purchaseOrderView } from '../../lib/purchase-orders/schemas';
import { getPurchaseOrder, purchaseOrderEtag } from '../../lib/purchase-orders/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.getPurchaseOrder, { path: idPath }, async ({ path, principal }) => {
  const order = await getPurchaseOrder(principal, path.id);
  return { status: 200, body: order, headers: { ETag: purchaseOrderEtag(order) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The order, with its `ETag`.', body: purchaseOrderView },
  responseHeaders: { ETag: { description: "The order's version, quoted: a PATCH's `If-Match`.", schema: { type: 'string' } } },
  errors: { 404: "No such purchase order in the caller's tenant." },
  description: 'One purchase order: its status, items (ordered, received, each total), total and dates.',
  notes: 'the order with ETag',
  example: { path: { id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60' } },
});
