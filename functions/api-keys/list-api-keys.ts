import { apiKeyListView } from '../../lib/api-keys/schemas';
import { listApiKeys } from '../../lib/api-keys/service';
import { httpHandler } from '../../lib/http/handler';
import { pageReply } from '../../lib/http/pages';
import { describeRoute } from '../../lib/http/route-docs';
import { listPageQuery } from '../../lib/pages';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.listApiKeys, { query: listPageQuery }, async ({ query, principal }) =>
  pageReply(routes.listApiKeys.path, query, await listApiKeys(principal, query, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: "A page of the tenant's API keys, newest first: never a secret or its hash.", body: apiKeyListView },
  errors: { 403: 'The caller is not a tenant administrator.' },
  linkPages: true,
  access: 'tenant administrator',
  description:
    "The tenant's API keys, newest first (tenant administrators): name, scopes, company, prefix, who made it and when, expiry, last use (to within 5 minutes, and from which address). Pages of `limit` (1 to 100, default 100); the next page's address is in the `Link` header.",
  notes: 'tenant administrators; newest first; no secrets; `limit` 1–100 (100), `cursor`; next page in `Link`',
});
