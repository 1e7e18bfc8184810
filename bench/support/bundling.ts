import { build } from 'esbuild';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE_EXTERNAL_MODULES, BUNDLE_MAIN_FIELDS, BUNDLE_TARGET, ESM_REQUIRE_BANNER } from '../../infra/bundling';

/**
 * The esbuild options the stack bundles each function with (infra/bundling.ts, used by
 * infra/constructs/functions.ts), so the benchmark measures the bundles that are deployed.
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
  banner: { js: ESM_REQUIRE_BANNER },
  logLevel: 'error',
} as const;

/** Bundle one entry into `outDir/<name>/index.mjs`; its size in bytes. */
export async function bundle(entry: string, outDir: string, name: string): Promise<{ file: string; bytes: number }> {
  const dir = join(outDir, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.mjs');
  await build({ ...LAMBDA_ESBUILD, entryPoints: [entry], outfile: file });
  return { file, bytes: statSync(file).size };
}
