import { exportJWK, generateKeyPair } from 'jose';
import { resetKeys } from '../../lib/auth/keys';
import { beforeEach } from 'vitest';
import { resetConfig } from '../../lib/config';
import { forgetFullWindows } from '../../lib/rate-limit';
import { settingsEnvironment } from '../../lib/settings';
import { ALLOWED_ORIGIN } from '../../tools/events';

/**
 * A complete configuration for unit and handler tests (no store is reached: handler tests
 * fake the AWS clients): the service settings of lib/settings.ts, as everywhere, and test
 * values for the rest. Keys are generated per test file.
 */
const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
export const TEST_KID = 'test-key-1';
export const testSigningJwk = { ...(await exportJWK(privateKey)), kid: TEST_KID, alg: 'ES256' };
export const testPublicJwk = { ...(await exportJWK(publicKey)), kid: TEST_KID, alg: 'ES256' };

Object.assign(process.env, {
  TABLE_NAME: 'test-table',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  JWT_ISSUER: 'https://test.backoffice.dev',
  JWT_AUDIENCE: 'backoffice-test',
  JWT_PUBLIC_KEYS: JSON.stringify({ keys: [testPublicJwk] }),
  JWT_SIGNING_KEY: JSON.stringify(testSigningJwk),
  CURSOR_SECRET: 'test-cursor-secret-of-at-least-32-characters',
  ...settingsEnvironment,
  ALLOWED_ORIGINS: ALLOWED_ORIGIN,
  PATH_PREFIX: '',
  APP_URL: 'https://app.example.com',
  MAIL_FROM: 'no-reply@example.com',
  MAIL_TRANSPORT: 'ses',
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  // Metrics (EMF lines on stdout) are off, as in the local API; test/handlers/metrics.test.ts turns them on.
  POWERTOOLS_METRICS_DISABLED: 'true',
});
delete process.env.DYNAMODB_ENDPOINT;
resetConfig();
resetKeys();
// The limiter remembers windows it found full (lib/rate-limit): each test starts with none.
beforeEach(forgetFullWindows);
