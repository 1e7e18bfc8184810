import { idPath } from '../../lib/domain/fields';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { importView } from '../../lib/imports/schemas';
import { getImport } from '../../lib/imports/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.getImport, { path: idPath }, async ({ path, principal }) => ok(await getImport(principal, path.id, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description: 'The job: its status, its counts so far, the refused rows (line, column, message) and an estimate of the time left.',
    body: importView,
  },
  errors: {
    403: 'The caller is not a tenant administrator, or is an API key.',
    404: "No such import in the caller's tenant (jobs are kept 30 days).",
  },
  access: 'tenant administrator',
  description:
    'Follow an import: `status` goes from `awaiting_upload` to `running` to `succeeded` (refused rows do not fail a job) or `failed` (the file is not readable CSV, or lacks a required column: `failure` says which). Poll every few seconds while it runs.',
  notes: "the job's progress and report; tenant administrators",
  example: { path: { id: '3f0c9a52-7d41-4e8b-9c2a-5b6e1d0f8a34' } },
});
