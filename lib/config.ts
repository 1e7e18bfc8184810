/**
 * The service configuration, parsed once per process from the environment.
 *
 * Required values have no defaults here: on AWS the stack sets every one of them, and
 * locally the runner (`local/environment.ts`) does, both taking the values that are the
 * same everywhere (lifetimes, cookie, bcrypt cost, time zone) from `lib/settings.ts`. A
 * missing or malformed value fails loudly at the first use instead of turning into a
 * silent empty string.
 *
 * Checked by hand, not with zod: every function reads it, the authorizer nothing else that
 * zod would check, and building its zod schemas was most of what zod cost the authorizer at
 * cold start (zod/mini's core, 25 KB, and the schemas' construction, about 2 ms). The rules are
 * the ones the zod/mini schema had (test/unit/config.test.ts): a text is non-empty, a number
 * is what `Number()` reads (coerced), a URL is what `URL` parses (trimmed), an e-mail is zod's
 * pattern; a problem reads `NAME: Invalid input`, with why after a colon when the value is there.
 */

/** zod's e-mail pattern (zod/v4/core regexes `email`), the one MAIL_FROM was checked with. */
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const PATH_PREFIX = /^(\/[A-Za-z0-9_-]+)*$/;

type Env = Record<string, string | undefined>;

/** One variable's rule: its value, or a problem (undefined: absent, which a required rule refuses). */
type Rule<T> = (value: string | undefined) => { value: T } | { problem: string };

const INVALID = 'Invalid input';
const refuse = (why?: string) => ({ problem: why === undefined ? INVALID : `${INVALID}: ${why}` });

const text: Rule<string> = (value) => (value === undefined ? refuse() : value.length >= 1 ? { value } : refuse('must not be empty'));

const optional =
  <T>(rule: Rule<T>): Rule<T | undefined> =>
  (value) =>
    value === undefined ? { value: undefined } : rule(value);

/** An integer (safe) from `min` to `max`, as `Number()` reads the text. */
const integer =
  (min: number, max = Number.MAX_SAFE_INTEGER): Rule<number> =>
  (value) => {
    if (value === undefined) return refuse();
    const number = Number(value);
    return Number.isSafeInteger(number) && number >= min && number <= max ? { value: number } : refuse(`must be an integer from ${min} to ${max}`);
  };

/** What `URL` parses, trimmed (tabs and line breaks dropped, as the parser does). */
const url: Rule<string> = (value) => {
  if (value === undefined) return refuse();
  const trimmed = value.trim();
  return URL.canParse(trimmed) ? { value: trimmed.replace(/[\t\n\r]/g, '') } : refuse('must be a URL');
};

/** A comma-separated list of one or more URLs (blanks around them and empty items dropped). */
const urls: Rule<string[]> = (value) => {
  if (value === undefined) return refuse();
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map(url);
  if (items.length === 0) return refuse('must list at least one URL');
  const result: string[] = [];
  for (const item of items) {
    if ('problem' in item) return refuse('must be a comma-separated list of URLs');
    result.push(item.value);
  }
  return { value: result };
};

const oneOf =
  <const T extends string>(values: readonly T[]): Rule<T> =>
  (value) =>
    value !== undefined && (values as readonly string[]).includes(value)
      ? { value: value as T }
      : refuse(value === undefined ? undefined : `must be one of ${values.join(', ')}`);

const email: Rule<string> = (value) => (value === undefined ? refuse() : EMAIL.test(value) ? { value } : refuse('must be an e-mail address'));

/** What the repositories need: enough for the command-line tools against any table. */
const storeRules = {
  TABLE_NAME: text,
  /** Set locally (DynamoDB Local); absent on AWS. */
  DYNAMODB_ENDPOINT: optional(url),
  /** Always set on Lambda; elsewhere the SDK's own resolution (profile) applies. */
  AWS_REGION: optional(text),
  BCRYPT_COST: integer(10, 15),
  /** How long audit entries are kept (DynamoDB TTL), in days. */
  AUDIT_RETENTION_DAYS: integer(1, 3650),
  /** How long an entry's origin (IP address, User-Agent) is kept (DynamoDB TTL), in days: never past the entry's own retention. */
  ACCESS_RECORD_RETENTION_DAYS: integer(1, 3650),
};

