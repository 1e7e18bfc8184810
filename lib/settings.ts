import type { Config } from './config';

/**
 * The service settings that are the same wherever the service runs: on AWS (the stack puts
 * them into every function's environment), locally (`npm start`, `npm run job`) and in the
 * tests. This is the one place that states them. The handlers never import this module: they
 * read the environment through lib/config.ts, which has no defaults (a missing value fails
 * loudly), so a deployed function runs with exactly what its stack gave it.
 *
 * Changing a value here changes every runner; docs/getting-started.md (configuration) and
 * docs/api.md (sessions) quote the lifetimes.
 */
export const settings = {
  /** 15 minutes: a leaked access token is short-lived; the refresh cookie renews it silently. */
  accessTokenSeconds: 15 * 60,
  /** 12 hours: about a working day, so a session without rememberMe ends overnight. */
  refreshTokenSeconds: 12 * 60 * 60,
  /** 30 days: "remember me" on a personal device; the absolute lifetime of such a session. */
  rememberMeSeconds: 30 * 24 * 60 * 60,
  /** The web application and the API share a site, so no cookie ever needs to travel cross-site. */
  cookieSameSite: 'Strict',
  /** The lowest cost lib/config.ts accepts; its latency is measured in docs/deploy.md ("Memory"). */
  bcryptCost: 10,
  /** The business's calendar (UTC-3, no daylight saving): sales days and the dashboards' days. */
  businessTimeZone: 'America/Sao_Paulo',
  /** About 13 months: a full fiscal year and its closing, then DynamoDB's TTL removes the audit entry. */
  auditRetentionDays: 400,
  /**
   * About 6 months: the access records (an entry's IP address and User-Agent, the origin kept
   * apart from it) that Marco Civil Art. 15 requires for 6 months, then DynamoDB's TTL removes them.
   */
  accessRecordRetentionDays: 183,
} as const;

/** The settings as the environment variables lib/config.ts parses. */
export const settingsEnvironment = {
  ACCESS_TOKEN_TTL_SECONDS: String(settings.accessTokenSeconds),
  REFRESH_TOKEN_TTL_SECONDS: String(settings.refreshTokenSeconds),
  REMEMBER_ME_TTL_SECONDS: String(settings.rememberMeSeconds),
  COOKIE_SAME_SITE: settings.cookieSameSite,
  BCRYPT_COST: String(settings.bcryptCost),
  BUSINESS_TIME_ZONE: settings.businessTimeZone,
  AUDIT_RETENTION_DAYS: String(settings.auditRetentionDays),
  ACCESS_RECORD_RETENTION_DAYS: String(settings.accessRecordRetentionDays),
} as const satisfies Partial<Record<keyof Config, string>>;

/**
 * The web application's development server (Vite's default port): allowed to call the dev
 * stage and the local API with credentials, and the local API's APP_URL.
 */
export const LOCAL_APP_ORIGIN = 'http://localhost:5173';
