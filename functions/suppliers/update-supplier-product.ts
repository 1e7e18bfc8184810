import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { supplierProductPath, supplierProductView, updateSupplierProductBody } from '../../lib/supplier-products/schemas';
import { supplierProductEtag, updateSupplierProduct } from '../../lib/supplier-products/service';

export const handler = httpHandler(
  routes.updateSupplierProduct,
  { path: supplierProductPath, body: updateSupplierProductBody },
  async ({ path, body, principal, request }) => {
    const link = await updateSupplierProduct(principal, { supplierId: path.id, productId: path.productId }, body, request.ifMatch, Date.now());
    return { status: 200, body: link, headers: { ETag: supplierProductEtag(link) } };
  },
);

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The terms as changed, with the new `ETag`.', body: supplierProductView },
  requestHeaders: {
    'If-Match': {
      description:
        'The `ETag` of the link as the client read it (`"3"`; several, comma-separated, match any): if someone changed it since, 412 and nothing changes. Without it, or with `*`, the change applies to the link as it is.',
      schema: { type: 'string', examples: ['"1"'] },
    },
  },
  responseHeaders: { ETag: { description: "The link's version after the change, quoted.", schema: { type: 'string' } } },
  errors: {
    400: 'A field breaks its rule, no field at all, or the If-Match is not an ETag.',
    404: 'The supplier does not sell the product.',
    409: "The new `supplierCode` is the supplier's code for another product.",
    412: 'The link changed since the `If-Match` version was read.',
  },
  description:
    "Changes any of the supplier's terms for the product (`null` clears an optional one). `preferred: true` takes the mark from the product's other preferred supplier in the same transaction (that link's version moves too); `false` leaves the product without one. Audited with each field before and after.",
  notes: '`If-Match` (ETag) or 412; 409 code taken',
  example: { path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f', productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' }, body: { leadTimeDays: 10 } },
});
