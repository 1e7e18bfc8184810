import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { listPageQuery } from '../../lib/pages';
import * as routes from '../../lib/routes';
import { webhookEndpointListView } from '../../lib/webhooks/schemas';
import { listEndpoints } from '../../lib/webhooks/service';

export const handler = httpHandler(routes.listWebhookEndpoints, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listWebhookEndpoints.path, query, await listEndpoints(principal, query)),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's webhook endpoints: never a secret.", body: webhookEndpointListView },
  errors: { 403: 'The caller is not a tenant administrator, or is an API key.' },
  linkPages: true,
  access: 'tenant administrator',
  description:
    "The tenant's webhook endpoints (tenant administrators): URL, event types, description, whether enabled and, when not, why. Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'tenant administrators; no secrets; `limit` 1–100 (100), `cursor`; next page in `Link`',
});
