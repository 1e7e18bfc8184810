import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';
import { listSuppliersQuery } from '../../lib/suppliers/queries';
import { supplierPageView } from '../../lib/suppliers/schemas';
import { listSuppliers } from '../../lib/suppliers/service';

export const handler = httpHandler(routes.listSuppliers, { query: listSuppliersQuery }, async ({ query, principal }) =>
  ok(await listSuppliers(principal, query, Date.now(), routeLimit(routes.listSuppliers, 'user', 'searches'))),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of suppliers by name.', body: supplierPageView },
  description:
    'Search is case- and accent-insensitive over trade name, legal name and e-mail; documents and phones match with or without punctuation. Searches are limited per user (30 a minute; 429 past them); pages without `search` are not. Any other query parameter is a 400.',
  notes: '`page`, `limit` (1 to 100), `search` (up to 100 characters; 30 searches a minute per user); `{ data, total, page, limit }` by name',
  example: { query: { page: '1', limit: '10', search: 'cafe' } },
});
