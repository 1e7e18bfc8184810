/**
 * `npm run routes`: write what is derived from the route manifest and the handlers' specs
 * (scripts/route-artifacts.ts): each route's sample event under events/, the route
 * table of docs/routes.md and docs/deploy.md's `sam local invoke` list. Run it after adding or changing a route.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fromRoot } from '../infra/paths';
import { generatedFiles } from './route-artifacts';

let written = 0;
for (const [file, content] of generatedFiles()) {
  const target = fromRoot(file);
  if (existsSync(target) && readFileSync(target, 'utf8') === content) continue;
  writeFileSync(target, content);
  console.log(`wrote ${file}`);
  written += 1;
}
console.log(written ? `${written} file(s) updated` : 'every generated file is up to date');
