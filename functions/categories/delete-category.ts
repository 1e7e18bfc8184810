import { deleteCategory } from '../../lib/categories/service';
import { idPath } from '../../lib/domain/fields';
import { httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.deleteCategory, { path: idPath }, async ({ path, principal }) => {
  await deleteCategory(principal, path.id, Date.now());
  return { status: 204 };
});

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 204, description: 'The category was deleted; its name is free again in the tenant.' },
  errors: {
    404: "No such category in the caller's tenant, or it was already deleted.",
    409: 'Products are in the category: move them to another category (PATCH their `categoryId`, or null) first.',
  },
  description:
    'Deletes a category no product is in. A product put in it meanwhile makes the delete fail with 409: the count is checked in the same transaction.',
  notes: '204 for a category without products; 409 otherwise',
  example: { path: { id: '5b0c8f4e-2d1a-4c3b-9e8f-7a6b5c4d3e2f' } },
});
