import { listActiveSessions } from '../../lib/auth/sessions';
import { httpHandler, ok } from '../../lib/http/handler';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.listSessions, {}, async ({ principal }) => ok(await listActiveSessions(principal, Date.now())));
