import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productView } from '../../lib/inventory/schemas';
import { productBody } from '../../lib/inventory/schemas';
import { createProduct, productEtag } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createProduct, { body: productBody }, async ({ body, principal, idempotency }) => {
  const product = await createProduct(principal, body, Date.now(), idempotency);
  return { status: 201, body: product, headers: { ETag: productEtag(product) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The product, with its `ETag`.', body: productView },
  responseHeaders: { ETag: { description: "The product's version, quoted: a PATCH's `If-Match`.", schema: { type: 'string' } } },
  errors: {
    404: 'No such category (`categoryId`) in the tenant.',
    409: 'The SKU or the GTIN is already used in the tenant (the detail names the product that has the GTIN).',
  },
  description:
    "Creates a product in the caller's tenant. A SKU (letters, digits and `. _ / -`) and a name are required; every other field is optional: `unit` (UN unless given; KG, G, L, ML, M, M2 and M3 count up to 3 decimals, the others whole units), `gtin` (8, 12, 13 or 14 digits, its check digit verified), `ncm` (8 digits), `cest` (7 digits), `salePrice` (at most 2 decimals, never negative), `brand`, `description` (up to 2,000 characters), `categoryId` (one of the tenant's categories, else 404) and `status` (ACTIVE unless given). The SKU and the GTIN are unique in the tenant: 409.",
  notes: '201 the product and its `ETag`; 409 SKU or GTIN taken in the tenant',
  example: { body: { sku: 'CAFE-500G', name: 'Café torrado 500 g', unit: 'UN', gtin: '7891000315507', ncm: '09012100', salePrice: 18.9 } },
});
