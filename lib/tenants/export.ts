import type { Principal } from '../auth/principal';
import { auditRecord } from '../audit/record';
import { findTenantExport, insertTenantExport, runningExportId } from '../tenant-jobs/repository';
import { Conflict, NotFound } from '../errors';
import { newTenantExport, type SendTenantJob } from '../tenant-jobs/engine';
import { tenantJobLinks, type TenantJobLinks } from '../tenant-jobs/files';
import { exportFolder, type TenantExport } from '../tenant-jobs/model';
import { enqueueTenantJob } from '../tenant-jobs/queue';
import { existingTenant, requirePlatformAdmin } from './offboarding';
import type { TenantExportView } from './schemas';

/**
 * A tenant's export (docs/api.md, "Closing a tenant"), for platform administrators only: every
 * item of the tenant, without its secrets, as NDJSON with a manifest and its checksum, written by
 * the tenant jobs' engine (lib/tenant-jobs/engine) and downloaded by links of 15 minutes.
 */

async function exportView(job: TenantExport, nowMs: number, files?: TenantJobLinks): Promise<TenantExportView> {
  const items = job.files.reduce((sum, file) => sum + file.items, 0);
  const base = {
    id: job.id,
    tenantId: job.tenantId,
    status: job.status,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    items,
    manifestSha256: job.manifestSha256,
    failure: job.failure,
  };
  if (job.status !== 'succeeded') return { ...base, downloads: null };
  const store = files ?? tenantJobLinks();
  const folder = exportFolder(job.tenantId, job.id);
  const manifest = await store.downloadLink(`${folder}/manifest.json`, nowMs);
  const checksum = await store.downloadLink(`${folder}/manifest.json.sha256`, nowMs);
  const links = await Promise.all(job.files.map(async (file) => ({ ...file, url: (await store.downloadLink(`${folder}/${file.name}`, nowMs)).url })));
  return { ...base, downloads: { expiresAt: manifest.expiresAt, manifest: manifest.url, checksum: checksum.url, files: links } };
}

/**
 * Start an export of every item of a tenant, active or closed (409 once its deletion started,
 * and while another export of it runs): the job and its entry, then its first step sent
 * (lib/tenant-jobs/queue).
 */
export async function startTenantExport(
  principal: Principal,
  tenantId: string,
  nowMs: number,
  send: SendTenantJob = enqueueTenantJob,
): Promise<TenantExportView> {
  requirePlatformAdmin(principal);
  const tenant = await existingTenant(tenantId);
  if (tenant.status === 'DELETING') throw new Conflict('The deletion of the tenant has started: it can no longer be exported');
  const job = newTenantExport(tenantId, { tenantId: principal.tenantId, userId: principal.userId }, nowMs);
  const audit = auditRecord({ scope: 'platform', action: 'tenant.exported', resource: { type: 'tenant', id: tenantId } }, nowMs);
  if (!(await insertTenantExport(job, audit))) {
    // The slot is held. By a running export: 409 naming it. By one that ended without freeing it (its worker stopped between two writes): taken over.
    const holder = await runningExportId(tenantId);
    const running = holder === undefined ? undefined : await findTenantExport(tenantId, holder);
    if (running?.status === 'running')
      throw new Conflict(`An export of this tenant is running (${running.id}): wait for it to end, GET /tenants/${tenantId}/exports/${running.id}`);
    if (!(await insertTenantExport(job, audit, holder))) throw new Conflict('Another export of this tenant has just started: wait for it to end');
  }
  await send({ type: 'tenant-export', tenantId, exportId: job.id, step: 0 });
  return exportView(job, nowMs);
}

/** An export's status and, once it succeeded, its download links (15 minutes). */
export async function readTenantExport(
  principal: Principal,
  tenantId: string,
  exportId: string,
  nowMs: number,
  files?: TenantJobLinks,
): Promise<TenantExportView> {
  requirePlatformAdmin(principal);
  const job = await findTenantExport(tenantId, exportId);
  if (!job) throw new NotFound('No such export');
  return exportView(job, nowMs, files);
}
