import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * One `npx cdk synth` per run for the infra tests that need the bundled assembly (the stack's
 * template and report, and the bundles `npm run invoke` runs), instead of one per test file:
 * bundling every function is most of a synth. This gives the run the folder; the first test
 * file that needs the assembly synthesizes into it, and the others wait for it
 * (test/infra/synth.ts, `sharedSynthesis`).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's shared synthesis writes its cloud assembly and its status file. */
    assemblyDir: string;
  }
}

let dir: string | undefined;

export function setup(project: TestProject): void {
  dir = mkdtempSync(path.join(tmpdir(), 'backoffice-assembly-'));
  project.provide('assemblyDir', dir);
}

export function teardown(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}
