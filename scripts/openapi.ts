/**
 * `npm run openapi [-- <file>]`: write the OpenAPI 3.1 document of the whole API, generated
 * from the route manifest and the handlers' zod schemas (tools/openapi), to `<file>`
 * (default `docs/openapi.json`). `npm start` serves the same document at GET /openapi.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { buildOpenApiDocument } from '../tools/openapi/document';

const DEFAULT_FILE = 'docs/openapi.json';

/** The file relative to the working directory when it is inside it. */
const shown = (file: string) => (file.startsWith(`${process.cwd()}/`) ? relative(process.cwd(), file) : file);

function main(): void {
  const args = process.argv.slice(2);
  if (args.length > 1 || args[0]?.startsWith('-')) {
    console.error('usage: npm run openapi [-- <file>]   (default docs/openapi.json)');
    process.exit(2);
  }
  const file = resolve(args[0] ?? DEFAULT_FILE);
  const document = buildOpenApiDocument();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  const operations = Object.values(document.paths).reduce((count, item) => count + Object.keys(item).length, 0);
  console.log(`OpenAPI ${document.openapi} document, version ${document.info.version}: ${operations} operations written to ${shown(file)}`);
}

main();
