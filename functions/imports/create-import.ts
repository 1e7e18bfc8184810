import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { MAX_IMPORT_ROWS } from '../../lib/imports/model';
import { createImportBody, importCreatedView } from '../../lib/imports/schemas';
import { createImport } from '../../lib/imports/service';
import { importUploadLinks } from '../../lib/imports/storage';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.createImport, { body: createImportBody }, async ({ body, principal }) =>
  created(await createImport(principal, body, Date.now(), importUploadLinks())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 201,
    description:
      'The job, waiting for its file, and `upload`: PUT the file there, with those headers, within 15 minutes. Its arrival starts the job; follow it with GET /imports/{id}.',
    body: importCreatedView,
  },
  errors: {
    400: '`kind` is not suppliers or products, `fileName` is empty or over 200 characters, or `size` is not a whole number from 1 to 10485760 (10 MB).',
    403: 'The caller is not a tenant administrator, or is an API key.',
  },
  access: 'tenant administrator',
  description: `Starts a bulk import from a CSV file as spreadsheets write it in Brazil (\`;\` or \`,\` separators, decimal comma, UTF-8 with or without a BOM, or Windows-1252; headers in Portuguese or English, e.g. \`Razão Social\`, \`CNPJ/CPF\`, \`Código\`, \`Descrição\`). Up to 10 MB and ${MAX_IMPORT_ROWS.toLocaleString('en')} rows. Every row is checked with the rules of POST /suppliers or POST /inventory/products; a dry run (\`dryRun: true\`) reports and writes nothing. A real run creates each valid row as that route does (its audit entry, event and indexes), as the caller. A row whose document or SKU the tenant already has is counted as \`existing\` and left as it is, so the same file imported twice creates nothing twice. At most 20 imports an hour per administrator.`,
  notes: 'tenant administrators; 201 with an upload link for the file; dry run or real; 20 an hour',
  example: { body: { kind: 'products', dryRun: true, fileName: 'produtos-bling.csv', size: 48213 } },
});
