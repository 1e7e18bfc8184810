import type { Principal } from '../auth/principal';
import { auditRecord } from '../audit/record';
import { failPendingJobs } from '../background/pending-jobs';
import { config } from '../config';
import { getTenant, markTenantClosed, markTenantReopened } from './repository';
import { Conflict, Forbidden, NotFound } from '../errors';
import type { Tenant } from './model';
import type { TenantClosureView } from './schemas';

/**
 * Closing a tenant (docs/api.md, "Closing a tenant"), for platform administrators only: a close
 * refuses sign-in at once (every way in requires an ACTIVE tenant) and schedules the deletion
 * TENANT_DELETION_GRACE_DAYS later; a reopen undoes it until the deletion starts
 * (lib/tenant-jobs/engine). Each is an entry in the platform's trail. Exports: ./export.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export function requirePlatformAdmin(principal: Principal): void {
  if (!principal.platformAdmin) throw new Forbidden('Only a platform administrator may close, reopen or export a tenant');
}

export async function existingTenant(tenantId: string): Promise<Tenant> {
  const tenant = await getTenant(tenantId);
  if (!tenant) throw new NotFound('No such tenant');
  return tenant;
}

const closureView = (tenant: Tenant, status: Tenant['status'], closedAt: string | null, deletionDueAt: string | null): TenantClosureView => ({
  id: tenant.id,
  name: tenant.name,
  status,
  closedAt,
  deletionDueAt,
});

/**
 * Close a tenant: CLOSED, its deletion due in TENANT_DELETION_GRACE_DAYS. 409 for the
 * platform's own tenant and for a tenant that is not ACTIVE (closed already, or being deleted).
 */
export async function closeTenant(principal: Principal, tenantId: string, nowMs: number): Promise<TenantClosureView> {
  requirePlatformAdmin(principal);
  const tenant = await existingTenant(tenantId);
  if (tenant.platform) throw new Conflict("The platform's own tenant cannot be closed");
  if (tenant.status !== 'ACTIVE')
    throw new Conflict(
      tenant.status === 'CLOSED' ? 'The tenant is already closed' : `The tenant is ${tenant.status.toLowerCase()}: only an active tenant can be closed`,
    );
  const closedAt = new Date(nowMs).toISOString();
  const deletionDueAt = new Date(nowMs + config().TENANT_DELETION_GRACE_DAYS * DAY_MS).toISOString();
  const audit = auditRecord(
    {
      scope: 'platform',
      action: 'tenant.closed',
      resource: { type: 'tenant', id: tenantId },
      changes: [
        { field: 'status', before: tenant.status, after: 'CLOSED' },
        { field: 'deletionDueAt', before: null, after: deletionDueAt },
      ],
    },
    nowMs,
  );
  await markTenantClosed(tenantId, tenant.status, closedAt, deletionDueAt, audit);
  // A closed tenant changes nothing: its imports and exports stop at once (lib/background).
  await failPendingJobs(tenantId, 'all', 'The tenant was closed: its jobs were stopped', closedAt);
  return closureView(tenant, 'CLOSED', closedAt, deletionDueAt);
}

/** Undo a close while the deletion has not started: ACTIVE again. 409 for a tenant that is not closed, or whose deletion started. */
export async function reopenTenant(principal: Principal, tenantId: string, nowMs: number): Promise<TenantClosureView> {
  requirePlatformAdmin(principal);
  const tenant = await existingTenant(tenantId);
  if (tenant.status !== 'CLOSED' || !tenant.deletionDueAt) {
    throw new Conflict(tenant.status === 'DELETING' ? 'The deletion of the tenant has started: it can no longer be reopened' : 'The tenant is not closed');
  }
  const audit = auditRecord(
    {
      scope: 'platform',
      action: 'tenant.reopened',
      resource: { type: 'tenant', id: tenantId },
      changes: [
        { field: 'status', before: 'CLOSED', after: 'ACTIVE' },
        { field: 'deletionDueAt', before: tenant.deletionDueAt, after: null },
      ],
    },
    nowMs,
  );
  await markTenantReopened(tenantId, tenant.deletionDueAt, new Date(nowMs).toISOString(), audit);
  return closureView(tenant, 'ACTIVE', null, null);
}
