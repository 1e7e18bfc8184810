/**
 * The route manifest: every endpoint of the API, once. The CDK stack (one function per
 * route, the authorizer on the protected ones, least-privilege table grants), the local
 * API Gateway emulator, the OpenAPI document and the infra tests all read this list.
 *
 * Adding an endpoint = one entry here + one file under `functions/`.
 */

import type { RouteKeyAccess } from './domain/key-scopes';
import type { AuditAction } from './audit/model';
import { API_KEY_USE_PK_PREFIX, type SearchList } from './db/keys';
import type { tableDefinition } from './db/table';
import { INVITATIONS_PER_ADDRESS, type RateLimit } from './rate-limit';

export type { RateLimit };

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The DynamoDB actions a function may be declared to call on the table, as IAM names them
 * (without `dynamodb:`), in the order the manifest lists them. No PartiQL, no streams, no
 * DescribeTable: no code uses them (test/infra/constructs.test.ts compares this list with the
 * commands the code imports). Scan only for the tenant jobs' worker (a closed tenant's deletion,
 * a tenant's export: docs/decisions.md, "Closing a tenant").
 */
export const TABLE_READ_ACTIONS = ['GetItem', 'BatchGetItem', 'Query', 'Scan', 'ConditionCheckItem'] as const;
export const TABLE_WRITE_ACTIONS = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'] as const;
export type TableAction = (typeof TABLE_READ_ACTIONS)[number] | (typeof TABLE_WRITE_ACTIONS)[number];

/** An index of the table (lib/db/table.ts). */
export type TableIndex = (typeof tableDefinition.globalSecondaryIndexes)[number]['indexName'];

/**
 * Access to the credentials partition (`CREDENTIALS#<tenantId>#<userId>`, the item that holds
 * a user's password hash, TOTP secrets, recovery-code hashes and reset-token hash): `read` to
 * check a secret, `write` to set one, `read-write` for both.
 */
export type CredentialsAccess = 'read' | 'write' | 'read-write';

/**
 * What a function does to the table; the stack grants exactly this (infra/constructs/functions.ts).
 *
 * `actions` are every action the function's code paths can send, found by reading them from
 * the handler through lib/ to the repositories: a TransactWriteItems counts the kinds of its
 * items (Put → PutItem, Update → UpdateItem, Delete → DeleteItem, ConditionCheck →
 * ConditionCheckItem), a TransactGetItems counts GetItem. On an `idempotent` route they
 * include the Idempotency-Key's own calls (GetItem, PutItem, UpdateItem, DeleteItem:
 * lib/idempotency/repository.ts). The rate-limit counters are not counted: their grant
 * is apart (UpdateItem on `RATE#` keys only), as is the authorizer's `lastActiveAt` update.
 * `npm run test:bundles` runs every integration test with exactly these grants enforced.
 *
 * Without `credentials`, the function is refused every action on the credentials partition
 * by an explicit Deny; with it, the other half (`read` is refused writes, `write` reads).
 */
export interface TableAccess {
  actions: readonly TableAction[];
  /** The indexes it queries: Query on `<table ARN>/index/<name>` for each, and on no other. */
  indexes?: readonly TableIndex[];
  credentials?: CredentialsAccess;
  /**
   * Access to the webhook signing secrets' partition (`WEBHOOK_SECRETS#…`, lib/db/keys
   * `webhookSecrets`), refused as the credentials' is: every action without it, the other half
   * with `read` or `write`. Only the functions that make, rotate, delete or sign with a secret declare it.
   */
  webhookSecrets?: CredentialsAccess;
}

/** Whether a function counts requests in the rate-limit counters: it has limits of its own, or API keys may call it (API_KEY_RATE_LIMIT). */
export const countsRequests = (route: Pick<Route, 'rateLimits' | 'apiKey'>): boolean => (route.rateLimits?.length ?? 0) > 0 || Boolean(route.apiKey);

/** Whether a function with this access writes the table (beyond the rate-limit counters). */
export const writesTable = (access: TableAccess): boolean => access.actions.some((action) => (TABLE_WRITE_ACTIONS as readonly TableAction[]).includes(action));

