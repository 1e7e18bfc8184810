import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { listSupplierProductsQuery, supplierProductPageView } from '../../lib/supplier-products/schemas';
import { listSupplierProducts } from '../../lib/supplier-products/service';
import { ok } from '../../lib/http/handler';

export const handler = httpHandler(routes.listProductSuppliers, { path: idPath, query: listSupplierProductsQuery }, async ({ path, query, principal }) =>
  ok(await listSupplierProducts(principal, { productId: path.id }, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the product's suppliers, in supplier id order.", body: supplierProductPageView },
  errors: { 400: 'A limit outside 1–100, or a cursor not from this list.', 404: "No such product in the caller's tenant." },
  description:
    'The suppliers who sell a product, each with its terms (code, pack, last cost, lead time, minimum order, preferred) and its name as it is now. Pages of `limit` (1–100, 50) with `nextCursor`.',
  notes: '`limit` 1–100 (50), `cursor`; `{ items, nextCursor }`',
  example: { path: { id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' }, query: { limit: '50' } },
});
