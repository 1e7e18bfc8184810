import { categoryView } from '../../lib/categories/schemas';
import { getCategory } from '../../lib/categories/service';
import { idPath } from '../../lib/domain/fields';
import { versionEtag } from '../../lib/domain/etag';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.getCategory, { path: idPath }, async ({ path, principal }) => {
  const category = await getCategory(principal, path.id);
  return { status: 200, body: category, headers: { ETag: versionEtag(category) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The category, with its `ETag`.', body: categoryView },
  responseHeaders: { ETag: { description: "The category's version, quoted: a PATCH's `If-Match`.", schema: { type: 'string' } } },
  errors: { 404: "No such category in the caller's tenant (unknown or another tenant's: which is not disclosed)." },
  description: "One product category of the caller's tenant, with the count of its products.",
  notes: "the category; 404 unknown or another tenant's",
  example: { path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f' } },
});