export interface Route {
  method: HttpMethod;
  /** API Gateway resource path, `{name}` for path parameters. */
  path: string;
  /** Source file of the Lambda handler, relative to the repository root. */
  handler: string;
  /** `protected` routes sit behind the REQUEST authorizer. */
  auth: 'public' | 'protected';
  /**
   * Who may call it beyond a member: a tenant administrator (or an API key, which acts as one,
   * or a platform administrator), or a platform administrator. The service checks it with its
   * own words; the handler checks it too when the request's input is refused, so that a member
   * gets 403 whatever the id or body looks like (lib/http/handler).
   */
  admin?: 'tenant' | 'platform';
  /** The DynamoDB actions its function calls, its indexes and its credentials access: granted exactly. */
  table: TableAccess;
  /**
   * Functions that run bcrypt get about one vCPU; the searching lists get the same, for the
   * tenants they hold in memory and a cold load within a second (see docs/deploy.md, "Memory").
   */
  cpu?: 'bcrypt' | 'search';
  /** The function's timeout when the default (10 s) is too short: one that waits on a webhook receiver. */
  timeoutSeconds?: number;
  /** Functions that send e-mail get `ses:SendEmail`. */
  sendsMail?: boolean;
  /** Functions that issue tokens may read the private signing key; no other may. */
  signsTokens?: boolean;
  /** Functions that verify tokens themselves (besides the authorizer) get the public keys. */
  verifiesTokens?: boolean;
  /** Functions that page with sealed cursors (lib/domain/cursor) may read the cursor key; no other may. */
  sealsCursors?: boolean;
  /** Functions that presign import uploads (lib/imports/storage) know the import bucket and may put files there; no other may. */
  signsImportUploads?: boolean;
  /** Functions that start CSV exports (lib/exports/queue) know the export queue and may send to it; no other may. */
  queuesExports?: boolean;
  /** Functions that presign export downloads (lib/exports/storage) know the bucket and may read its `exports/` files; no other may. */
  signsExportDownloads?: boolean;
  /**
   * The routes of a tenant's export (lib/tenant-jobs): `start` sends the job's first step to the
   * tenant jobs' queue; `read` presigns downloads of its files. Granted by
   * infra/constructs/tenant-jobs.ts.
   */
  tenantJobs?: 'start' | 'read';
  /** Rate limits, each its own counter (lib/rate-limit: who takes the slot and what counts). */
  rateLimits?: readonly RateLimit[];
  /**
   * The list whose in-memory search the function serves (lib/search/engine): it may fold the
   * list's log into its chunks, which is PutItem and BatchWriteItem on the search partitions
   * only (`SEARCH_PK_PATTERNS`), granted apart from `table`. Derived data, not the tenant's
   * records: not audited.
   */
  searches?: SearchList;
  /**
   * A public route that refuses an `Idempotency-Key` with 400: a key scoped to a client IP
   * would hand one caller's answer to another behind the same address (POST /tenants).
   */
  refusesIdempotencyKey?: true;
  /**
   * The route honours an `Idempotency-Key` header (every POST that creates or changes data,
   * except the session routes: login, refresh, logout, register and the password routes);
   * `status` is what it answers on success, recorded with the key in the write's transaction.
   */
  idempotent?: { status: 200 | 201 };
  /**
   * What a route that writes records in the audit trail (lib/audit): one entry per successful
   * request, with one of these actions. Every route that writes (`writesTable`) names at least one
   * (test/unit/routes-audit.test.ts); test/integration/audit-trail.test.ts drives each.
   */
  audits?: readonly AuditAction[];
  /**
   * Open to a user whose tenant requires a second factor they have not enrolled yet:
   * enrolment itself, /auth/me and logout. Every other protected route answers 403
   * `mfa-enrolment-required` to them.
   */
  openDuringMfaEnrolment?: true;
  /**
   * What an API key needs to call a protected route: its resource and `read` or `write`
   * (lib/domain/key-scopes), or `false` for a route only a signed-in user may call (users,
   * invitations, sessions, the second factor, tenants, the API keys themselves). Every
   * protected route declares it (test/integration/api-key-scopes.test.ts); the authorizer
   * decides from it.
   */
  apiKey?: RouteKeyAccess;
  summary: string;
}

/**
 * Every request made with an API key takes a slot of its key's window, whatever the route:
 * 600 a minute per key, answered past it with 429, `Retry-After` and the RateLimit headers
 * (lib/http/middleware/rate-limit).
 */
export const API_KEY_RATE_LIMIT = { limit: 600, windowSeconds: 60 } as const;

/** The API key routes' own limit, per administrator: keys are made and rolled now and then. */
const API_KEY_CHANGES = { per: 'user', limit: 20, windowSeconds: 3600, scope: 'api-key-changes' } as const satisfies RateLimit;

/** Sending to an endpoint on an administrator's word (a ping, a retry), per administrator: each is a request to the receiver of up to 10 s. */
const WEBHOOK_SENDS = { per: 'user', limit: 60, windowSeconds: 3600, scope: 'webhook-sends' } as const satisfies RateLimit;

/** The functions that send to a receiver while the caller waits: the receiver's 10 s and a margin. */
const WEBHOOK_SEND_TIMEOUT_SECONDS = 20;

/** The webhook endpoint routes' own limit, per administrator, in one window: endpoints are registered and changed now and then. */
const WEBHOOK_ENDPOINT_CHANGES = { per: 'user', limit: 30, windowSeconds: 3600, scope: 'webhook-endpoint-changes' } as const satisfies RateLimit;

/**
 * The password attempts of one e-mail from one address, 5 per 15 minutes: login and every
 * route that checks the current password (change-password, the second factor's step-up)
 * count in this one window. A correct password clears it (lib/rate-limit, `clearOnSuccess`).
 */
export const PASSWORD_ATTEMPTS = {
  per: 'email-and-ip',
  limit: 5,
  windowSeconds: 900,
  counts: 'attempts',
  scope: 'password-attempts',
} as const satisfies RateLimit;

/**
 * The sign-in and registration attempts of one address, 30 per 15 minutes, whatever the
 * e-mail: rotating addresses no longer buys bcrypt. A success gives its slot back, so an
 * office behind one NAT counts only its mistakes.
 */
export const SIGN_IN_ATTEMPTS_PER_IP = { per: 'ip', limit: 30, windowSeconds: 900, counts: 'attempts', scope: 'sign-in-per-ip' } as const satisfies RateLimit;

export const createTenant = {
  method: 'POST',
  path: '/tenants',
  handler: 'functions/tenants/create-tenant.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'PutItem', 'DeleteItem'] },
  audits: ['tenant.created'],
  sendsMail: true,
  rateLimits: [{ per: 'ip', limit: 10, windowSeconds: 3600 }, INVITATIONS_PER_ADDRESS],
  refusesIdempotencyKey: true,
  summary: 'Create a tenant (sign-up); its administrator is invited by e-mail',
} as const satisfies Route;

export const listTenants = {
  method: 'GET',
  path: '/tenants',
  handler: 'functions/tenants/list-tenants.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: [], indexes: ['gsi1'] },
  sealsCursors: true,
  apiKey: false,
  summary: 'List every tenant (platform administrator)',
} as const satisfies Route;

export const getTenant = {
  method: 'GET',
  path: '/tenants/{id}',
  handler: 'functions/tenants/get-tenant.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem'] },
  apiKey: false,
  summary: "A tenant's profile and settings (its administrators, platform administrators)",
} as const satisfies Route;

