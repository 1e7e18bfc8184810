import { eventPageView, eventsQuery } from '../../lib/events/schemas';
import { listEvents } from '../../lib/events/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listEvents, { query: eventsQuery }, async ({ query, principal }) =>
  ok(await listEvents(principal, query, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's events, oldest first.", body: eventPageView },
  errors: { 403: 'The caller is not a tenant administrator (nor an API key with `events: read`).' },
  access: 'tenant administrator',
  description: [
    "The tenant's domain events of the last 30 days, oldest first (tenant administrators, and API keys with `events: read`): each change to companies, suppliers, products, warehouses, stock movements and users, written in the same transaction as the change, so an event exists if and only if its change does. A receiver that was down catches up here, from `from`, following `nextCursor`.",
    '',
    'Events are thin: `{ id, type, timestamp, data }`, `data` holding the resource id, the tenant and the few fields a receiver routes on; read the rest with an API key. `type` filters by event type (that list is eventually consistent: an event shows in it within about a second). `nextCursor` is null when nothing newer exists yet.',
  ].join('\n'),
  notes: 'tenant administrators or `events: read` keys; `type`, `from`, `limit` 1–100 (100), `cursor`; `{ items, nextCursor }` oldest first; 30 days',
  example: { query: { type: 'stock_movement.created', from: '2026-11-01' } },
});
