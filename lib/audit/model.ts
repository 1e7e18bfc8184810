import * as z from 'zod/mini';
import { schema } from '../domain/schema';
import type { DomainEvent } from '../domain/events';

/**
 * The audit trail: one entry per security event and per data change, written in
 * the same DynamoDB transaction as the change it records (lib/audit/repository), so no
 * change commits without its entry and no entry exists without its change. Entries are kept
 * AUDIT_RETENTION_DAYS (DynamoDB TTL), their origin (IP address, User-Agent) only
 * ACCESS_RECORD_RETENTION_DAYS, and no route edits or deletes them but one: anonymizing a
 * removed user (lib/auth/anonymize) replaces the user's name and e-mail in them, never an id,
 * an action or a time.
 */

/** What happened. Security events first, then data changes. */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.logout',
  'auth.refresh',
  'auth.refresh_reuse_detected',
  'auth.password_reset_requested',
  'auth.password_reset',
  'auth.password_changed',
  'auth.mfa_enrolment_started',
  'auth.mfa_enabled',
  'auth.mfa_disabled',
  'auth.mfa_challenged',
  'auth.mfa_failed',
  'auth.mfa_recovery_code_used',
  'session.revoked',
  'session.revoked_others',
  'session.evicted',
  'invitation.created',
  'invitation.withdrawn',
  'invitation.accepted',
  'user.registered',
  'user.role_changed',
  'user.removed',
  'user.mfa_reset',
  'user.anonymized',
  'tenant.created',
  'tenant.updated',
  'tenant.closed',
  'tenant.reopened',
  'tenant.deletion_started',
  'tenant.deleted',
  'tenant.exported',
  'tenant.repaired',
  'platform.admin_promoted',
  'company.created',
  'company.updated',
  'company.status_changed',
  'supplier.created',
  'supplier.updated',
  'supplier.deleted',
  'warehouse.created',
  'product.created',
  'product.updated',
  'product.deleted',
  'product.reorder_set',
  'category.created',
  'category.updated',
  'category.deleted',
  'movement.created',
  'transfer.created',
  'count.created',
  'count.line_counted',
  'count.closed',
  'count.cancelled',
  'supplier_product.created',
  'supplier_product.updated',
  'supplier_product.deleted',
  'purchase_order.created',
  'purchase_order.updated',
  'purchase_order.sent',
  'purchase_order.cancelled',
  'api_key.created',
  'api_key.rolled',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.tested',
  'webhook_endpoint.delivery_retried',
  'import.created',
  'export.created',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_RESOURCE_TYPES = [
  'tenant',
  'user',
  'session',
  'invitation',
  'company',
  'supplier',
  'warehouse',
  'product',
  'category',
  'movement',
  'transfer',
  'count',
  'supplier_product',
  'purchase_order',
  'api_key',
  'webhook_endpoint',
  'import',
  'export',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

/** Who did it: a signed-in user, a system with an API key (its id and name), the platform itself (jobs, scripts), or nobody known (a failed login). */
export const auditActorSchema = /* @__PURE__ */ schema(() =>
  z.object({
    type: z.enum(['user', 'api-key', 'system', 'anonymous']),
    id: z.nullable(z.string()),
    name: z.nullable(z.string()),
  }),
);
export type AuditActor = z.infer<typeof auditActorSchema>;

/** A JSON value as a change records it (before or after). */
const changeValue: z.ZodMiniType<unknown> = /* @__PURE__ */ schema(() => z.unknown());

/** One field an update changed, with its value before and after (null: absent). */
export const auditChangeSchema = /* @__PURE__ */ schema(() => z.object({ field: z.string(), before: changeValue, after: changeValue }));
export type AuditChange = z.infer<typeof auditChangeSchema>;

export const auditEntrySchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    occurredAt: z.iso.datetime(),
    actor: auditActorSchema,
    action: z.enum(AUDIT_ACTIONS),
    resource: z.object({ type: z.enum(AUDIT_RESOURCE_TYPES), id: z.nullable(z.string()) }),
    /** API Gateway's request id (a script's or job's own id outside a request). */
    requestId: z.string(),
    /**
     * API Gateway's view of the caller's address; null outside a request, and once the access
     * records' period (ACCESS_RECORD_RETENTION_DAYS, 6 months) is over: the entry's origin is kept
     * apart from it and expires first (lib/audit/repository).
     */
    sourceIp: z.nullable(z.string()),
    /** The caller's User-Agent, at most 512 characters; null outside a request and, like sourceIp, after the access records' period. */
    userAgent: z.nullable(z.string()),
    /** For updates: each changed field, before and after. Null for every other action. */
    changes: z.nullable(z.array(auditChangeSchema)),
  }),
);
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** Whose trail an entry is in: a tenant's, or the platform's (tenants created, administrators promoted, logins of unknown e-mails). */
export type AuditScope = { tenantId: string } | 'platform';

/** An entry and where it is kept: what a repository adds to the transaction of the change it records. */
export interface AuditRecord {
  scope: AuditScope;
  entry: AuditEntry;
  /** When DynamoDB removes it (TTL, epoch seconds). */
  expiresAtEpoch: number;
  /** The domain event the change publishes (lib/events), written with the entry: absent for actions that publish none. */
  event?: DomainEvent;
}
