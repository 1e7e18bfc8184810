import { created, httpHandler } from '../../lib/http/handler';
import { movementBody } from '../../lib/inventory/schemas';
import { addMovement } from '../../lib/inventory/service';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.createMovement, { body: movementBody }, async ({ body, principal }) =>
  created(await addMovement(principal, body, Date.now())),
);