export const updateTenant = {
  method: 'PATCH',
  path: '/tenants/{id}',
  handler: 'functions/tenants/update-tenant.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['tenant.updated'],
  sendsMail: true,
  // `adminEmail` invites the tenant's administrator: an invitation of that address.
  rateLimits: [INVITATIONS_PER_ADDRESS],
  apiKey: false,
  summary: 'Update a tenant profile, or invite its administrator (platform administrators)',
} as const satisfies Route;

export const closeTenant = {
  method: 'POST',
  path: '/tenants/{id}/close',
  handler: 'functions/tenants/close-tenant.ts',
  auth: 'protected',
  admin: 'platform',
  // The status read, then its change, the deletion's schedule entry and the entry in one
  // transaction; then its pending jobs failed (their markers by Query, each job by Update, the marker by Delete).
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['tenant.closed'],
  apiKey: false,
  summary: 'Close a tenant: sign-in refused at once, its deletion scheduled after the grace period (platform administrators)',
} as const satisfies Route;

export const reopenTenant = {
  method: 'POST',
  path: '/tenants/{id}/reopen',
  handler: 'functions/tenants/reopen-tenant.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['tenant.reopened'],
  apiKey: false,
  summary: 'Undo the close of a tenant before its deletion starts (platform administrators)',
} as const satisfies Route;

export const exportTenant = {
  method: 'POST',
  path: '/tenants/{id}/export',
  handler: 'functions/tenants/export-tenant.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: ['GetItem', 'PutItem'] },
  audits: ['tenant.exported'],
  tenantJobs: 'start',
  apiKey: false,
  summary: 'Export every item of a tenant as NDJSON with a manifest and checksums, its secrets left out (platform administrators)',
} as const satisfies Route;

export const getTenantExport = {
  method: 'GET',
  path: '/tenants/{id}/exports/{exportId}',
  handler: 'functions/tenants/get-tenant-export.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: ['GetItem'] },
  tenantJobs: 'read',
  apiKey: false,
  summary: "A tenant export's status and, once done, its download links for 15 minutes (platform administrators)",
} as const satisfies Route;

export const register = {
  method: 'POST',
  path: '/auth/register',
  handler: 'functions/auth/register.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'write' },
  audits: ['user.registered', 'invitation.accepted'],
  signsTokens: true,
  cpu: 'bcrypt',
  rateLimits: [SIGN_IN_ATTEMPTS_PER_IP],
  summary: 'Register a user into a tenant',
} as const satisfies Route;

export const login = {
  method: 'POST',
  path: '/auth/login',
  handler: 'functions/auth/login.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read' },
  // A sign-in past the cap of sessions also records each live session it ends.
  audits: ['auth.login', 'auth.login_failed', 'auth.mfa_challenged', 'session.evicted'],
  signsTokens: true,
  cpu: 'bcrypt',
  rateLimits: [PASSWORD_ATTEMPTS, SIGN_IN_ATTEMPTS_PER_IP],
  summary: 'Log in and receive the session cookies',
} as const satisfies Route;

export const me = {
  method: 'GET',
  path: '/auth/me',
  handler: 'functions/auth/me.ts',
  auth: 'protected',
  table: { actions: [] },
  openDuringMfaEnrolment: true,
  apiKey: false,
  summary: 'The current user',
} as const satisfies Route;

export const myData = {
  method: 'GET',
  path: '/auth/me/data',
  handler: 'functions/auth/get-my-data.ts',
  auth: 'protected',
  // The recovery codes left are counted on the user item (lib/auth/my-data): no credentials item is read.
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  // A whole copy reads up to thousands of items: now and then, not in a loop.
  rateLimits: [{ per: 'user', limit: 5, windowSeconds: 3600 }],
  apiKey: false,
  summary: 'Everything the service holds about the caller, as one document (LGPD Art. 19)',
} as const satisfies Route;

export const refresh = {
  method: 'POST',
  path: '/auth/refresh',
  handler: 'functions/auth/refresh.ts',
  auth: 'public',
  table: { actions: ['BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'] },
  audits: ['auth.refresh', 'auth.refresh_reuse_detected'],
  signsTokens: true,
  verifiesTokens: true,
  summary: 'Rotate the refresh token and issue a new access token',
} as const satisfies Route;

export const logout = {
  method: 'POST',
  path: '/auth/logout',
  handler: 'functions/auth/logout.ts',
  auth: 'protected',
  table: { actions: ['PutItem', 'UpdateItem'] },
  audits: ['auth.logout'],
  openDuringMfaEnrolment: true,
  apiKey: false,
  summary: 'End the current session',
} as const satisfies Route;

export const listSessions = {
  method: 'GET',
  path: '/auth/sessions',
  handler: 'functions/auth/list-sessions.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  // Each session route counts apart, so reading the list never holds a revocation back.
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 60 }],
  apiKey: false,
  summary: "The caller's active sessions, newest first",
} as const satisfies Route;

export const revokeSession = {
  method: 'POST',
  path: '/auth/sessions/{id}/revoke',
  handler: 'functions/auth/revoke-session.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['session.revoked'],
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 60 }],
  idempotent: { status: 200 },
  apiKey: false,
  summary: "Revoke one of the caller's sessions",
} as const satisfies Route;

export const revokeOtherSessions = {
  method: 'POST',
  path: '/auth/sessions/revoke-others',
  handler: 'functions/auth/revoke-other-sessions.ts',
  auth: 'protected',
  table: { actions: ['Query', 'PutItem', 'UpdateItem'] },
  audits: ['session.revoked_others'],
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 60 }],
  apiKey: false,
  summary: 'End every session of the caller but the current one',
} as const satisfies Route;

