// zod/mini: the authorizer parses this and nothing else with zod, and the mini build keeps
// its bundle and cold start small (the classic API is tree-shaken away there).
import * as z from 'zod/mini';

/**
 * The service configuration, parsed once per process from the environment.
 *
 * Required values have no defaults here: on AWS the stack sets every one of them, and
 * locally the runner (`local/environment.ts`) does, both taking the values that are the
 * same everywhere (lifetimes, cookie, bcrypt cost, time zone) from `lib/settings.ts`. A
 * missing or malformed value fails loudly at the first use instead of turning into a
 * silent empty string.
 */
const text = () => z.string().check(z.minLength(1));
const seconds = z.coerce.number().check(z.int(), z.positive());

const csvOfUrls = z.pipe(
  z.string(),
  z.pipe(
    z.transform((value: string) => value.split(',').map((item) => item.trim()).filter(Boolean)),
    z.array(z.url()).check(z.minLength(1)),
  ),
);

/** What the repositories need: enough for the command-line tools against any table. */
const storeShape = {
  TABLE_NAME: text(),
  /** Set locally (DynamoDB Local); absent on AWS. */
  DYNAMODB_ENDPOINT: z.optional(z.url()),
  /** Always set on Lambda; elsewhere the SDK's own resolution (profile) applies. */
  AWS_REGION: z.optional(text()),
  BCRYPT_COST: z.coerce.number().check(z.int(), z.gte(10), z.lte(15)),
  /** How long audit entries are kept (DynamoDB TTL), in days. */
  AUDIT_RETENTION_DAYS: z.coerce.number().check(z.int(), z.gte(1), z.lte(3650)),
};
const storeSchema = z.object(storeShape);

const configSchema = z.object({
  ...storeShape,
  JWT_ISSUER: text(),
  JWT_AUDIENCE: text(),
  /**
   * Public JWKS (JSON `{ "keys": [...] }`), every key that may still verify a token. Only
   * the functions that verify tokens (the authorizer, refresh) get it; checked on first use.
   */
  JWT_PUBLIC_KEYS: z.optional(text()),
  /** The private signing JWK itself (local runs) ... */
  JWT_SIGNING_KEY: z.optional(text()),
  /** ... or the Secrets Manager id that holds it (AWS). */
  JWT_SIGNING_KEY_SECRET_ID: z.optional(text()),

  /** The key that seals page cursors (lib/secrets), itself (local runs) ... */
  CURSOR_SECRET: z.optional(text()),
  /** ... or the Secrets Manager id that holds it (AWS; only the functions that page with cursors). */
  CURSOR_SECRET_ID: z.optional(text()),

  ACCESS_TOKEN_TTL_SECONDS: seconds,
  REFRESH_TOKEN_TTL_SECONDS: seconds,
  REMEMBER_ME_TTL_SECONDS: seconds,

  ALLOWED_ORIGINS: csvOfUrls,
  COOKIE_SAME_SITE: z.enum(['Strict', 'Lax', 'None']),
  COOKIE_DOMAIN: z.optional(text()),
  /** Stage prefix in front of every path, e.g. `/prod`; empty behind a custom domain. */
  PATH_PREFIX: z._default(z.string().check(z.regex(/^(\/[A-Za-z0-9_-]+)*$/)), ''),

  BUSINESS_TIME_ZONE: text(),
  APP_URL: z.url(),

  MAIL_FROM: z.email(),
  /** `ses` on AWS; `outbox` locally (files under OUTBOX_DIR). */
  MAIL_TRANSPORT: z.enum(['ses', 'outbox']),
  OUTBOX_DIR: z.optional(text()),
});

export type Config = z.infer<typeof configSchema>;
export type StoreConfig = z.infer<typeof storeSchema>;

let cached: Config | undefined;
let cachedStore: StoreConfig | undefined;

function parse<S extends z.ZodMiniType>(schema: S): z.output<S> {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** The parsed configuration; throws naming every bad variable on the first call. */
export function config(): Config {
  if (cached) return cached;
  const parsed = parse(configSchema);
  if (parsed.MAIL_TRANSPORT === 'outbox' && !parsed.OUTBOX_DIR) {
    throw new Error('Invalid configuration: OUTBOX_DIR is required when MAIL_TRANSPORT=outbox');
  }
  cached = parsed;
  return cached;
}

/** The store's part of the configuration (repositories, password hashing). */
export function storeConfig(): StoreConfig {
  cachedStore ??= parse(storeSchema);
  return cachedStore;
}

/** Forget the parsed configuration (tests that change the environment). */
export function resetConfig(): void {
  cached = undefined;
  cachedStore = undefined;
}
