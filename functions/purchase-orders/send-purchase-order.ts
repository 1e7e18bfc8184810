import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { purchaseOrderView, sendPurchaseOrderBody } from '../../lib/purchase-orders/schemas';
import { purchaseOrderEtag, sendPurchaseOrder } from '../../lib/purchase-orders/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.sendPurchaseOrder, { path: idPath, body: sendPurchaseOrderBody }, async ({ path, body, principal }) => {
  const order = await sendPurchaseOrder(principal, path.id, body, Date.now());
  return { status: 200, body: order, headers: { ETag: purchaseOrderEtag(order) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The order, SENT.', body: purchaseOrderView },
  errors: {
    404: "No such purchase order in the caller's tenant.",
    409: 'The order is not a DRAFT; the supplier has no e-mail and no `to` was given; or the order changed while it was being sent (the supplier received the version before: send again).',
  },
  description:
    "E-mails a DRAFT order to its supplier's e-mail (or `to`), in Portuguese: the items (the supplier's code for each when it has one), quantities, unit costs, each total and the order's, as HTML and as a CSV attachment (`;`, decimal comma, UTF-8 with BOM). Then the order is SENT and what it expects is on order in its warehouse (purchase suggestions count it). Publishes `purchase_order.sent`. Each user (or API key) sends at most 30 orders an hour (429 past it).",
  notes: '200 SENT; 409 not a DRAFT, or no e-mail',
  example: { path: { id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60' }, body: {} },
});
