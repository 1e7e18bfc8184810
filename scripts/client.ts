/**
 * `npm run client`: regenerate the typed browser client's types (clients/typescript/src/schema.ts)
 * and its enumerations as arrays (src/enums.ts)
 * from the OpenAPI document, the one `npm run openapi` writes to docs/openapi.json, built
 * afresh (clients/typescript/generate.ts). Run it after changing a route or its docs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fromRoot } from '../infra/paths';
import { ENUMS_FILE, generateEnums, generateSchema, SCHEMA_FILE } from '../clients/typescript/generate';

for (const [file, content] of [
  [SCHEMA_FILE, await generateSchema()],
  [ENUMS_FILE, generateEnums()],
] as const) {
  const target = fromRoot(file);
  if (existsSync(target) && readFileSync(target, 'utf8') === content) {
    console.log(`${file} is up to date`);
  } else {
    writeFileSync(target, content);
    console.log(`wrote ${file}`);
  }
}