export const listUsers = {
  method: 'GET',
  path: '/users',
  handler: 'functions/users/list-users.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['BatchGetItem', 'Query'] },
  sealsCursors: true,
  apiKey: false,
  summary: "The tenant's users, by name (tenant administrators)",
} as const satisfies Route;

export const updateUser = {
  method: 'PATCH',
  path: '/users/{id}',
  handler: 'functions/users/update-user.ts',
  auth: 'protected',
  admin: 'tenant',
  // A demotion fails the user's pending jobs that needed an administrator (markers by Query, jobs by Update, markers by Delete).
  table: { actions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['user.role_changed'],
  apiKey: false,
  summary: "Change a user's role (tenant administrators)",
} as const satisfies Route;

export const deleteUser = {
  method: 'DELETE',
  path: '/users/{id}',
  handler: 'functions/users/delete-user.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'write' },
  audits: ['user.removed'],
  apiKey: false,
  summary: 'Remove a user from the tenant (tenant administrators)',
} as const satisfies Route;

export const resetUserMfa = {
  method: 'DELETE',
  path: '/users/{id}/mfa',
  handler: 'functions/users/reset-user-mfa.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], credentials: 'write' },
  audits: ['user.mfa_reset'],
  sendsMail: true,
  apiKey: false,
  summary: "Reset a user's second factor (tenant administrators for members; platform administrators for tenant administrators)",
} as const satisfies Route;

export const anonymizeUser = {
  method: 'POST',
  path: '/users/{id}/anonymize',
  handler: 'functions/users/anonymize-user.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['user.anonymized'],
  rateLimits: [{ per: 'user', limit: 30, windowSeconds: 3600 }],
  apiKey: false,
  summary: "Replace a removed user's name and e-mail in the tenant's audit trail with a placeholder (tenant administrators)",
} as const satisfies Route;

export const changePassword = {
  method: 'POST',
  path: '/auth/change-password',
  handler: 'functions/auth/change-password.ts',
  auth: 'protected',
  // Its UpdateItem also counts the login throttle's attempts (the RATE# counters it shares with login).
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.password_changed'],
  signsTokens: true,
  sendsMail: true,
  cpu: 'bcrypt',
  rateLimits: [PASSWORD_ATTEMPTS],
  apiKey: false,
  summary: 'Change the password; every other session ends, this one goes on with fresh cookies',
} as const satisfies Route;

export const startTotpEnrolment = {
  method: 'POST',
  path: '/auth/mfa/totp',
  handler: 'functions/auth/start-totp-enrolment.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'], credentials: 'read-write' },
  audits: ['auth.mfa_enrolment_started'],
  openDuringMfaEnrolment: true,
  cpu: 'bcrypt',
  rateLimits: [PASSWORD_ATTEMPTS],
  apiKey: false,
  summary: 'Start enrolling a TOTP second factor with the current password (secret, otpauth URI and QR code)',
} as const satisfies Route;

export const confirmTotpEnrolment = {
  method: 'POST',
  path: '/auth/mfa/totp/confirm',
  handler: 'functions/auth/confirm-totp-enrolment.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.mfa_enabled'],
  signsTokens: true,
  sendsMail: true,
  openDuringMfaEnrolment: true,
  apiKey: false,
  summary: 'Turn the second factor on with a code; returns the recovery codes once',
} as const satisfies Route;

export const disableTotp = {
  method: 'DELETE',
  path: '/auth/mfa/totp',
  handler: 'functions/auth/disable-totp.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.mfa_disabled'],
  signsTokens: true,
  sendsMail: true,
  apiKey: false,
  summary: 'Turn the second factor off with a code or a recovery code',
} as const satisfies Route;

export const verifySecondFactor = {
  method: 'POST',
  path: '/auth/mfa/verify',
  handler: 'functions/auth/verify-second-factor.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.login', 'auth.mfa_recovery_code_used', 'auth.mfa_failed', 'session.evicted'],
  signsTokens: true,
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 900, counts: 'attempts' }],
  summary: 'Complete a login with a TOTP code or a recovery code',
} as const satisfies Route;

export const forgotPassword = {
  method: 'POST',
  path: '/auth/forgot-password',
  handler: 'functions/auth/forgot-password.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], credentials: 'write' },
  audits: ['auth.password_reset_requested'],
  sendsMail: true,
  // Per IP (every request), and per address (5 a day) so that many IPs cannot flood one mailbox.
  rateLimits: [
    { per: 'ip', limit: 3, windowSeconds: 3600 },
    { per: 'email', limit: 5, windowSeconds: 24 * 3600 },
  ],
  summary: 'E-mail a password reset link if the address exists',
} as const satisfies Route;

export const resetPassword = {
  method: 'POST',
  path: '/auth/reset-password',
  handler: 'functions/auth/reset-password.ts',
  auth: 'public',
  // The token used up (Delete), the password and the credential version (Update), the tenant checked ACTIVE in the same transaction.
  table: { actions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'write' },
  audits: ['auth.password_reset'],
  cpu: 'bcrypt',
  sendsMail: true,
  summary: 'Set a new password with a reset token',
} as const satisfies Route;

export const createInvitation = {
  method: 'POST',
  path: '/auth/invitations',
  handler: 'functions/auth/create-invitation.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['invitation.created'],
  sendsMail: true,
  // Per inviting user, and per invited address across every way of inviting.
  rateLimits: [{ per: 'user', limit: 20, windowSeconds: 3600 }, INVITATIONS_PER_ADDRESS],
  idempotent: { status: 201 },
  apiKey: false,
  summary: "Invite an e-mail into the caller's tenant (administrators)",
} as const satisfies Route;

export const listInvitations = {
  method: 'GET',
  path: '/auth/invitations',
  handler: 'functions/auth/list-invitations.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['Query'] },
  sealsCursors: true,
  apiKey: false,
  summary: "The tenant's pending invitations (administrators)",
} as const satisfies Route;

