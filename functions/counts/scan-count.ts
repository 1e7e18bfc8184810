import { idPath } from '../../lib/domain/fields';
import { countLineView, scanBody } from '../../lib/counts/schemas';
import { scan } from '../../lib/counts/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.scanCount, { path: idPath, body: scanBody }, async ({ path, body, principal, idempotency }) =>
  ok(await scan(principal, path.id, body, Date.now(), idempotency)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The line of the product scanned, with its running count.', body: countLineView },
  errors: {
    400: 'Neither or both of gtin and sku, a quantity of 0, or a fraction of a product counted in whole units.',
    404: 'No such count, or no product with that GTIN or SKU (the problem names the code).',
    409: 'The count is not OPEN, the product is not one of a count of products, more units taken back than were counted, or the count has 5,000 lines.',
  },
  description:
    "Adds `quantity` (default 1) to the line of the product a barcode (`gtin`) or a `sku` names: what a scanner that reads one unit at a time sends. The line's first scan records the system's quantity at that moment; later scans add to what was counted. A negative `quantity` takes units back (an undo). Parallel scans of one product all count. With an `Idempotency-Key`, a scan sent again after a lost answer counts once.",
  notes: '`{ gtin }` or `{ sku }`, `quantity` default 1 (negative undoes); 404 names an unknown code',
  example: { path: { id: '7d2e0b6a-4f3c-4e5d-9a0b-1c2d3e4f5a6b' }, body: { gtin: '7891000315507' } },
});
