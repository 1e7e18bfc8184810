import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { reorderSettingsBody, reorderSettingsView } from '../../lib/purchasing/schemas';
import { setReorderSettings } from '../../lib/purchasing/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.setReorderSettings, { path: idPath, body: reorderSettingsBody }, async ({ path, body, principal }) =>
  ok(await setReorderSettings(principal, path.id, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'The settings as set.', body: reorderSettingsView },
  errors: {
    400: 'A field breaks its rule (days outside their range, more than 3 decimal places).',
    404: "No such product or warehouse in the caller's tenant.",
  },
  description:
    "Sets a product's reorder settings for one warehouse (`warehouseId`) or for every warehouse without its own: `reorderPoint` (buy when available + on order falls below it; null: none), `targetDays` (the days of sales an order should cover, default 30) and `safetyDays` (the margin over the supplier's lead time, default 3). Replaces what was set for that warehouse. Purchase suggestions read them.",
  notes: '200 the settings; 404 product or warehouse',
  example: { path: { id: '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b' }, body: { reorderPoint: 24, targetDays: 30, safetyDays: 3 } },
});