export const withdrawInvitation = {
  method: 'DELETE',
  path: '/auth/invitations/{id}',
  handler: 'functions/auth/withdraw-invitation.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['PutItem', 'DeleteItem'], indexes: ['gsi1'] },
  audits: ['invitation.withdrawn'],
  apiKey: false,
  summary: 'Withdraw a pending invitation (administrators)',
} as const satisfies Route;

export const createCompany = {
  method: 'POST',
  path: '/companies',
  handler: 'functions/companies/create-company.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['company.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'companies', access: 'write' },
  summary: "Create a company in the caller's tenant",
} as const satisfies Route;

export const listCompanies = {
  method: 'GET',
  path: '/companies',
  handler: 'functions/companies/list-companies.ts',
  auth: 'protected',
  // GetItem: the one company of an API key limited to it.
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  sealsCursors: true,
  apiKey: { resource: 'companies', access: 'read' },
  summary: "The caller's tenant's companies, oldest first",
} as const satisfies Route;

export const updateCompany = {
  method: 'PATCH',
  path: '/companies/{id}',
  handler: 'functions/companies/update-company.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  audits: ['company.updated'],
  apiKey: { resource: 'companies', access: 'write' },
  summary: 'Update a company (name, email, address, settings, taxRegime, costMethod)',
} as const satisfies Route;

export const updateCompanyStatus = {
  method: 'PATCH',
  path: '/companies/{id}/status',
  handler: 'functions/companies/update-company-status.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], indexes: ['gsi1'] },
  audits: ['company.status_changed'],
  apiKey: { resource: 'companies', access: 'write' },
  summary: 'Move a company through its status lifecycle (administrators)',
} as const satisfies Route;

export const createSupplier = {
  method: 'POST',
  path: '/suppliers',
  handler: 'functions/suppliers/create-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['supplier.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: "Create a supplier in the caller's tenant",
} as const satisfies Route;

export const listSuppliers = {
  method: 'GET',
  path: '/suppliers',
  handler: 'functions/suppliers/list-suppliers.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  searches: 'suppliers',
  cpu: 'search',
  // A search on a cold function loads the tenant's suppliers: each user's searches are limited.
  rateLimits: [{ per: 'user', limit: 30, windowSeconds: 60, counts: 'searches' }],
  apiKey: { resource: 'suppliers', access: 'read' },
  summary: 'A page of suppliers by name, optionally searched',
} as const satisfies Route;

export const getSupplier = {
  method: 'GET',
  path: '/suppliers/{id}',
  handler: 'functions/suppliers/get-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  apiKey: { resource: 'suppliers', access: 'read' },
  summary: 'One supplier by id',
} as const satisfies Route;

export const updateSupplier = {
  method: 'PATCH',
  path: '/suppliers/{id}',
  handler: 'functions/suppliers/update-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['supplier.updated'],
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: 'Update a supplier',
} as const satisfies Route;

export const deleteSupplier = {
  method: 'DELETE',
  path: '/suppliers/{id}',
  handler: 'functions/suppliers/delete-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['supplier.deleted'],
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: 'Delete a supplier for good',
} as const satisfies Route;

export const createWarehouse = {
  method: 'POST',
  path: '/inventory/warehouses',
  handler: 'functions/inventory/create-warehouse.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['warehouse.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Create a warehouse',
} as const satisfies Route;

export const listWarehouses = {
  method: 'GET',
  path: '/inventory/warehouses',
  handler: 'functions/inventory/list-warehouses.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  sealsCursors: true,
  apiKey: { resource: 'inventory', access: 'read' },
  summary: "The tenant's warehouses, by name",
} as const satisfies Route;

export const getWarehouse = {
  method: 'GET',
  path: '/inventory/warehouses/{id}',
  handler: 'functions/inventory/get-warehouse.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'One warehouse by id',
} as const satisfies Route;

export const createProduct = {
  method: 'POST',
  path: '/inventory/products',
  handler: 'functions/inventory/create-product.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['product.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Create a product (SKU unique in the tenant)',
} as const satisfies Route;

export const listProducts = {
  method: 'GET',
  path: '/inventory/products',
  handler: 'functions/inventory/list-products.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'Query'] },
  searches: 'products',
  cpu: 'search',
  // A search on a cold function loads the tenant's products: each user's searches are limited.
  rateLimits: [{ per: 'user', limit: 30, windowSeconds: 60, counts: 'searches' }],
  sealsCursors: true,
  apiKey: { resource: 'inventory', access: 'read' },
  summary: "The tenant's products, by SKU",
} as const satisfies Route;

export const getProduct = {
  method: 'GET',
  path: '/inventory/products/{id}',
  handler: 'functions/inventory/get-product.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'One product by id',
} as const satisfies Route;

export const createMovement = {
  method: 'POST',
  path: '/inventory/movements',
  handler: 'functions/inventory/create-movement.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['movement.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Record a stock movement (IN, OUT, SALE, ADJUSTMENT)',
} as const satisfies Route;

export const listMovements = {
  method: 'GET',
  path: '/inventory/movements',
  handler: 'functions/inventory/list-movements.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  sealsCursors: true,
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'The stock history (kardex): movements newest first, with the balance each left',
} as const satisfies Route;

export const stockCoverage = {
  method: 'GET',
  path: '/inventory/dashboard/coverage',
  handler: 'functions/inventory/stock-coverage.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query'] },
  sealsCursors: true,
  // A window the index does not serve reads the whole catalog: each user's such reads are limited.
  rateLimits: [{ per: 'user', limit: 60, windowSeconds: 3600, counts: 'full-reads' }],
  apiKey: { resource: 'dashboards', access: 'read' },
  summary: 'Days of stock per product at the average daily sales of the last `days` days',
} as const satisfies Route;

