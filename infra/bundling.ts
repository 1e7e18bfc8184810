/**
 * How every function is bundled: the one definition the stack (infra/constructs/functions.ts)
 * and the benchmark (bench/support/bundling.ts) both use, so the measured bundles are the
 * deployed ones.
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
 * The ESM bundle has no `require`, but some CommonJS dependencies that esbuild inlines
 * still call it for Node built-ins. Define one from `createRequire`, under an alias so it
 * cannot clash with identifiers of the minified bundle.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __backofficeCreateRequire } from 'node:module'; const require = __backofficeCreateRequire(import.meta.url);";
