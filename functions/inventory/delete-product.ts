import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { deleteProduct } from '../../lib/inventory/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.deleteProduct, { path: idPath }, async ({ path, principal }) => {
  await deleteProduct(principal, path.id, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The product was deleted: gone from every list and the search, its SKU and GTIN free again in the tenant.' },
  errors: {
    404: "No such product in the caller's tenant, or it was already deleted.",
    409: 'The product has stock movements: it keeps its history; PATCH it with `status: INACTIVE` instead. Or suppliers sell it (GET /inventory/products/{id}/suppliers): remove it from them first.',
  },
  description:
    'Deletes a product created by mistake, which never had a stock movement. A product with movements is part of the stock history: deactivate it instead.',
  notes: '204 for a product without movements; 409 otherwise (deactivate it)',
  example: { path: { id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' } },
});
