import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';
import { listSuppliersQuery } from '../../lib/suppliers/schemas';
import { listSuppliers } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.listSuppliers, { query: listSuppliersQuery }, async ({ query, principal }) =>
  ok(await listSuppliers(principal, query)),
);