const configRules = {
  ...storeRules,
  JWT_ISSUER: text,
  JWT_AUDIENCE: text,
  /**
   * Public JWKS (JSON `{ "keys": [...] }`), every key that may still verify a token. Only
   * the functions that verify tokens (the authorizer, refresh) get it; checked on first use.
   */
  JWT_PUBLIC_KEYS: optional(text),
  /** The private signing JWK itself (local runs) ... */
  JWT_SIGNING_KEY: optional(text),
  /** ... or the Secrets Manager id that holds it (AWS). */
  JWT_SIGNING_KEY_SECRET_ID: optional(text),

  /** The key that seals page cursors (lib/secrets), itself (local runs) ... */
  CURSOR_SECRET: optional(text),
  /** ... or the Secrets Manager id that holds it (AWS; only the functions that page with cursors). */
  CURSOR_SECRET_ID: optional(text),

  ACCESS_TOKEN_TTL_SECONDS: integer(1),
  REFRESH_TOKEN_TTL_SECONDS: integer(1),
  REMEMBER_ME_TTL_SECONDS: integer(1),

  ALLOWED_ORIGINS: urls,
  COOKIE_SAME_SITE: oneOf(['Strict', 'Lax', 'None']),
  COOKIE_DOMAIN: optional(text),
  /** A prefix in front of every path (cookie paths, Link): empty where the API is at its origin's root, as behind the console's distribution, a custom domain and npm start. */
  PATH_PREFIX: ((value) =>
    value === undefined ? { value: '' } : PATH_PREFIX.test(value) ? { value } : refuse('must be empty or /segment[/segment…]')) as Rule<string>,

  /**
   * The value CloudFront adds to every request it forwards to the API (EDGE_SECRET_HEADER):
   * with it, the viewer's address CloudFront reports is trusted as the caller's
   * (lib/http/request.ts `clientIp`). Unset locally and without a distribution.
   */
  EDGE_SECRET: optional(text),

  /**
   * Which API keys this stage takes (lib/api-keys/format): `live` (the default, every deployed
   * stage) or `test` (npm start), so a key from a laptop opens nothing deployed and back.
   */
  API_KEY_ENVIRONMENT: ((value) => (value === undefined ? { value: 'live' } : oneOf(['live', 'test'] as const)(value))) as Rule<'live' | 'test'>,

  /**
   * Whether webhook endpoints may be on loopback addresses (127.0.0.0/8, ::1), over http too
   * (lib/webhooks/ssrf): `true` only for npm start, whose receivers run beside it; absent (false)
   * on every deployed stage. Private and link-local addresses stay refused either way.
   */
  WEBHOOK_ALLOW_LOOPBACK: ((value) =>
    value === undefined
      ? { value: false }
      : value === 'true' || value === 'false'
        ? { value: value === 'true' }
        : refuse('must be true or false')) as Rule<boolean>,

  /**
   * The webhook delivery queue (infra/constructs/webhooks.ts), where the delivery function
   * sends its wake-ups; set on that function only.
   */
  WEBHOOK_QUEUE_URL: optional(url),

  /** The bucket import files are uploaded to (infra/constructs/imports.ts); set on the import functions only. */
  IMPORT_BUCKET: optional(text),
  /** The import queue (infra/constructs/imports.ts), where the import worker sends each next step; set on that function only. */
  IMPORT_QUEUE_URL: optional(url),
  /** npm start's import uploads (local/files.ts): the links' signing secret and the folder the files are kept in. */
  IMPORT_UPLOAD_SECRET: optional(text),
  IMPORT_UPLOAD_DIR: optional(text),
  /** The bucket export files are written to and downloaded from: the imports bucket, under `exports/` (infra/constructs/exports.ts); set on the export functions only. Locally, IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR serve exports too. */
  EXPORT_BUCKET: optional(text),
  /** The export queue (infra/constructs/exports.ts), where POST /exports sends each job; set on that function only. */
  EXPORT_QUEUE_URL: optional(url),

  /**
   * How many days a closed tenant is kept before its deletion (POST /tenants/{id}/close): a
   * reopen undoes the close until then. 30 unless set.
   */
  TENANT_DELETION_GRACE_DAYS: ((value) => (value === undefined ? { value: 30 } : integer(1, 3650)(value))) as Rule<number>,
  /** The tenant jobs' queue (infra/constructs/tenant-jobs.ts), where the deletion job and POST /tenants/{id}/export send a job's first step and the worker each next; set on those functions only. */
  TENANT_JOB_QUEUE_URL: optional(url),

  BUSINESS_TIME_ZONE: text,
  APP_URL: url,

  MAIL_FROM: email,
  /** `ses` on AWS; `outbox` locally (files under OUTBOX_DIR). */
  MAIL_TRANSPORT: oneOf(['ses', 'outbox']),
  OUTBOX_DIR: optional(text),
};

type Parsed<Rules> = { [K in keyof Rules]: Rules[K] extends Rule<infer T> ? T : never };

export type Config = Parsed<typeof configRules>;
export type StoreConfig = Parsed<typeof storeRules>;

let cached: Config | undefined;
let cachedStore: StoreConfig | undefined;

function parse<Rules extends Record<string, Rule<unknown>>>(rules: Rules, env: Env): Parsed<Rules> {
  const result: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    const outcome = rule(env[name]);
    if ('problem' in outcome) problems.push(`${name}: ${outcome.problem}`);
    else if (outcome.value !== undefined) result[name] = outcome.value;
  }
  if (problems.length) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return result as Parsed<Rules>;
}

/** The parsed configuration; throws naming every bad variable on the first call. */
export function config(): Config {
  if (cached) return cached;
  const parsed = parse(configRules, process.env);
  if (parsed.MAIL_TRANSPORT === 'outbox' && !parsed.OUTBOX_DIR) {
    throw new Error('Invalid configuration: OUTBOX_DIR is required when MAIL_TRANSPORT=outbox');
  }
  cached = parsed;
  return cached;
}

/** The store's part of the configuration (repositories, password hashing). */
export function storeConfig(): StoreConfig {
  cachedStore ??= parse(storeRules, process.env);
  return cachedStore;
}

/** Forget the parsed configuration (tests that change the environment). */
export function resetConfig(): void {
  cached = undefined;
  cachedStore = undefined;
}
