import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { readTenantExport } from '../../lib/tenants/export';
import { tenantExportPath, tenantExportView } from '../../lib/tenants/schemas';

export const handler = httpHandler(routes.getTenantExport, { path: tenantExportPath }, async ({ path, principal }) =>
  ok(await readTenantExport(principal, path.id, path.exportId, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: "The export's status, and once it succeeded the links to its manifest, checksum and data files (15 minutes).",
    body: tenantExportView,
  },
  errors: {
    403: 'The caller is not a platform administrator.',
    404: 'No such export of this tenant.',
  },
  access: 'platform administrator',
  description:
    'An export started by POST /tenants/{id}/export: `running`, then `succeeded` with `downloads` (presigned GET links valid 15 minutes: ask again for new ones) and `manifestSha256`, the SHA-256 of manifest.json.',
  notes: 'platform administrators; links valid 15 minutes',
  example: { path: { id: '9b2e41c0-5d1a-4c7e-8f3b-2a6d9e0c4b71', exportId: '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a' }, platformAdmin: true },
});
