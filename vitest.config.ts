import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

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
 * Four levels, one command (`npm test`):
 * - unit: pure logic (keys, documents, phones, tokens, cookies);
 * - handlers: one handler with its AWS clients faked by aws-sdk-client-mock;
 * - integration: the local API (emulator + DynamoDB Local) over HTTP;
 * - infra: the synthesized CloudFormation template (one `cdk synth` per run, shared).
 *
 * Workers: most test files spend their time waiting on the local API, DynamoDB Local or a
 * child process, not computing, so a run keeps one more file in flight than there are cores
 * (vitest's default, one fewer, left a 2-core machine half idle).
 */
/**
 * Console output a passing run does not need: the local outbox's echo of each e-mail (the
 * tests read the outbox files), and the validation report an in-process synth prints (a
 * failing synth throws it, and the one warning of the dev defaults is asserted by a test).
 */
function quiet(log: string): false | undefined {
  if (log.startsWith('[mail] ') || log.includes('A copy of this report can be found in:')) return false;
  return undefined;
}

export default defineConfig({
  test: {
    maxWorkers: availableParallelism() + 1,
    onConsoleLog: quiet,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], setupFiles: ['test/support/env.ts'] } },
      { test: { name: 'handlers', include: ['test/handlers/**/*.test.ts'], setupFiles: ['test/support/env.ts'] } },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/integration/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
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
