import { RemovalPolicy } from 'aws-cdk-lib';
import { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { jobs } from '../lib/routes';
import { LOCAL_APP_ORIGIN } from '../lib/settings';

/** The deployment stages this app knows; picked with `cdk synth -c stage=<name>`. */
export const STAGE_NAMES = ['dev', 'prod'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** Everything that differs between stages. The stack reads nothing else per stage. */
export interface StageConfig {
  name: StageName;
  /**
   * Browser origins allowed to call the API with credentials (CORS and the CSRF check) besides
   * the console's own, the distribution's `https://<domain>`, which the stack always puts
   * first; never `*`. Context `allowedOrigins` replaces this list (dev: the local console).
   */
  allowedOrigins: string[];
  /**
   * The console's base URL, put into e-mail links (password reset, invitations): context
   * `appUrl`, or undefined for the default, the distribution's `https://<domain>/console`.
   */
  appUrl?: string;
  /** The distribution's edge locations: South America (the service's users) is only in PRICE_CLASS_ALL. */
  priceClass: PriceClass;
  /** Sender address; it must belong to a verified SES identity in the deployment region. */
  mailFrom: string;
  /**
   * The verified SES identity that `mailFrom` sends as: the address itself, its domain
   * (the default) or a parent domain (context `mailIdentity`). The mailer functions may send as this identity and no other.
   */
  mailIdentity: string;
  /** `iss` and `aud` of the tokens this stage issues, so a dev token never works in prod. */
  jwtIssuer: string;
  jwtAudience: string;
  /** Public JWKS (`{"keys":[...]}`) that verifies access and refresh tokens. */
  jwtPublicKeys: string;
  /** Steady-state and burst requests per second for every method of the stage. */
  throttling: { rateLimit: number; burstLimit: number };
  /** Stateful resources (table, signing key, log groups, the console bucket) on stack deletion. */
  removalPolicy: RemovalPolicy;
  /** Table deletion protection (on in prod, so only a deliberate change can drop the data). */
  deletionProtection: boolean;
  /** Every log group of the stage: functions, API access and execution logs. */
  logRetention: RetentionDays;
  /**
   * Optional custom domain (context `domainName` + `certificateArn`, optionally
   * `hostedZoneId` + `hostedZoneName` for the alias record). With it the API is served at
   * the domain's root and the execute-api URL is switched off, so the distribution forwards
   * to the domain instead. The console stays at the distribution's domain.
   */
  customDomain?: CustomDomain;
  /** Where alarms notify: an existing topic (context `alarmTopicArn`) ... */
  alarmTopicArn?: string;
  /** ... or a topic of this stack, created when true (prod, or whenever `alarmEmail` is given). */
  createAlarmTopic: boolean;
  /** An e-mail subscribed to the created alarm topic (context `alarmEmail`). */
  alarmEmail?: string;
  /** The manifest's optional jobs whose schedule is on (context `enableJobs`, comma-separated ids: `integrityCheck`); none by default. */
  enabledJobs: string[];
}

export interface CustomDomain {
  /** e.g. `api.example.com`; ideally a subdomain of the web application's site, so the cookies are first-party. */
  domainName: string;
  /** ACM certificate for `domainName`, in the stack's region (a REGIONAL endpoint). */
  certificateArn: string;
  /** Route 53 zone to create the alias record in; without it, point DNS at the `ApiDomainTarget` output yourself. */
  hostedZone?: { id: string; name: string };
}

/**
 * An empty key set: synthesizes, but verifies nothing, so every protected request gets 401
 * until the operator passes the real public keys with `-c jwtPublicKeys='{"keys":[...]}'`.
 */
export const PLACEHOLDER_JWT_PUBLIC_KEYS = '{"keys":[]}';

type StageDefaults = Omit<StageConfig, 'name' | 'jwtPublicKeys' | 'mailIdentity' | 'customDomain' | 'alarmTopicArn' | 'alarmEmail' | 'appUrl' | 'enabledJobs'>;

/**
 * Per-stage defaults. The browser side needs none: the console's origin and base URL are the
 * distribution's (infra/constructs/console-site.ts). The mail and token domains are
 * placeholders (`example.com`): override them per deployment with context
 * (`-c mailFrom=... -c allowedOrigins=https://app.acme.com -c appUrl=...`) instead of editing
 * this file.
 */
const DEFAULTS: Record<StageName, StageDefaults> = {
  dev: {
    allowedOrigins: [LOCAL_APP_ORIGIN],
    priceClass: PriceClass.PRICE_CLASS_100,
    mailFrom: 'no-reply@dev.example.com',
    jwtIssuer: 'https://api.dev.example.com',
    jwtAudience: 'backoffice-dev',
    throttling: { rateLimit: 50, burstLimit: 100 },
    removalPolicy: RemovalPolicy.DESTROY,
    deletionProtection: false,
    logRetention: RetentionDays.TWO_WEEKS,
    createAlarmTopic: false,
  },
  prod: {
    allowedOrigins: [],
    priceClass: PriceClass.PRICE_CLASS_ALL,
    mailFrom: 'no-reply@example.com',
    jwtIssuer: 'https://api.example.com',
    jwtAudience: 'backoffice',
    throttling: { rateLimit: 500, burstLimit: 1000 },
    removalPolicy: RemovalPolicy.RETAIN,
    deletionProtection: true,
    logRetention: RetentionDays.THREE_MONTHS,
    createAlarmTopic: true,
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

/** An absolute https URL without a trailing slash: links are built as `new URL('reset-password?token=…', APP_URL + '/')`. */
function checkAppUrl(appUrl: string | undefined): string | undefined {
  if (appUrl === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(appUrl);
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.protocol !== 'https:' || appUrl.endsWith('/') || parsed.search || parsed.hash) {
    throw new Error(`Context "appUrl" ${JSON.stringify(appUrl)} must be an https URL without a trailing slash, such as https://admin.acme.com/console`);
  }
  return appUrl;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

function checkMailFrom(address: string): string {
  if (!EMAIL.test(address)) throw new Error(`mailFrom ${JSON.stringify(address)} is not an e-mail address`);
  return address;
}

/**
 * The SES identity: the sender address, its domain or a parent domain of it (SES lets a
 * verified domain send for its subdomains). Anything else could never authorize `mailFrom`.
 */
function checkMailIdentity(identity: string | undefined, mailFrom: string): string {
  const domain = mailFrom.slice(mailFrom.lastIndexOf('@') + 1).toLowerCase();
  if (identity === undefined) return domain;
  const wanted = identity.toLowerCase();
  if (wanted === mailFrom.toLowerCase() || wanted === domain || domain.endsWith(`.${wanted}`)) return identity;
  throw new Error(`mailIdentity ${JSON.stringify(identity)} is neither ${mailFrom} nor a domain it belongs to`);
}

function checkEmail(key: string, value: string | undefined): string | undefined {
  if (value !== undefined && !EMAIL.test(value)) throw new Error(`Context "${key}" is not an e-mail address`);
  return value;
}

/** `arn:<partition>:<service>:...`; nothing is looked up, so only the shape can be checked. */
function checkArn(key: string, value: string | undefined, service: string): string | undefined {
  if (value !== undefined && !new RegExp(`^arn:aws[a-z-]*:${service}:`).test(value)) {
    throw new Error(`Context "${key}" must be an ARN of ${service}`);
  }
  return value;
}

function parseCustomDomain(read: ContextReader): CustomDomain | undefined {
  const domainName = optionalString(read, 'domainName');
  const certificateArn = checkArn('certificateArn', optionalString(read, 'certificateArn'), 'acm');
  const zoneId = optionalString(read, 'hostedZoneId');
  const zoneName = optionalString(read, 'hostedZoneName');
  if (domainName === undefined && certificateArn === undefined && zoneId === undefined && zoneName === undefined) return undefined;
  if (domainName === undefined || certificateArn === undefined) {
    throw new Error('A custom domain needs both context "domainName" and "certificateArn"');
  }
  if (!DOMAIN.test(domainName)) throw new Error(`Context "domainName" ${JSON.stringify(domainName)} is not a domain name`);
  if ((zoneId === undefined) !== (zoneName === undefined)) {
    throw new Error('Context "hostedZoneId" and "hostedZoneName" go together');
  }
  if (zoneName !== undefined && domainName !== zoneName && !domainName.endsWith(`.${zoneName}`)) {
    throw new Error(`domainName ${domainName} is not inside the hosted zone ${zoneName}`);
  }
  return {
    domainName,
    certificateArn,
    ...(zoneId !== undefined && zoneName !== undefined ? { hostedZone: { id: zoneId, name: zoneName } } : {}),
  };
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

/**
 * The authorizer's result cache is gone: it serves session cookies and API keys, a cache needs
 * an identity source every request carries, and a revocation must apply on the next request.
 * A stage that still sets the context is told so rather than silently ignored.
 */
function refuseCacheTtl(read: ContextReader): void {
  const raw = read('authorizerCacheTtlSeconds');
  if (raw !== undefined && raw !== '0') {
    throw new Error(
      'Context "authorizerCacheTtlSeconds" is no longer taken: the authorizer is never cached (it serves cookies and API keys); remove it or set 0',
    );
  }
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
  const mailFrom = checkMailFrom(optionalString(read, 'mailFrom') ?? defaults.mailFrom);
  refuseCacheTtl(read);
  const customDomain = parseCustomDomain(read);
  const appUrl = checkAppUrl(optionalString(read, 'appUrl'));
  const alarmTopicArn = checkArn('alarmTopicArn', optionalString(read, 'alarmTopicArn'), 'sns');
  const alarmEmail = checkEmail('alarmEmail', optionalString(read, 'alarmEmail'));
  if (alarmTopicArn !== undefined && alarmEmail !== undefined) {
    throw new Error('Give either "alarmTopicArn" (subscribe to that topic yourself) or "alarmEmail", not both');
  }
  return {
    ...defaults,
    name: stage,
    allowedOrigins: checkOrigins(
      origins
        ? origins
            .split(',')
            .map((origin) => origin.trim())
            .filter(Boolean)
        : defaults.allowedOrigins,
    ),
    ...(appUrl !== undefined ? { appUrl } : {}),
    mailFrom,
    mailIdentity: checkMailIdentity(optionalString(read, 'mailIdentity'), mailFrom),
    jwtPublicKeys: parseJwks(optionalString(read, 'jwtPublicKeys') ?? PLACEHOLDER_JWT_PUBLIC_KEYS),
    ...(customDomain ? { customDomain } : {}),
    ...(alarmTopicArn ? { alarmTopicArn } : {}),
    ...(alarmEmail ? { alarmEmail } : {}),
    createAlarmTopic: alarmTopicArn === undefined && (defaults.createAlarmTopic || alarmEmail !== undefined),
    enabledJobs: checkOptionalJobs(optionalString(read, 'enableJobs')),
  };
}

/** Context `enableJobs`: ids of the manifest's optional jobs, each known and optional. */
function checkOptionalJobs(value: string | undefined): string[] {
  const ids = (value ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const optional = Object.entries(jobs)
    .filter(([, job]) => 'optional' in job && job.optional)
    .map(([id]) => id);
  for (const id of ids)
    if (!optional.includes(id))
      throw new Error(`Context "enableJobs": ${JSON.stringify(id)} is not an optional job; the optional jobs are ${optional.join(', ')}`);
  return ids;
}
