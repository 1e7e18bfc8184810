import { apiKeySecretView, createApiKeyBody } from '../../lib/api-keys/schemas';
import { createApiKey } from '../../lib/api-keys/service';
import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createApiKey, { body: createApiKeyBody }, async ({ body, principal }) =>
  created(await createApiKey(principal, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The key, with its whole text in `key`: shown this once, only its SHA-256 is kept.', body: apiKeySecretView },
  errors: {
    400: '`scopes` grants nothing, `expiresAt` is not in the future, or `companyId` is no company of the tenant.',
    403: 'The caller is not a tenant administrator, or is an API key (a key cannot make a key).',
  },
  access: 'tenant administrator',
  description:
    'Creates an API key for a system that feeds the back-office (a point of sale, an online store, an ERP): `scopes` grants `none`, `read` or `write` per resource (companies, suppliers, inventory; dashboards and audit at most `read`), optionally until `expiresAt` and for one company (`companyId`). The answer carries the key once; every administrator of the tenant is told by e-mail. Not idempotent: a retry makes a second key, which DELETE revokes. At most 20 key changes per hour per administrator.',
  notes: 'tenant administrators; 201 with `key` shown once; scopes none/read/write per resource; e-mails the administrators; 20 per hour',
  example: { body: { name: 'PDV Loja Centro', scopes: { inventory: 'write', dashboards: 'read' } } },
});
