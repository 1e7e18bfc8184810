import { auditEventPageView, auditEventsQuery } from '../../lib/audit/schemas';
import { listAuditEvents } from '../../lib/audit/service';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listAuditEvents, { query: auditEventsQuery }, async ({ query, principal }) =>
  ok(await listAuditEvents(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A page of audit entries, newest first.', body: auditEventPageView },
  errors: { 403: 'The caller is not a tenant administrator, or asked for `scope=platform` without the platform administrator profile.' },
  access: 'tenant administrator',
  description: [
    "The caller's tenant's audit trail (tenant administrators), or with `scope=platform` the platform's own (tenants created, administrators promoted, logins of unknown e-mails; platform administrators only). Entries are kept for the retention period and never change.",
    '',
    "Filters combine: `actorId` (a user id, or `system` for jobs and scripts), `action`, `resourceType`, `resourceId`, and `from`/`to` (inclusive; a day `YYYY-MM-DD` is the whole business day in the business time zone, America/Sao_Paulo by default; or give an ISO 8601 date-time). `limit` is 1 to 100 (default 50). `nextCursor` is null on the last page; pass it as `cursor` with the same filters and `scope` for the next one. A cursor is bound to the tenant, the trail and the filters: an edited one, another tenant's, or one used with other filters is a 400. Any other query parameter is a 400.",
    '',
    "Each page is one read of one list, chosen by the first filter given in this order: `resourceId` reads the resource's list; else `actorId` the actor's list; else `action` the trail by action; else `resourceType` the trail by resource type; with none, the whole trail. (A failed login of an unknown caller is kept in the trail alone: it is listed unfiltered, by `action` and by time.) Any further filter is checked on the entries that read returns, so **with more than one filter a page may hold fewer than `limit` entries (even none) while `nextCursor` is not null**: keep following it until it is null. The lists by action and by resource type are eventually consistent (an entry shows there within about a second).",
  ].join('\n'),
  notes:
    'tenant administrators (`scope=platform`: platform administrators); `actorId`, `action`, `resourceType`, `resourceId`, `from`/`to`, `limit` 1–100 (50), `cursor`; `{ items, nextCursor }` newest first',
  example: { query: { action: 'user.role_changed', from: '2026-11-01', to: '2026-11-30', limit: '20' } },
});
