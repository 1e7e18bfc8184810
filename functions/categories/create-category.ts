import { categoryBody, categoryView } from '../../lib/categories/schemas';
import { createCategory } from '../../lib/categories/service';
import { versionEtag } from '../../lib/domain/etag';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createCategory, { body: categoryBody }, async ({ body, principal, idempotency }) => {
  const category = await createCategory(principal, body, Date.now(), idempotency);
  return { status: 201, body: category, headers: { ETag: versionEtag(category) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The category, with its `ETag`.', body: categoryView },
  responseHeaders: { ETag: { description: "The category's version, quoted: a PATCH's `If-Match`.", schema: { type: 'string' } } },
  errors: { 409: 'Another category of the tenant has this name, whatever its case and accents (the detail names it).' },
  description:
    "Creates a product category in the caller's tenant: a name of up to 120 characters, unique in the tenant whatever its case and accents (`Bebidas` and `BEBÍDAS` are one name). Products join it with `categoryId`; its `productCount` counts them.",
  notes: '201 the category and its `ETag`; 409 name taken (case- and accent-insensitive)',
  example: { body: { name: 'Mercearia' } },
});
