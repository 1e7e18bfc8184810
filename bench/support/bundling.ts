import { build } from 'esbuild';
import { mkdirSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { LAMBDA_ESBUILD } from '../../infra/bundling';

/**
 * Bundle one entry, as the stack bundles it (infra/bundling.ts: the AWS SDK inside), into
 * `outDir/<name>/index.mjs`; its size in bytes. Fails if the bundle still leaves an import
 * of a package (not a Node built-in) to the runtime: the figures would then leave out the time to load it.
 * `alias` swaps modules for a comparison (bench/tracing.ts: the function without Powertools Metrics).
 */
export async function bundle(entry: string, outDir: string, name: string, alias: Record<string, string> = {}): Promise<{ file: string; bytes: number }> {
  const dir = join(outDir, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.mjs');
  const { metafile } = await build({ ...LAMBDA_ESBUILD, alias: { ...LAMBDA_ESBUILD.alias, ...alias }, entryPoints: [entry], outfile: file, metafile: true });
  const external = Object.values(metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.external && !isBuiltin(imported.path))
    .map((imported) => imported.path);
  if (external.length) throw new Error(`${entry}: the bundle imports ${external.join(', ')} at run time`);
  return { file, bytes: statSync(file).size };
}
