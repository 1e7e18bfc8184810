import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The repository root: route handler paths in the manifest are relative to it. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Absolute path of a repository-relative file. */
export function fromRoot(relativePath: string): string {
  return path.join(repoRoot, relativePath);
}
