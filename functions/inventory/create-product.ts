import { created, httpHandler } from '../../lib/http/handler';
import { productBody } from '../../lib/inventory/schemas';
import { createProduct } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.createProduct, { body: productBody }, async ({ body, principal }) =>
  created(await createProduct(principal, body, Date.now())),
);
