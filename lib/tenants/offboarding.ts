import type { Principal } from '../auth/principal';
import { auditRecord } from '../audit/record';
import { config } from '../config';
import { findTenantExport, insertTenantExport } from '../db/repositories/tenant-jobs';
import { getTenant, markTenantClosed, markTenantReopened } from '../db/repositories/tenants';
import { Conflict, Forbidden, NotFound } from '../errors';
import { newTenantExport, type SendTenantJob } from '../tenant-jobs/engine';
import { tenantJobFiles, type TenantJobFiles } from '../tenant-jobs/files';
import { exportFolder, type TenantExport } from '../tenant-jobs/model';
import { enqueueTenantJob } from '../tenant-jobs/queue';
import type { Tenant } from './model';
import type { TenantClosureView, TenantExportView } from './schemas';

/**
 * Closing a tenant (docs/api.md, "Closing a tenant"), for platform administrators only: a close
 * refuses sign-in at once (every way in requires an ACTIVE tenant) and schedules the deletion
 * TENANT_DELETION_GRACE_DAYS later; a reopen undoes it until the deletion starts
 * (lib/tenant-jobs/engine). An export writes every item of a tenant, without its secrets, as
 * NDJSON with a manifest. Each is an entry in the platform's trail.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

function requirePlatformAdmin(principal: Principal): void {
  if (!principal.platformAdmin) throw new Forbidden('Only a platform administrator may close, reopen or export a tenant');
}

async function existingTenant(tenantId: string): Promise<Tenant> {
  const tenant = await getTenant(tenantId);
  if (!tenant) throw new NotFound('No such tenant');
  return tenant;
}

const closureView = (tenant: Tenant, status: Tenant['status'], closedAt: string | null, deletionDueAt: string | null): TenantClosureView => ({ id: tenant.id, name: tenant.name, status, closedAt, deletionDueAt });

/**
 * Close a tenant: CLOSED, its deletion due in TENANT_DELETION_GRACE_DAYS. 409 for the
 * platform's own tenant and for a tenant that is not ACTIVE (closed already, or being deleted).
 */
export async function closeTenant(principal: Principal, tenantId: string, nowMs: number): Promise<TenantClosureView> {
  requirePlatformAdmin(principal);
  const tenant = await existingTenant(tenantId);
  if (tenant.platform) throw new Conflict("The platform's own tenant cannot be closed");
  if (tenant.status !== 'ACTIVE') throw new Conflict(tenant.status === 'CLOSED' ? 'The tenant is already closed' : `The tenant is ${tenant.status.toLowerCase()}: only an active tenant can be closed`);
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

async function exportView(job: TenantExport, nowMs: number, files?: TenantJobFiles): Promise<TenantExportView> {
  const items = job.files.reduce((sum, file) => sum + file.items, 0);
  const base = { id: job.id, tenantId: job.tenantId, status: job.status, createdAt: job.createdAt, finishedAt: job.finishedAt, items, manifestSha256: job.manifestSha256 };
  if (job.status !== 'succeeded') return { ...base, downloads: null };
  const store = files ?? (await tenantJobFiles());
  const folder = exportFolder(job.tenantId, job.id);
  const manifest = await store.downloadLink(`${folder}/manifest.json`, nowMs);
  const checksum = await store.downloadLink(`${folder}/manifest.json.sha256`, nowMs);
  const links = await Promise.all(job.files.map(async (file) => ({ ...file, url: (await store.downloadLink(`${folder}/${file.name}`, nowMs)).url })));
  return { ...base, downloads: { expiresAt: manifest.expiresAt, manifest: manifest.url, checksum: checksum.url, files: links } };
}

/**
 * Start an export of every item of a tenant, active or closed (409 once its deletion started):
 * the job and its entry, then its first step sent (lib/tenant-jobs/queue).
 */
export async function startTenantExport(principal: Principal, tenantId: string, nowMs: number, send: SendTenantJob = enqueueTenantJob): Promise<TenantExportView> {
  requirePlatformAdmin(principal);
  const tenant = await existingTenant(tenantId);
  if (tenant.status === 'DELETING') throw new Conflict('The deletion of the tenant has started: it can no longer be exported');
  const job = newTenantExport(tenantId, principal.userId, nowMs);
  await insertTenantExport(job, auditRecord({ scope: 'platform', action: 'tenant.exported', resource: { type: 'tenant', id: tenantId } }, nowMs));
  await send({ type: 'tenant-export', tenantId, exportId: job.id, step: 0 });
  return exportView(job, nowMs);
}

/** An export's status and, once it succeeded, its download links (15 minutes). */
export async function readTenantExport(principal: Principal, tenantId: string, exportId: string, nowMs: number, files?: TenantJobFiles): Promise<TenantExportView> {
  requirePlatformAdmin(principal);
  const job = await findTenantExport(tenantId, exportId);
  if (!job) throw new NotFound('No such export');
  return exportView(job, nowMs, files);
}