export const stockByWarehouse = {
  method: 'GET',
  path: '/inventory/dashboard/by-warehouse',
  handler: 'functions/inventory/stock-by-warehouse.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  apiKey: { resource: 'dashboards', access: 'read' },
  summary: 'Stock totals per warehouse',
} as const satisfies Route;

export const listAuditEvents = {
  method: 'GET',
  path: '/audit-events',
  handler: 'functions/audit/list-audit-events.ts',
  auth: 'protected',
  admin: 'tenant',
  // A page's entries by Query, and their origins (IP, User-Agent: items apart) by Query or one BatchGetItem.
  table: { actions: ['BatchGetItem', 'Query'], indexes: ['gsi1'] },
  sealsCursors: true,
  apiKey: { resource: 'audit', access: 'read' },
  summary: 'The audit trail, newest first, filtered by actor, action, resource and time (tenant administrators)',
} as const satisfies Route;

export const listEvents = {
  method: 'GET',
  path: '/events',
  handler: 'functions/events/list-events.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['Query'], indexes: ['gsi1'] },
  sealsCursors: true,
  apiKey: { resource: 'events', access: 'read' },
  summary: "The tenant's domain events of the last 30 days, oldest first, for a receiver catching up (tenant administrators)",
} as const satisfies Route;

export const createApiKey = {
  method: 'POST',
  path: '/api-keys',
  handler: 'functions/api-keys/create-api-key.ts',
  auth: 'protected',
  admin: 'tenant',
  // GetItem: the company a key is limited to; Query: the administrators to tell.
  table: { actions: ['GetItem', 'Query', 'PutItem'] },
  audits: ['api_key.created'],
  sendsMail: true,
  rateLimits: [API_KEY_CHANGES],
  apiKey: false,
  summary: 'Create an API key for a system that feeds the back-office; its text is shown once (tenant administrators)',
} as const satisfies Route;

export const listApiKeys = {
  method: 'GET',
  path: '/api-keys',
  handler: 'functions/api-keys/list-api-keys.ts',
  auth: 'protected',
  admin: 'tenant',
  // The keys (Query), then the address of each one's last use, kept apart (BatchGet).
  table: { actions: ['BatchGetItem', 'Query'] },
  sealsCursors: true,
  apiKey: false,
  summary: "The tenant's API keys, newest first, never their secrets (tenant administrators)",
} as const satisfies Route;

export const rollApiKey = {
  method: 'POST',
  path: '/api-keys/{id}/roll',
  handler: 'functions/api-keys/roll-api-key.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] },
  audits: ['api_key.rolled'],
  sendsMail: true,
  rateLimits: [API_KEY_CHANGES],
  apiKey: false,
  summary: 'Give an API key a new secret; the old one works for `expiresInHours` more (tenant administrators)',
} as const satisfies Route;

export const deleteApiKey = {
  method: 'DELETE',
  path: '/api-keys/{id}',
  handler: 'functions/api-keys/delete-api-key.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['PutItem', 'DeleteItem'] },
  audits: ['api_key.revoked'],
  rateLimits: [API_KEY_CHANGES],
  apiKey: false,
  summary: 'Revoke an API key: the next request with it gets 401 (tenant administrators)',
} as const satisfies Route;

export const createWebhookEndpoint = {
  method: 'POST',
  path: '/webhook-endpoints',
  handler: 'functions/webhooks/create-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  // The endpoint, its secrets, the tenant's endpoint count (UpdateItem, conditioned on the cap) and the entry, in one transaction.
  table: { actions: ['PutItem', 'UpdateItem'], webhookSecrets: 'write' },
  audits: ['webhook_endpoint.created'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: "Register an endpoint to receive the tenant's events; its signing secret is shown once (tenant administrators)",
} as const satisfies Route;

export const listWebhookEndpoints = {
  method: 'GET',
  path: '/webhook-endpoints',
  handler: 'functions/webhooks/list-webhook-endpoints.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['Query'] },
  sealsCursors: true,
  apiKey: false,
  summary: "The tenant's webhook endpoints, never their secrets (tenant administrators)",
} as const satisfies Route;

export const updateWebhookEndpoint = {
  method: 'PATCH',
  path: '/webhook-endpoints/{id}',
  handler: 'functions/webhooks/update-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  audits: ['webhook_endpoint.updated'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: "Change a webhook endpoint's URL, events, description, or enable or disable it (tenant administrators)",
} as const satisfies Route;

export const deleteWebhookEndpoint = {
  method: 'DELETE',
  path: '/webhook-endpoints/{id}',
  handler: 'functions/webhooks/delete-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['PutItem', 'UpdateItem', 'DeleteItem'], webhookSecrets: 'write' },
  audits: ['webhook_endpoint.deleted'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: 'Delete a webhook endpoint and its secrets: nothing more is delivered to it (tenant administrators)',
} as const satisfies Route;

export const rotateWebhookSecret = {
  method: 'POST',
  path: '/webhook-endpoints/{id}/rotate-secret',
  handler: 'functions/webhooks/rotate-webhook-secret.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], webhookSecrets: 'read-write' },
  audits: ['webhook_endpoint.secret_rotated'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: 'Give a webhook endpoint a new signing secret, shown once; the previous one signs for 24 hours more (tenant administrators)',
} as const satisfies Route;

export const testWebhookEndpoint = {
  method: 'POST',
  path: '/webhook-endpoints/{id}/test',
  handler: 'functions/webhooks/test-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  // The endpoint and its secrets (GetItem), the delivery (PutItem) and its attempt (UpdateItem), the entry (PutItem).
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], webhookSecrets: 'read' },
  audits: ['webhook_endpoint.tested'],
  rateLimits: [WEBHOOK_SENDS],
  apiKey: false,
  timeoutSeconds: WEBHOOK_SEND_TIMEOUT_SECONDS,
  summary: 'Send a `ping` event to a webhook endpoint now and answer what it replied (tenant administrators)',
} as const satisfies Route;

export const retryWebhookDelivery = {
  method: 'POST',
  path: '/webhook-deliveries/{id}/retry',
  handler: 'functions/webhooks/retry-webhook-delivery.ts',
  auth: 'protected',
  admin: 'tenant',
  // A 410 disables the endpoint and mails the tenant's administrators (Query of its users), as the delivery function does.
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], webhookSecrets: 'read' },
  sendsMail: true,
  audits: ['webhook_endpoint.delivery_retried'],
  rateLimits: [WEBHOOK_SENDS],
  apiKey: false,
  timeoutSeconds: WEBHOOK_SEND_TIMEOUT_SECONDS,
  summary: 'Send a delivery again now and answer what the endpoint replied (tenant administrators)',
} as const satisfies Route;

