import { build } from 'esbuild';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LAMBDA_ESBUILD } from '../../infra/bundling';

/** Bundle one entry, as the stack bundles it (infra/bundling.ts), into `outDir/<name>/index.mjs`; its size in bytes. */
export async function bundle(entry: string, outDir: string, name: string): Promise<{ file: string; bytes: number }> {
  const dir = join(outDir, name);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.mjs');
  await build({ ...LAMBDA_ESBUILD, entryPoints: [entry], outfile: file });
  return { file, bytes: statSync(file).size };
}
