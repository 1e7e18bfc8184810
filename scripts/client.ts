/**
 * `npm run client`: regenerate the typed browser client's types (clients/typescript/src/schema.ts)
 * from the OpenAPI document, the one `npm run openapi` writes to docs/openapi.json, built
 * afresh (clients/typescript/generate.ts). Run it after changing a route or its docs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fromRoot } from '../infra/paths';
import { generateSchema, SCHEMA_FILE } from '../clients/typescript/generate';

const content = await generateSchema();
const target = fromRoot(SCHEMA_FILE);
if (existsSync(target) && readFileSync(target, 'utf8') === content) {
  console.log(`${SCHEMA_FILE} is up to date`);
} else {
  writeFileSync(target, content);
  console.log(`wrote ${SCHEMA_FILE}`);
}
