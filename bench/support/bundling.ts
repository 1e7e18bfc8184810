import { build } from 'esbuild';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The esbuild options the stack bundles each function with (infra/constructs/functions.ts),
 * so the benchmark measures the bundles that are deployed: ESM, minified, node22, no source
 * maps, the AWS SDK left to the Lambda runtime.
 */
export const LAMBDA_ESBUILD = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: false,
  mainFields: ['module', 'main'] as string[],
  external: ['@aws-sdk/*'] as string[],
  banner: { js: "import { createRequire as __backofficeCreateRequire } from 'node:module'; const require = __backofficeCreateRequire(import.meta.url);" },
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
