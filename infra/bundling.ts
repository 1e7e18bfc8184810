import type { BuildOptions } from 'esbuild';

/**
 * How every function is bundled: the one definition the stack (infra/constructs/functions.ts),
 * the benchmark (bench/support/bundling.ts) and the bundle test (test/infra/bundling.test.ts)
 * all use, so the measured bundles are the deployed ones.
 *
 * ESM, minified, node22, no source maps. The AWS SDK v3 is left to the Lambda runtime,
 * which ships it (CDK's own default for Node.js 18+): it is about 340 KB of every bundle
 * otherwise, and loading it from the runtime costs the same at cold start. The trade-off is
 * that the deployed SDK is the runtime's, which AWS keeps current, not the lockfile's.
 */
export const BUNDLE_TARGET = 'node22';
export const BUNDLE_MAIN_FIELDS = ['module', 'main'];
export const BUNDLE_EXTERNAL_MODULES = ['@aws-sdk/*'];

/**
 * Statements the bundles leave out: each handler's `ROUTE_DOCS: describeRoute(...)`, its
 * response schemas and prose for the tooling (lib/http/route-docs.ts). With package.json's
 * `"sideEffects": false`, a module that only the docs imported (a view schema, and through
 * it classic zod) goes too.
 */
export const BUNDLE_DROP_LABELS = ['ROUTE_DOCS'];

/**
 * The ESM bundle has no `require`, but some CommonJS dependencies that esbuild inlines
 * still call it for Node built-ins. Define one from `createRequire`, under an alias so it
 * cannot clash with identifiers of the minified bundle.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __backofficeCreateRequire } from 'node:module'; const require = __backofficeCreateRequire(import.meta.url);";

/** The same settings as esbuild options: what the stack's NodejsFunction bundling runs. */
export const LAMBDA_ESBUILD = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLE_TARGET,
  minify: true,
  sourcemap: false,
  mainFields: BUNDLE_MAIN_FIELDS,
  external: BUNDLE_EXTERNAL_MODULES,
  dropLabels: BUNDLE_DROP_LABELS,
  banner: { js: ESM_REQUIRE_BANNER },
  logLevel: 'error',
} as const satisfies BuildOptions;
