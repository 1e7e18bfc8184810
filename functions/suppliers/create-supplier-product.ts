import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { createSupplierProductBody, supplierProductView } from '../../lib/supplier-products/schemas';
import { linkSupplierProduct, supplierProductEtag } from '../../lib/supplier-products/service';

export const handler = httpHandler(
  routes.createSupplierProduct,
  { path: idPath, body: createSupplierProductBody },
  async ({ path, body, principal, idempotency }) => {
    const link = await linkSupplierProduct(principal, path.id, body, Date.now(), idempotency);
    return { status: 201, body: link, headers: { ETag: supplierProductEtag(link) } };
  },
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 201,
    description: "The supplier's terms for the product, with the product's SKU and name and the link's `ETag`.",
    body: supplierProductView,
  },
  responseHeaders: { ETag: { description: "The link's version, quoted: a PATCH's or DELETE's `If-Match`.", schema: { type: 'string' } } },
  errors: {
    400: 'A field breaks its rule (a lead time outside 0–365, a pack of 0, more than 3 decimal places in a quantity or 4 in a cost).',
    404: "No such supplier or product in the caller's tenant.",
    409: "The supplier already sells the product (change it with PATCH), or its `supplierCode` is the supplier's code for another product.",
  },
  description:
    "Records that a supplier sells a product: its own code for it (the `cProd` of its NF-e, unique per supplier whatever its case: what matches its invoices' items), its unit and how many of the product's units one holds (`unitsPerPack`: a box of 12), the last cost of one of the product's units (every receipt from the supplier sets it), the lead time in days (0–365, default 7) and the minimum order. A product may have several suppliers; `preferred: true` makes this one the product's preferred supplier (the one before is no longer), whom purchase suggestions buy from. Neither the supplier nor the product can be deleted while linked. With an `Idempotency-Key`, a retry records it once.",
  notes: '201 with ETag; 409 already linked or code taken; 404 supplier or product',
  example: {
    path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f' },
    body: {
      productId: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b',
      supplierCode: 'CAF-500',
      unit: 'CX',
      unitsPerPack: 12,
      lastCost: 8.5,
      leadTimeDays: 7,
      preferred: true,
    },
  },
});
