import { idPath } from '../../lib/domain/fields';
import { exportView } from '../../lib/exports/schemas';
import { getExport } from '../../lib/exports/service';
import { exportDownloads } from '../../lib/exports/storage';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.getExport, { path: idPath }, async ({ path, principal }) =>
  ok(await getExport(principal, path.id, Date.now(), exportDownloads())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'The job: its status, the rows written and, once it is done, `download`: a link to the file valid 15 minutes (ask again for a fresh one).',
    body: exportView,
  },
  errors: {
    403: 'The caller is an API key.',
    404: "No such export in the caller's tenant, or another user's (a tenant administrator reads every export of the tenant; an audit export, only a tenant administrator).",
  },
  access: 'the member who started it, or a tenant administrator',
  description:
    'Follow an export: `status` goes from `queued` to `running` (`rows` counts as it goes) to `done` (`download` is set) or `failed` (`failure` says why). Poll every few seconds while it runs. The file is kept 7 days.',
  notes: "the job's state and its download link",
  example: { path: { id: '6b1f3c0e-2a4d-4c8e-9f1a-7d2e5b3c9a10' } },
});
