import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The AWS SDK warns, once per process, that its releases after January 2027 will need Node 22.
 * The Lambda runtime is Node 22 already; the tests also run on Node 20.19 (package.json
 * `engines`), where every worker, every spawned tool and the local API would print that same
 * nine-line warning (dozens of times a run) and bury real failures. Silenced here, for the test
 * processes and their children only, with the SDK's own switch; `npm start` and the tools still
 * print it once on Node 20.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * The DynamoDB Locals of a test run live a few minutes and serve small requests: the JVM's
 * optimizing compiler (C2) and parallel collector cost more CPU there than they save. The
 * quick compiler only and the serial collector took about a third off their CPU in a run (109
 * to 74 s). For the test processes and their children only (the JVM reads JAVA_TOOL_OPTIONS
 * itself); `npm start` and the benchmarks, where DynamoDB Local runs long, keep the defaults.
 */
process.env.JAVA_TOOL_OPTIONS ??= '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC';

/**
 * The unit and handler test files share one module graph per worker (vitest `isolate: false`):
 * importing lib/ and the AWS SDK once per worker instead of once per file. A file that replaces
 * a module with `vi.mock` cannot share it: the module may already be loaded, unmocked, by an
 * earlier file. Those files run isolated, in a project of their own (below), and
 * test/unit/module-mocks.test.ts fails when a file mocks a module without being listed here.
 */
export const FILES_THAT_MOCK_MODULES = [
  'test/unit/jobs.test.ts',
  'test/handlers/login.test.ts',
  'test/handlers/password-reset.test.ts',
  'test/handlers/register.test.ts',
  'test/handlers/export-worker.test.ts',
  'test/unit/local-imports.test.ts',
];

/**
 * Console output a passing run does not need: the local outbox's echo of each e-mail (the
 * tests read the outbox files), and the validation report an in-process synth prints (a
 * failing synth throws it, and the one warning of the dev defaults is asserted by a test).
 */
function quiet(log: string): false | undefined {
  if (log.startsWith('[mail] ') || log.includes('A copy of this report can be found in:')) return false;
  return undefined;
}

/** Projects whose files run long (a local API, a synth): started first, so the run does not end on them. */
const LONG_PROJECTS = new Set(['integration', 'infra']);

/**
 * The order files start in. Vitest's own runs the projects one after the other by name, so the
 * quick unit and handler files went first and the long integration files last, with little to
 * run beside them at the end. Here the long projects' files come first, the slowest of the last
 * run first (the largest when there is no last run, as on a fresh clone), and the quick files
 * fill the workers as they free up.
 */
class LongFilesFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config } = this.ctx;
    const key = (file: TestSpecification) => `${file.project.name}:${relative(config.root, file.moduleId)}`;
    const rank = (file: TestSpecification) => (LONG_PROJECTS.has(file.project.name) ? 0 : 1);
    const lastRun = (file: TestSpecification) => cache.getFileTestResults(key(file))?.duration;
    const size = (file: TestSpecification) => cache.getFileStats(key(file))?.size ?? 0;
    const known = files.every((file) => lastRun(file) !== undefined);
    const weight = (file: TestSpecification) => (known ? (lastRun(file) ?? 0) : size(file));
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b) || weight(b) - weight(a)));
  }
}

/**
 * Four levels, one command (`npm test`):
 * - unit: pure logic (keys, documents, phones, tokens, cookies);
 * - handlers: one handler with its AWS clients faked by aws-sdk-client-mock (with the unit
 *   files that replace a module, these run in the `module-mocks` project);
 * - integration: the local API (emulator + DynamoDB Local) over HTTP;
 * - infra: the synthesized CloudFormation template (one `cdk synth` per run, shared);
 * - console: the browser console's formatting, validation and components.
 *
 * Workers: most test files spend their time waiting on the local API, DynamoDB Local or a
 * child process, not computing, so a run keeps one more file in flight than there are cores
 * (vitest's default, one fewer, left a 2-core machine half idle).
 */
export default defineConfig({
  test: {
    maxWorkers: availableParallelism() + 1,
    sequence: { sequencer: LongFilesFirst },
    onConsoleLog: quiet,
    projects: [
      // One module graph per worker, except for the files that mock a module (FILES_THAT_MOCK_MODULES).
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: FILES_THAT_MOCK_MODULES, setupFiles: ['test/support/env.ts'], isolate: false } },
      {
        test: {
          name: 'handlers',
          include: ['test/handlers/**/*.test.ts'],
          exclude: FILES_THAT_MOCK_MODULES,
          setupFiles: ['test/support/env.ts'],
          isolate: false,
        },
      },
      { test: { name: 'module-mocks', include: FILES_THAT_MOCK_MODULES, setupFiles: ['test/support/env.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The console's formatting, validation and components (console/test; a .tsx file states its DOM environment).
      {
        resolve: { alias: { '@backoffice/client': fileURLToPath(new URL('clients/typescript/src/index.ts', import.meta.url)) } },
        test: { name: 'console', include: ['console/test/**/*.test.{ts,tsx}'] },
      },
      {
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          globalSetup: ['test/infra/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
