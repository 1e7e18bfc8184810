import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';

/** The deployment stages this app knows; picked with `cdk synth -c stage=<name>`. */
export const STAGE_NAMES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** Everything that differs between stages. The stack reads nothing else per stage. */
export interface StageConfig {
  name: StageName;
  /** Browser origins allowed to call the API with credentials (CORS and the CSRF check); never `*`. */
  allowedOrigins: string[];
  /** The front-end URL put into e-mail links (password reset, invitations). */
  appUrl: string;
  /** Sender address; its domain must be a verified SES identity in the deployment region. */
  mailFrom: string;
  /** `iss` and `aud` of the tokens this stage issues, so a dev token never works in prod. */
  jwtIssuer: string;
  jwtAudience: string;
  /** Public JWKS (`{"keys":[...]}`) that verifies access and refresh tokens. */
  jwtPublicKeys: string;
  /** Authorizer result cache; 0 so that a revocation takes effect on the very next request. */
  authorizerCacheTtl: Duration;
  /** Steady-state and burst requests per second for every method of the stage. */
  throttling: { rateLimit: number; burstLimit: number };
  /** Stateful resources (table, signing key, log groups) on stack deletion. */
  removalPolicy: RemovalPolicy;
  /** Table deletion protection (on in prod, so only a deliberate change can drop the data). */
  deletionProtection: boolean;
  logRetention: RetentionDays;
}

/**
 * An empty key set: synthesizes, but verifies nothing, so every protected request gets 401
 * until the operator passes the real public keys with `-c jwtPublicKeys='{"keys":[...]}'`.
 */
export const PLACEHOLDER_JWT_PUBLIC_KEYS = '{"keys":[]}';

type StageDefaults = Omit<StageConfig, 'name' | 'jwtPublicKeys' | 'authorizerCacheTtl'>;

/**
 * Per-stage defaults. The domains are placeholders (`example.com`): override them per
 * deployment with context (`-c allowedOrigins=https://app.acme.com -c appUrl=... -c mailFrom=...`)
 * instead of editing this file.
 */
const DEFAULTS: Record<StageName, StageDefaults> = {
  dev: {
    allowedOrigins: ['http://localhost:5173', 'https://app.dev.example.com'],
    appUrl: 'https://app.dev.example.com',
    mailFrom: 'no-reply@dev.example.com',
    jwtIssuer: 'https://api.dev.example.com',
    jwtAudience: 'backoffice-dev',
    throttling: { rateLimit: 50, burstLimit: 100 },
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    logRetention: RetentionDays.TWO_WEEKS,
  },
  prod: {
    allowedOrigins: ['https://app.example.com'],
    appUrl: 'https://app.example.com',
    mailFrom: 'no-reply@example.com',
    jwtIssuer: 'https://api.example.com',
    jwtAudience: 'backoffice',
    throttling: { rateLimit: 500, burstLimit: 1000 },
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    logRetention: RetentionDays.THREE_MONTHS,
  },
};

/** Reads CDK context values (`-c key=value` or cdk.json); undefined when unset. */
export type ContextReader = (key: string) => unknown;

function isStageName(value: unknown): value is StageName {
  return typeof value === 'string' && (STAGE_NAMES as readonly string[]).includes(value);
}

function optionalString(read: ContextReader, key: string): string | undefined {
  const value = read(key);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`Context "${key}" must be a non-empty string`);
  return value.trim();
}

/** Origins are compared verbatim by browsers: scheme, host and port only, no `*`, no trailing slash. */
function checkOrigins(origins: string[]): string[] {
  if (origins.length === 0) throw new Error('At least one allowed origin is required');
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new Error(`Allowed origin ${JSON.stringify(origin)} must be a bare origin such as https://app.example.com`);
    }
  }
  return origins;
}

function checkMailFrom(address: string): string {
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) throw new Error(`mailFrom ${JSON.stringify(address)} is not an e-mail address`);
  return address;
}

function parseJwks(raw: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('Context "jwtPublicKeys" is not valid JSON; expected {"keys":[...]}');
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { keys?: unknown }).keys)) {
    throw new Error('Context "jwtPublicKeys" must be a JWK set: {"keys":[...]}');
  }
  // Re-serialized so the environment variable is compact whatever the operator typed.
  return JSON.stringify(parsed);
}

function parseCacheTtl(read: ContextReader): Duration {
  const raw = read('authorizerCacheTtlSeconds');
  if (raw === undefined) return Duration.seconds(0);
  const seconds = Number(raw);
  // API Gateway accepts 0 (off) to 3600 seconds.
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 3600) {
    throw new Error('Context "authorizerCacheTtlSeconds" must be an integer from 0 to 3600');
  }
  return Duration.seconds(seconds);
}

/**
 * The configuration of the stage named by context `stage` (default `dev`), with the
 * per-deployment overrides taken from context. Fails synthesis on a bad value rather than
 * deploying something half-configured.
 */
export function resolveStage(read: ContextReader): StageConfig {
  const stage = read('stage') ?? 'dev';
  if (!isStageName(stage)) {
    throw new Error(`Unknown stage ${JSON.stringify(stage)}; expected one of ${STAGE_NAMES.join(', ')}`);
  }
  const defaults = DEFAULTS[stage];
  const origins = optionalString(read, 'allowedOrigins');
  return {
    ...defaults,
    name: stage,
    allowedOrigins: checkOrigins(origins ? origins.split(',').map((origin) => origin.trim()).filter(Boolean) : defaults.allowedOrigins),
    appUrl: optionalString(read, 'appUrl') ?? defaults.appUrl,
    mailFrom: checkMailFrom(optionalString(read, 'mailFrom') ?? defaults.mailFrom),
    jwtPublicKeys: parseJwks(optionalString(read, 'jwtPublicKeys') ?? PLACEHOLDER_JWT_PUBLIC_KEYS),
    authorizerCacheTtl: parseCacheTtl(read),
  };
}
