import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: the browser tests, apart from `npm test` because they need Chromium
 * (`/usr/bin/chromium`, Debian's package; `.ci/run` installs it). They start their own
 * local API (DynamoDB Local needs Java, as for the integration tests).
 */
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
