import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { listSupplierProductsQuery, supplierProductPageView } from '../../lib/supplier-products/schemas';
import { listSupplierProducts } from '../../lib/supplier-products/service';
import { ok } from '../../lib/http/handler';

export const handler = httpHandler(routes.listSupplierProducts, { path: idPath, query: listSupplierProductsQuery }, async ({ path, query, principal }) =>
  ok(await listSupplierProducts(principal, { supplierId: path.id }, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the supplier's products, in product id order.", body: supplierProductPageView },
  errors: { 400: 'A limit outside 1–100, or a cursor not from this list.', 404: "No such supplier in the caller's tenant." },
  description:
    "The products a supplier sells with its terms for each, and each product's SKU and name as they are now. Pages of `limit` (1–100, 50) with `nextCursor`.",
  notes: '`limit` 1–100 (50), `cursor`; `{ items, nextCursor }`',
  example: { path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f' }, query: { limit: '50' } },
});
