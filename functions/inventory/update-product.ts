import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productView, updateProductBody } from '../../lib/inventory/schemas';
import { productEtag, updateProduct } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.updateProduct, { path: idPath, body: updateProductBody }, async ({ path, body, principal, request }) => {
  const product = await updateProduct(principal, path.id, body, request.ifMatch, Date.now());
  return { status: 200, body: product, headers: { ETag: productEtag(product) } };
});

ROUTE_DOCS: describeRoute(handler, {
  atLeastOneField: true,
  success: { status: 200, description: 'The product as changed, with its new `ETag`.', body: productView },
  requestHeaders: {
    'If-Match': {
      description:
        'The `ETag` of the product as the client read it (`"3"`; several, comma-separated, match any). The change applies only to that version: if someone changed the product since, 412 and nothing changes. Without it, or with `*`, the change applies to the product as it is.',
      schema: { type: 'string', examples: ['"3"'] },
    },
  },
  responseHeaders: { ETag: { description: "The product's version after the change, quoted: the next change's `If-Match`.", schema: { type: 'string' } } },
  errors: {
    400: 'A field breaks its rule (a GTIN with a wrong check digit, an unknown unit, a negative price, …), or the If-Match is not an ETag.',
    404: "No such product in the caller's tenant, or no such category (`categoryId`).",
    409: 'Another product of the tenant has this SKU or GTIN (the detail names it), or the new unit does not count the quantity on hand.',
    412: 'The product changed since the `If-Match` version was read.',
  },
  description:
    "Changes any of a product's fields (at least one): `sku`, `name`, `description`, `brand`, `unit`, `gtin`, `ncm`, `cest`, `salePrice`, `status`, `categoryId`; `null` clears an optional one. Each change is one transaction with its audit entry (every changed field, before and after) and a `product.updated` event; the lists, the search, the coverage dashboard and the exports show the new values at once. An INACTIVE product takes no IN or SALE movement. A unit of whole quantities (all but KG, G, L, ML, M, M2, M3) is refused while a fraction is on hand.",
  notes: 'any field; `null` clears an optional one; `If-Match` (ETag) or 412; 409 SKU or GTIN taken',
  example: { path: { id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' }, body: { name: 'Café torrado 500 g (tradicional)', salePrice: 18.9 } },
});
