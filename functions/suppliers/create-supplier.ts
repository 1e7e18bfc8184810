import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { createSupplierBody, supplierView } from '../../lib/suppliers/schemas';
import { createSupplier } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.createSupplier, { body: createSupplierBody }, async ({ body, principal, idempotency }) =>
  created(await createSupplier(principal, body, Date.now(), idempotency)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The supplier.', body: supplierView },
  errors: { 409: 'A supplier of the tenant already has this document.' },
  description:
    "Creates a supplier in the caller's tenant. Its document (a CPF or a CNPJ, check digits verified) is unique in the tenant; the answer shows it formatted and the phone in E.164. A supplier is active unless `active: false` is given.",
  notes: '201 Supplier (document formatted, phone E.164); 409 document used in the tenant',
  example: {
    body: {
      name: 'Café do Sul',
      corporateName: 'Café do Sul Comércio Ltda',
      document: '11222333000181',
      email: 'vendas@cafedosul.example',
      phone: '+55 51 3333-4444',
    },
  },
});
