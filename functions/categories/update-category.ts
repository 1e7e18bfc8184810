import { categoryBody, categoryView } from '../../lib/categories/schemas';
import { renameCategory } from '../../lib/categories/service';
import { idPath } from '../../lib/domain/fields';
import { versionEtag } from '../../lib/domain/etag';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.updateCategory, { path: idPath, body: categoryBody }, async ({ path, body, principal, request }) => {
  const category = await renameCategory(principal, path.id, body, request.ifMatch, Date.now());
  return { status: 200, body: category, headers: { ETag: versionEtag(category) } };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The category as renamed, with its new `ETag`.', body: categoryView },
  requestHeaders: {
    'If-Match': {
      description:
        'The `ETag` of the category as the client read it (`"3"`; several, comma-separated, match any). The change applies only to that version: if someone changed the category since, 412 and nothing changes. Without it, or with `*`, the change applies to the category as it is.',
      schema: { type: 'string', examples: ['"1"'] },
    },
  },
  responseHeaders: { ETag: { description: "The category's version after the change, quoted: the next change's `If-Match`.", schema: { type: 'string' } } },
  errors: {
    400: 'The name breaks its rule, or the If-Match is not an ETag.',
    404: "No such category in the caller's tenant.",
    409: 'Another category of the tenant has this name, whatever its case and accents.',
    412: 'The category changed since the `If-Match` version was read.',
  },
  description:
    "Renames a category. Its products keep it (they hold its id): every view of them shows the new name's category at once. One transaction with its audit entry (the name before and after).",
  notes: '`If-Match` (ETag) or 412; 409 name taken',
  example: { path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f' }, body: { name: 'Mercearia seca' } },
});
