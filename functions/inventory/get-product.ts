import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productView } from '../../lib/inventory/schemas';
import { getProduct, productEtag } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.getProduct, { path: idPath }, async ({ path, principal }) => {
  const product = await getProduct(principal, path.id);
  return { status: 200, body: product, headers: { ETag: productEtag(product) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The product, as POST /inventory/products answers it, with its `ETag`.', body: productView },
  responseHeaders: { ETag: { description: "The product's version, quoted: a PATCH's `If-Match`.", schema: { type: 'string' } } },
  errors: { 404: "No such product in the caller's tenant (unknown or another tenant's: which is not disclosed)." },
  description: "One product of the caller's tenant, as the create answers it. An unknown id and another tenant's are the same 404.",
  notes: "the product as the create answers it; 404 unknown or another tenant's",
  example: { path: { id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' } },
});
