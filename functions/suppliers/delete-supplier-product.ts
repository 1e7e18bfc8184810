import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { supplierProductPath } from '../../lib/supplier-products/schemas';
import { unlinkSupplierProduct } from '../../lib/supplier-products/service';

export const handler = httpHandler(routes.deleteSupplierProduct, { path: supplierProductPath }, async ({ path, principal, request }) => {
  await unlinkSupplierProduct(principal, { supplierId: path.id, productId: path.productId }, request.ifMatch, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The supplier no longer sells the product; its code is free for another of its products.' },
  requestHeaders: {
    'If-Match': {
      description:
        'The `ETag` of the link as the client read it: if it changed since, 412 and nothing is removed. Without it, or with `*`, it is removed as it is.',
      schema: { type: 'string', examples: ['"1"'] },
    },
  },
  errors: {
    400: 'The If-Match is not an ETag.',
    404: 'The supplier does not sell the product.',
    412: 'The link changed since the `If-Match` version was read.',
  },
  description:
    'Removes the link (and, when it was the preferred one, leaves the product without a preferred supplier). Purchase orders already made keep their items.',
  notes: '204; `If-Match` or 412',
  example: { path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f', productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' } },
});
