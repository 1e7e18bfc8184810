import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { supplierProductPath, supplierProductView } from '../../lib/supplier-products/schemas';
import { getSupplierProduct, supplierProductEtag } from '../../lib/supplier-products/service';

export const handler = httpHandler(routes.getSupplierProduct, { path: supplierProductPath }, async ({ path, principal }) => {
  const link = await getSupplierProduct(principal, { supplierId: path.id, productId: path.productId });
  return { status: 200, body: link, headers: { ETag: supplierProductEtag(link) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "The supplier's terms for the product, with its `ETag`.", body: supplierProductView },
  responseHeaders: { ETag: { description: "The link's version, quoted: a PATCH's or DELETE's `If-Match`.", schema: { type: 'string' } } },
  errors: { 404: "The supplier does not sell the product (or either is not the caller's tenant's)." },
  description: "A supplier's terms for one product.",
  notes: 'the link with ETag; 404 when not linked',
  example: { path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f', productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' } },
});
