import { defineConfig } from 'vitest/config';

/**
 * Four levels, one command (`npm test`):
 * - unit: pure logic (keys, documents, phones, tokens, cookies);
 * - handlers: one handler with its AWS clients faked by aws-sdk-client-mock;
 * - integration: the local API (emulator + DynamoDB Local) over HTTP;
 * - infra: the synthesized CloudFormation template.
 */
export default defineConfig({
  test: {
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
      { test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 } },
    ],
  },
});
