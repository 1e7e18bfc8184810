import { httpHandler, ok } from '../../lib/http/handler';
import { listWarehouses } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listWarehouses, {}, async ({ principal }) => ok(await listWarehouses(principal)));
