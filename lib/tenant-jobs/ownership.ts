import {
  COVERAGE_TENANTS_PK_PREFIX,
  CREDENTIALS_PK_PREFIX,
  keys,
  PLATFORM_PK_PREFIX,
  RATE_PK_PREFIX,
  SCAN_POSITION_PK_PREFIX,
  tenantPartitionPrefixes,
  WEBHOOK_SECRETS_PK_PREFIX,
} from '../db/keys';
import { uuidToBase62 } from '../domain/base62';

/**
 * Which items of the table are a tenant's: what its deletion removes and its export holds
 * (lib/tenant-jobs/engine). Pure: the engine reads the table with a Scan and asks this of each
 * item. Most items say it by their key (`TENANT#<id>` and `TENANT#<id>#…`, the credentials'
 * and webhook secrets' partitions); the service-wide ones by a `tenantId` attribute (the
 * sentinels of its name, its users' e-mails and its companies' documents, second-factor
 * challenges, password resets); the coverage job's list by its sort key; the rate-limit
 * counters by the subject in their key (a user's id, or an API key's id, which starts with the
 * tenant's id in base62). The platform's own partitions (its audit trail, the incident
 * register) are never a tenant's: the entries about the tenant are the record of what was done.
 */

/** What the Scan cannot tell from an item alone: the tenant and its users' ids (read before the Scan). */
export interface TenantFacts {
  tenantId: string;
  userIds: readonly string[];
}

export function belongsToTenant(item: Record<string, unknown>, facts: TenantFacts): boolean {
  const pk = String(item.pk);
  // The tenant jobs' Scan positions hold any tenant's keys, and are nobody's (lib/db/keys `scanPosition`).
  if (pk.startsWith(PLATFORM_PK_PREFIX) || pk.startsWith(SCAN_POSITION_PK_PREFIX)) return false;
  const partitions = tenantPartitionPrefixes(facts.tenantId);
  if (pk === partitions.exact || partitions.prefixes.some((prefix) => pk.startsWith(prefix))) return true;
  if (item.tenantId === facts.tenantId) return true;
  if (pk.startsWith(COVERAGE_TENANTS_PK_PREFIX)) return item.sk === facts.tenantId;
  if (pk.startsWith(RATE_PK_PREFIX)) {
    const subject = pk.slice(pk.indexOf('#', RATE_PK_PREFIX.length) + 1);
    return subject.startsWith(uuidToBase62(facts.tenantId)) || facts.userIds.includes(subject);
  }
  return false;
}

/**
 * The items the deletion keeps until its last transaction, whatever the Scan finds: the
 * tenant's own item (it holds the deletion's progress) and its place in the schedule.
 */
export function isDeletionBookkeeping(item: Record<string, unknown>, tenantId: string, deletionDueAt: string): boolean {
  const tenant = keys.tenant(tenantId);
  const due = keys.tenantDeletionDue(deletionDueAt, tenantId);
  return (item.pk === tenant.pk && item.sk === tenant.sk) || (item.pk === due.pk && item.sk === due.sk);
}

/**
 * What a tenant's export leaves out, and why: whole items that are secrets or operational
 * records (not the tenant's data), and, in the items it holds, every attribute whose name says
 * it is a hash or a secret (API keys' hashes, invitation and session token hashes).
 */
export const EXPORT_EXCLUDED_ITEMS = [
  {
    kind: 'credentials',
    reason: "users' password hashes, second-factor (TOTP) secrets, recovery-code and reset-token hashes",
    pkPrefix: CREDENTIALS_PK_PREFIX,
  },
  { kind: 'webhook-secrets', reason: "webhook endpoints' signing secrets", pkPrefix: WEBHOOK_SECRETS_PK_PREFIX },
  { kind: 'mfa-challenges', reason: 'second-factor challenges of logins in progress (tokens)', pkPrefix: 'MFA_CHALLENGE#' },
  { kind: 'password-resets', reason: 'password-reset tokens', pkPrefix: 'PASSWORD_RESET#' },
  { kind: 'rate-limit-counters', reason: 'rate-limit windows (operational, not data)', pkPrefix: RATE_PK_PREFIX },
] as const;
export const EXPORT_IDEMPOTENCY = { kind: 'idempotency-records', reason: 'Idempotency-Key records (stored responses of requests)' } as const;
export const EXPORT_EXCLUDED_ATTRIBUTES = {
  // A session's refresh-token ids (the current and the previous one) are what a refresh is checked against, and a user's credential version what every session is: the same secrets the my-data answer never shows.
  pattern: /hash|secret|refreshJti$|^credentialVersion$/i,
  reason: "hashes and secrets inside exported items (API keys, invitation and session tokens, sessions' refresh-token ids, users' credential versions)",
} as const;

/** The kind of an item left out of an export, or undefined when the export holds it. */
export function excludedKind(item: Record<string, unknown>): string | undefined {
  const pk = String(item.pk);
  const excluded = EXPORT_EXCLUDED_ITEMS.find((rule) => pk.startsWith(rule.pkPrefix));
  if (excluded) return excluded.kind;
  if (pk.startsWith('IDEMPOTENCY#') || String(item.sk).startsWith('IDEMPOTENCY#')) return EXPORT_IDEMPOTENCY.kind;
  return undefined;
}

/** An item as an export line holds it: without its hash and secret attributes; the names it dropped. */
export function exportedItem(item: Record<string, unknown>): { item: Record<string, unknown>; dropped: string[] } {
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (EXPORT_EXCLUDED_ATTRIBUTES.pattern.test(name)) dropped.push(name);
    else kept[name] = value;
  }
  return { item: kept, dropped };
}

/** The kind an export counts an item under: its `type` attribute, else its partition's first segment. */
export const itemKind = (item: Record<string, unknown>): string => (typeof item.type === 'string' ? item.type : (String(item.pk).split('#')[0] ?? 'unknown'));

/** One NDJSON line: DynamoDB's plain JSON (what the document client reads), sets as arrays, binary as base64. */
export function ndjsonLine(item: Record<string, unknown>): string {
  return `${JSON.stringify(item, (_key, value: unknown) => {
    if (value instanceof Set) return [...(value as Set<unknown>)];
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    if (typeof value === 'bigint') return value.toString();
    return value;
  })}\n`;
}
