import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { productView } from '../../lib/inventory/schemas';
import { productBody } from '../../lib/inventory/schemas';
import { createProduct } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createProduct, { body: productBody }, async ({ body, principal, idempotency }) =>
  created(await createProduct(principal, body, Date.now(), idempotency)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The product.', body: productView },
  errors: { 409: 'The SKU is already used in the tenant.' },
  description: "Creates a product in the caller's tenant. The SKU (letters, digits and `. _ / -`) is unique in the tenant: a second product with it is a 409.",
  notes: '201 `{ id, sku, name, createdAt }`; 409 SKU taken in the tenant',
  example: { body: { sku: 'CAFE-500G', name: 'Café torrado 500 g' } },
});