export const listWebhookDeliveries = {
  method: 'GET',
  path: '/webhook-endpoints/{id}/deliveries',
  handler: 'functions/webhooks/list-webhook-deliveries.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'Query'] },
  sealsCursors: true,
  apiKey: false,
  summary: "A webhook endpoint's deliveries and their attempts, newest first (tenant administrators)",
} as const satisfies Route;

/** Imports write thousands of records each: a few an hour per administrator. */
const IMPORTS_STARTED = { per: 'user', limit: 20, windowSeconds: 3600, scope: 'imports' } as const satisfies RateLimit;

export const createImport = {
  method: 'POST',
  path: '/imports',
  handler: 'functions/imports/create-import.ts',
  auth: 'protected',
  admin: 'tenant',
  // The job and its entry in one transaction; the upload link is signed, not stored.
  table: { actions: ['PutItem'] },
  audits: ['import.created'],
  signsImportUploads: true,
  rateLimits: [IMPORTS_STARTED],
  apiKey: false,
  summary: 'Start a CSV import of suppliers or products (a dry run or a real one), and get where to upload its file (tenant administrators)',
} as const satisfies Route;

export const getImport = {
  method: 'GET',
  path: '/imports/{id}',
  handler: 'functions/imports/get-import.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem'] },
  apiKey: false,
  summary: "An import's progress and report: rows done, created, already there, refused with their lines (tenant administrators)",
} as const satisfies Route;

/** Exports read the whole of a list each: as many an hour per user as imports. */
const EXPORTS_STARTED = { per: 'user', limit: 20, windowSeconds: 3600, scope: 'exports' } as const satisfies RateLimit;

export const createExport = {
  method: 'POST',
  path: '/exports',
  handler: 'functions/exports/create-export.ts',
  auth: 'protected',
  // The job and its entry in one transaction; the worker is sent its message after.
  table: { actions: ['PutItem'] },
  audits: ['export.created'],
  queuesExports: true,
  rateLimits: [EXPORTS_STARTED],
  apiKey: false,
  summary: 'Start a CSV export of suppliers, products with their stock, the stock history or the audit trail of a period, for a spreadsheet',
} as const satisfies Route;

export const getExport = {
  method: 'GET',
  path: '/exports/{id}',
  handler: 'functions/exports/get-export.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  signsExportDownloads: true,
  apiKey: false,
  summary: "An export's state and, once it is done, a link to download its file (valid 15 minutes)",
} as const satisfies Route;

/**
 * Every route by its id, in manifest order (the tooling, the stack and the tests read it).
 * A handler imports its own route alone (`import * as routes from '…/lib/routes'`, then
 * `routes.<id>`), so that its bundle holds its entry of the manifest, not all of them.
 */
export const routes = {
  createTenant,
  listTenants,
  getTenant,
  updateTenant,
  closeTenant,
  reopenTenant,
  exportTenant,
  getTenantExport,
  register,
  login,
  me,
  myData,
  refresh,
  logout,
  listSessions,
  revokeSession,
  revokeOtherSessions,
  listUsers,
  updateUser,
  deleteUser,
  resetUserMfa,
  anonymizeUser,
  changePassword,
  startTotpEnrolment,
  confirmTotpEnrolment,
  disableTotp,
  verifySecondFactor,
  forgotPassword,
  resetPassword,
  createInvitation,
  listInvitations,
  withdrawInvitation,
  createCompany,
  listCompanies,
  updateCompany,
  updateCompanyStatus,
  createSupplier,
  listSuppliers,
  getSupplier,
  updateSupplier,
  deleteSupplier,
  createWarehouse,
  listWarehouses,
  getWarehouse,
  createProduct,
  listProducts,
  getProduct,
  createMovement,
  listMovements,
  stockCoverage,
  stockByWarehouse,
  listAuditEvents,
  listEvents,
  createApiKey,
  listApiKeys,
  rollApiKey,
  deleteApiKey,
  createWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  testWebhookEndpoint,
  retryWebhookDelivery,
  listWebhookDeliveries,
  createImport,
  getImport,
  createExport,
  getExport,
} as const satisfies Record<string, Route>;

export type RouteId = keyof typeof routes;

/**
 * The REQUEST authorizer in front of every protected route, for the session cookie and API
 * keys alike. It has no identity source: API Gateway can require one header, not one of two,
 * so a request with neither invokes it and gets 401 at once, before any read.
 */
