import type { BuildOptions } from 'esbuild';
import path from 'node:path';
import { repoRoot } from './paths';

/**
 * How every function is bundled: the one definition the stack (infra/constructs/functions.ts),
 * the benchmark (bench/support/bundling.ts) and the bundle test (test/infra/bundling.test.ts)
 * all use, so the measured bundles are the deployed ones.
 *
 * ESM, minified, node22, no source maps, and the AWS SDK v3 inside the bundle, tree-shaken
 * from its ESM builds (`module` first: the SDK's dist-es). It is not left to the Lambda
 * runtime's copy: measured on this machine (bench/cold-start.ts, fresh Node processes),
 * importing a bundle that contains the DynamoDB document client took about 0.54 times the
 * wall time of the same code with the SDK external and loaded from node_modules, and
 * 13 MB less memory; the AWS SDK team also advises bundling and minifying the v3 clients.
 * The deployed SDK is the lockfile's, not whatever the runtime ships that month.
 */
export const BUNDLE_TARGET = 'node22';
export const BUNDLE_MAIN_FIELDS = ['module', 'main'];
/** Nothing is external: the SDK is bundled (an empty list also stops CDK's default `@aws-sdk/*`). */
export const BUNDLE_EXTERNAL_MODULES: string[] = [];

/**
 * Modules the bundles take from somewhere else. The clients' default credential chain
 * (`@aws-sdk/credential-provider-node`: SSO, ini files, credential_process, web identity,
 * the ECS and EC2 metadata endpoints, and the STS / SSO / sign-in clients they use) becomes
 * its first link alone, the environment (lib/aws/env-credentials.ts): on Lambda the runtime
 * puts the role's credentials there, and the full chain would return those same ones. It
 * took 130 KB out of every bundle. Unbundled runs (tsx locally, the tests) keep the real chain.
 *
 * Paths are relative to the repository root, where esbuild runs (`absWorkingDir` below; CDK
 * runs it there too, and in /asset-input under Docker).
 */
export const BUNDLE_ALIASES: Record<string, string> = {
  '@aws-sdk/credential-provider-node': './lib/aws/env-credentials.ts',
};

/**
 * The tsconfig every file is compiled with, node_modules included (given explicitly, as CDK
 * passes it; otherwise esbuild would not apply it to the SDK's files, and the output
 * would differ from the deployed one, by the `"use strict"` of its lazily-initialized modules).
 */
export const BUNDLE_TSCONFIG = path.join(repoRoot, 'tsconfig.json');

/**
 * Statements the bundles leave out: each handler's `ROUTE_DOCS: describeRoute(...)`, its
 * response schemas and prose for the tooling (lib/http/route-docs.ts); and `IN_PROCESS: {…}`,
 * the fallback that runs a background job in the caller's process when there is neither a
 * queue nor npm start's folder (a test calling a service), which would put the job's engine
 * and the S3 client in a route's bundle (lib/tenant-jobs/queue.ts). With package.json's
 * `"sideEffects": false`, a module that only these imported (a view schema, and through
 * it classic zod; the engine) goes too.
 */
export const BUNDLE_DROP_LABELS = ['ROUTE_DOCS', 'IN_PROCESS'];

/**
 * The ESM bundle has no `require`, but some CommonJS dependencies that esbuild inlines
 * still call it for Node built-ins. Define one from `createRequire`, under an alias so it
 * cannot clash with identifiers of the minified bundle.
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire as __backofficeCreateRequire } from 'node:module'; const require = __backofficeCreateRequire(import.meta.url);";

/**
 * The same settings as esbuild options: what the stack's NodejsFunction bundling runs.
 *
 * One output file, no `splitting` (NodejsFunction writes a single index.mjs). A dynamic
 * `import()` of a bundled module is then inlined behind an init function that runs on the
 * first `import()`: not evaluated at cold start, but in the bundle, parsed, and not
 * tree-shaken (esbuild keeps every export of a module it wraps so). Hence the SES and
 * Secrets Manager clients are imported statically, by name, by the only modules that use
 * them (lib/mail/mailer.ts, lib/secrets.ts): the functions that neither send mail nor read
 * a key do not hold them at all, and the others hold the two or three classes they use.
 * test/infra/bundling.test.ts checks what each kind of function holds.
 */
export const LAMBDA_ESBUILD = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: BUNDLE_TARGET,
  minify: true,
  sourcemap: false,
  mainFields: BUNDLE_MAIN_FIELDS,
  external: BUNDLE_EXTERNAL_MODULES,
  alias: BUNDLE_ALIASES,
  absWorkingDir: repoRoot,
  tsconfig: BUNDLE_TSCONFIG,
  dropLabels: BUNDLE_DROP_LABELS,
  banner: { js: ESM_REQUIRE_BANNER },
  logLevel: 'error',
} as const satisfies BuildOptions;
