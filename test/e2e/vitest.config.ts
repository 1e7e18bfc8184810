import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: the browser tests, apart from `npm test` because they need Chromium
 * (`/usr/bin/chromium`, Debian's package; `.ci/run` installs it). They start their own
 * local API (DynamoDB Local needs Java, as for the integration tests).
 */
// The AWS SDK's Node 22 notice, silenced for the test processes only (see vitest.config.ts).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    name: 'e2e',
    include: ['test/e2e/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