export const authorizer = {
  handler: 'functions/auth/authorizer.ts',
  table: { actions: ['BatchGetItem'] } satisfies TableAccess,
  /**
   * Besides its reads, the attributes it writes: a session's `lastActiveAt` (at most once a
   * minute per session) and an API key's `lastUsedAt` (at most once per 5 minutes per key;
   * `lastUsedIp` only to remove an address a key held before it was kept apart).
   */
  updatesAttributes: ['lastActiveAt', 'lastUsedAt', 'lastUsedIp'],
  /**
   * And the address of a key's last use, in its own item (lib/db/keys `apiKeyUse`): these
   * attributes, `ttl` among them, in those partitions only, so that no other item's expiry can
   * be set by it.
   */
  keyUses: { partitions: `${API_KEY_USE_PK_PREFIX}*`, attributes: ['type', 'tenantId', 'lastUsedAt', 'lastUsedIp', 'ttl'] },
} as const;

/**
 * What an API key needs to call the route at `method` and `resource` (API Gateway's resource
 * path): its manifest entry's `apiKey`, or `false` when the route takes none or is unknown.
 */
export function routeKeyAccess(method: string, resource: string): RouteKeyAccess {
  for (const route of Object.values(routes) as Route[]) {
    if (route.method === method && route.path === resource) return route.auth === 'protected' ? (route.apiKey ?? false) : false;
  }
  return false;
}

/**
 * A route's area: the folder of its handler under functions/ (`functions/auth/login.ts` is in
 * `auth`). Its function, role and method land in that area's stack (infra/constructs/route-area.ts).
 */
export function routeArea(route: Pick<Route, 'handler'>): string {
  const match = /^functions\/([a-z0-9-]+)\//.exec(route.handler);
  if (!match) throw new Error(`A route handler lives in a folder of functions/: ${route.handler}`);
  return match[1] as string;
}

/** Every route with its id, in manifest order. */
export function routeList(): (Route & { id: RouteId })[] {
  return (Object.entries(routes) as [RouteId, Route][]).map(([id, route]) => ({ id, ...route }));
}

/**
 * The functions that consume a queue rather than answer a route or a schedule
 * (`functions/<area>/<noun>-worker.ts`): the webhook deliveries (infra/constructs/webhooks.ts,
 * fed by the table's stream through a pipe and by their own wake-ups), the imports' and the
 * exports' steps, the tenant jobs' steps. Each one's table access is granted exactly, as a route's.
 */
export const workers = {
  deliveryWorker: {
    name: 'delivery-worker',
    handler: 'functions/webhooks/delivery-worker.ts',
    // Deliveries (Put, claims and attempts by Update, reads by Get); the endpoints (Query, Get,
    // failing time by Update); an endpoint disabled with its entry (Update and Put in one
    // transaction); the administrators told (Query of the tenant's users).
    table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], webhookSecrets: 'read' } satisfies TableAccess,
    sendsMail: true,
    summary: "Deliver the tenant's domain events to its webhook endpoints, and retry them on the schedule",
  },
  importWorker: {
    name: 'import-worker',
    handler: 'functions/imports/import-worker.ts',
    // The job (Get, steps by Update); each row created as its route creates it: a supplier (its
    // count, block and search delta by Update, document and block reads by Get and Query) or a
    // product (Put in a transaction, its coverage tenant registered by Update); a dry run's
    // lookups of documents and SKUs (BatchGet).
    table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] } satisfies TableAccess,
    summary: 'Run the steps of CSV imports: check every row, create a batch of them, send the next step',
  },
  exportWorker: {
    name: 'export-worker',
    handler: 'functions/exports/export-worker.ts',
    // The job (Get; taken, its progress and its end by Update); the source's pages: suppliers
    // (index by Query, items by BatchGet), products (SKU list and warehouses by Query, items and
    // balances by BatchGet), the stock history and the audit trail with its origins (Query);
    // its tenant and user read again before it runs (Get), its pending-job marker removed at its end (Delete).
    table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'UpdateItem', 'DeleteItem'] } satisfies TableAccess,
    summary: 'Write CSV exports: read the source in pages and stream the rows to the file',
  },
  tenantJobWorker: {
    name: 'tenant-job-worker',
    handler: 'functions/tenants/tenant-job-worker.ts',
    // The whole table's Scan (a closed tenant's items are under many keys), its items deleted
    // in batches (BatchWrite), the progress on the tenant's or the export's item (Get, Update),
    // the last transaction (Delete, Put of the entries). A deletion removes the tenant's
    // credentials and webhook secrets, and a Scan reads them.
    table: {
      actions: ['GetItem', 'Scan', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'],
      credentials: 'read-write',
      webhookSecrets: 'read-write',
    } satisfies TableAccess,
    /** In the platform's trail: the count before, then the counts at the end. */
    audits: ['tenant.deletion_started', 'tenant.deleted'] satisfies AuditAction[],
    summary: "Run the steps of the tenant jobs: a closed tenant's deletion, a tenant's export",
  },
} as const;

/** Scheduled jobs: each its own function on an EventBridge schedule (UTC cron fields). */
export const jobs = {
  salesRollup: {
    name: 'sales-rollup',
    handler: 'functions/jobs/sales-rollup.ts',
    // The markers' transactions check the tenant's item (ConditionCheck): none is written for a tenant being deleted.
    table: {
      actions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
      indexes: ['gsi1'],
    } satisfies TableAccess,
    /** 03:15 UTC = 00:15 in America/Sao_Paulo (UTC-3, no daylight saving since 2019). */
    schedule: { hour: 3, minute: 15 },
    summary: "Roll each complete day's sales up for the coverage dashboard",
  },
  tenantDeletion: {
    name: 'tenant-deletion',
    handler: 'functions/jobs/tenant-deletion.ts',
    // The schedule's due entries (Query), each tenant read (Get), its users (Query), marked DELETING
    // (Update) with its Scan's first position in an item of its own (Put, lib/db/keys `scanPosition`).
    table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] } satisfies TableAccess,
    /** After the sales roll-up (03:15 UTC). */
    schedule: { hour: 4, minute: 0 },
    summary: 'Start the deletion of each closed tenant whose grace period is over',
  },
} as const;
