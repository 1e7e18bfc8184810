import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { JWT_ALGORITHM } from '../lib/auth/keys';
import { logger } from '../lib/log';
import { LOCAL_APP_ORIGIN, settingsEnvironment } from '../lib/settings';

/**
 * Local defaults for every configuration value (the handlers themselves have none): the
 * service settings of lib/settings.ts, as on AWS, and the local runner's own values; and
 * the ES256 key pair generated once into `$DATA_DIR/keys.json`. Anything already set in the
 * environment wins, so every value can be overridden: `PORT=4000 npm start`.
 */
export interface LocalSettings {
  dataDir: string;
  port: number;
  dynamoPort: number;
}

export function localSettings(): LocalSettings {
  return {
    dataDir: resolve(process.env.DATA_DIR ?? '.data'),
    port: Number(process.env.PORT ?? 3000),
    dynamoPort: Number(process.env.DYNAMODB_PORT ?? 8000),
  };
}

interface KeyFile {
  signing: Record<string, unknown>;
  public: { keys: Record<string, unknown>[] };
  /** The page-cursor key (CURSOR_SECRET); added to a key file written before it existed. */
  cursor?: string;
}

async function ensureKeys(dataDir: string): Promise<Required<KeyFile>> {
  const file = join(dataDir, 'keys.json');
  let keys: KeyFile;
  if (existsSync(file)) {
    keys = JSON.parse(readFileSync(file, 'utf8')) as KeyFile;
    if (keys.cursor) return keys as Required<KeyFile>;
  } else {
    const { privateKey, publicKey } = await generateKeyPair(JWT_ALGORITHM, { extractable: true });
    const kid = `local-${new Date().toISOString().slice(0, 10)}`;
    keys = {
      signing: { ...(await exportJWK(privateKey)), kid, alg: JWT_ALGORITHM, use: 'sig' },
      public: { keys: [{ ...(await exportJWK(publicKey)), kid, alg: JWT_ALGORITHM, use: 'sig' }] },
    };
  }
  const complete = { ...keys, cursor: randomBytes(32).toString('base64url') };
  writeFileSync(file, JSON.stringify(complete, null, 2), { mode: 0o600 });
  return complete;
}

/** The variables `applyLocalEnvironment` sets (a child API must not inherit them). */
export const LOCAL_CONFIG_VARIABLES = [
  ...(Object.keys(settingsEnvironment) as (keyof typeof settingsEnvironment)[]),
  ...([
    'TABLE_NAME',
    'DYNAMODB_ENDPOINT',
    'JWT_ISSUER',
    'JWT_AUDIENCE',
    'JWT_PUBLIC_KEYS',
    'JWT_SIGNING_KEY',
    'CURSOR_SECRET',
    'ALLOWED_ORIGINS',
    'PATH_PREFIX',
    'APP_URL',
    'API_KEY_ENVIRONMENT',
    'WEBHOOK_ALLOW_LOOPBACK',
    'MAIL_FROM',
    'MAIL_TRANSPORT',
    'OUTBOX_DIR',
    'IMPORT_UPLOAD_SECRET',
    'IMPORT_UPLOAD_DIR',
    'POWERTOOLS_LOG_LEVEL',
    'POWERTOOLS_METRICS_DISABLED',
  ] as const),
];

/** Fill `process.env` with the local configuration; call before any handler runs. */
export async function applyLocalEnvironment(settings: LocalSettings, dynamoEndpoint: string): Promise<void> {
  mkdirSync(settings.dataDir, { recursive: true });
  const keys = await ensureKeys(settings.dataDir);
  const defaults: Record<(typeof LOCAL_CONFIG_VARIABLES)[number] | 'AWS_REGION' | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY', string> = {
    TABLE_NAME: 'backoffice',
    DYNAMODB_ENDPOINT: dynamoEndpoint,
    AWS_REGION: 'us-east-1',
    // DynamoDB Local accepts any credentials; the SDK only needs some.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    JWT_ISSUER: 'http://localhost/backoffice',
    JWT_AUDIENCE: 'backoffice-api',
    JWT_PUBLIC_KEYS: JSON.stringify(keys.public),
    JWT_SIGNING_KEY: JSON.stringify(keys.signing),
    CURSOR_SECRET: keys.cursor,
    ...settingsEnvironment,
    ALLOWED_ORIGINS: `${LOCAL_APP_ORIGIN},http://127.0.0.1:5173,http://localhost:${settings.port},http://127.0.0.1:${settings.port}`,
    PATH_PREFIX: '',
    // E-mail links open the console that npm start serves beside the API.
    APP_URL: `http://127.0.0.1:${settings.port}/console`,
    // API keys made here are `bo_test_` keys, which no deployed stage takes.
    API_KEY_ENVIRONMENT: 'test',
    // Webhook receivers tried out with npm start run beside it, on loopback, over http.
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    MAIL_FROM: 'no-reply@backoffice.localhost',
    MAIL_TRANSPORT: 'outbox',
    OUTBOX_DIR: join(settings.dataDir, 'outbox'),
    // Import files are PUT to the API's own origin (local/files.ts), with links signed by a
    // key of this run's (a link outlives no restart), and kept in the data folder.
    IMPORT_UPLOAD_SECRET: randomBytes(32).toString('base64url'),
    IMPORT_UPLOAD_DIR: join(settings.dataDir, 'uploads'),
    // The emulator prints one line per request; the functions' own JSON logs show warnings up.
    POWERTOOLS_LOG_LEVEL: 'WARN',
    // No CloudWatch here to read the metrics' EMF lines (lib/metrics.ts): off unless asked for.
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  for (const [key, value] of Object.entries(defaults)) process.env[key] ??= value;
  // The store is the one chosen here, whatever an inherited environment says (a command run
  // from a shell or test that once pointed at another DynamoDB Local would write there).
  process.env.DYNAMODB_ENDPOINT = dynamoEndpoint;
  // The logger may have been built at import, before these defaults.
  logger.setLogLevel(process.env.POWERTOOLS_LOG_LEVEL as Parameters<typeof logger.setLogLevel>[0]);
}
