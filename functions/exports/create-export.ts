import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { MAX_EXPORT_PERIOD_DAYS, MAX_EXPORT_ROWS } from '../../lib/exports/model';
import { exportQueue } from '../../lib/exports/queue';
import { createExportBody, exportView } from '../../lib/exports/schemas';
import { createExport } from '../../lib/exports/service';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createExport, { body: createExportBody }, async ({ body, principal }) =>
  created(await createExport(principal, body, Date.now(), exportQueue())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 201,
    description: 'The job, `queued`. Follow it with GET /exports/{id} until it is `done`: its `download` is then a link to the file.',
    body: exportView,
  },
  errors: {
    400: `\`kind\` is not suppliers, products, stock-history or audit; \`from\` or \`to\` is not a day (YYYY-MM-DD), is missing for stock-history or audit, or is given for suppliers or products; \`to\` is before \`from\` or more than ${MAX_EXPORT_PERIOD_DAYS} days after it.`,
    403: 'An audit export by a caller who is not a tenant administrator, or an API key.',
  },
  access: 'any member of the tenant (audit: tenant administrator)',
  description: `Starts a CSV export for a spreadsheet, as Brazilian Excel reads it: \`;\` between cells, CRLF, UTF-8 with a BOM, decimals exact with a comma, instants in ISO 8601 (UTC), headers in Portuguese. \`suppliers\` and \`products\` use the column names POST /imports knows, so the file can be imported back. \`products\` is one row per product, by SKU, with its total on hand and one column per warehouse. \`stock-history\` (the movements) and \`audit\` (the tenant's audit trail, tenant administrators) cover a period of business days, \`from\` to \`to\` inclusive, at most ${MAX_EXPORT_PERIOD_DAYS} days, newest first. A file has at most ${MAX_EXPORT_ROWS.toLocaleString('en')} rows (beyond, the job fails: choose a shorter period) and is kept 7 days. At most 20 exports an hour per user.`,
  notes: 'any member (audit: tenant administrators); 201 with the queued job; 20 an hour',
  example: { body: { kind: 'stock-history', from: '2026-11-01', to: '2026-11-30' } },
});
