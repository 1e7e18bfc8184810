/** The shape of a manifest entry: what a route declares, and what the stack, the tooling and the tests read from it. */
import type { RouteKeyAccess } from '../domain/key-scopes';
import type { AuditAction } from '../audit/model';
import type { SearchList } from '../db/keys';
import type { tableDefinition } from '../db/table';
import type { RateLimit } from '../rate-limit';

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

/**
 * A resource beyond the table that a function uses, granted to it alone (SST's `link` is the
 * model: a route names what it reaches, one table in infra/ says what each grants):
 * - `mail`: `ses:SendEmail` on the configured identity;
 * - `signing-key`: reads the private signing key, to issue tokens;
 * - `verification-keys`: the public keys, to verify tokens itself (besides the authorizer);
 * - `cursor-key`: reads the cursor key, to page with sealed cursors (lib/domain/cursor);
 * - `import-uploads`: knows the import bucket and may put its files (presigned uploads, lib/imports/storage);
 * - `export-queue`: knows the export queue and may send to it (lib/exports/queue);
 * - `export-downloads`: knows the bucket and may read its `exports/` files (presigned downloads, lib/exports/storage);
 * - `tenant-job-queue`: sends a tenant job's first step to its queue (lib/tenant-jobs);
 * - `tenant-export-downloads`: presigns downloads of a tenant export's files.
 */
export const CAPABILITIES = [
  'mail',
  'signing-key',
  'verification-keys',
  'cursor-key',
  'import-uploads',
  'export-queue',
  'export-downloads',
  'tenant-job-queue',
  'tenant-export-downloads',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Whether a route (or worker) declares `capability` among its `uses`. */
export const uses = (entry: { uses?: readonly Capability[] }, capability: Capability): boolean => entry.uses?.includes(capability) ?? false;

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
  /**
   * What else the function reaches besides the table, each granted by one entry of the
   * stack's capability table (infra/constructs/route-area.ts, `CAPABILITY_GRANTS`); no other
   * function may (see `Capability`).
   */
  uses?: readonly Capability[];
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

export type { RateLimit };
