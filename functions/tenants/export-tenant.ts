import { idPath } from '../../lib/domain/fields';
import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { startTenantExport } from '../../lib/tenants/export';
import { tenantExportView } from '../../lib/tenants/schemas';

export const handler = httpHandler(routes.exportTenant, { path: idPath }, async ({ path, principal }) =>
  created(await startTenantExport(principal, path.id, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 201,
    description: 'The export started (`running`): GET /tenants/{id}/exports/{exportId} tells when it is done and gives its download links.',
    body: tenantExportView,
  },
  errors: {
    403: 'The caller is not a platform administrator.',
    404: 'No such tenant.',
    409: 'The deletion of the tenant has started.',
  },
  access: 'platform administrator',
  description:
    "Starts a job that writes every item of the tenant, active or closed, as NDJSON (one item per line, DynamoDB's plain JSON), with `manifest.json` (the tenant, each file with its lines and SHA-256, the lines per item kind, and what was left out) and `manifest.json.sha256`. Secrets are left out and listed in the manifest: the credentials (password hashes, TOTP secrets, recovery codes), webhook signing secrets, second-factor challenges, password-reset tokens, Idempotency-Key records, rate-limit counters, and every attribute named as a hash or a secret (API key hashes, token hashes). Recorded as `tenant.exported` in the platform's trail.",
  notes: 'platform administrators; NDJSON + manifest.json + SHA-256, secrets left out; poll GET /tenants/{id}/exports/{exportId}',
  example: { path: { id: '9b2e41c0-5d1a-4c7e-8f3b-2a6d9e0c4b71' }, platformAdmin: true },
});
