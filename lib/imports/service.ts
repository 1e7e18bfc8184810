import { randomUUID } from 'node:crypto';
import { currentOrigin } from '../audit/context';
import { auditRecord } from '../audit/record';
import type { Principal } from '../auth/principal';
import { findImportJob, insertImportJob } from './repository';
import { Forbidden, NotFound } from '../errors';
import type { ImportJob } from './model';
import type { CreateImportInput, ImportCreatedView, ImportView } from './schemas';
import type { ImportStorage } from './storage';

const requireTenantAdmin = (principal: Principal, what: string): void => {
  if (principal.role !== 'ADMIN') throw new Forbidden(`Only a tenant administrator may ${what}`);
};

/**
 * A new job of the caller's tenant, waiting for its file (tenant administrators: an import
 * writes thousands of records at once). Its entries will be the caller's, from this request's
 * address.
 */
export async function createImportJob(principal: Principal, input: CreateImportInput, nowMs: number): Promise<ImportJob> {
  requireTenantAdmin(principal, 'import data');
  const origin = currentOrigin();
  const job: ImportJob = {
    id: randomUUID(),
    tenantId: principal.tenantId,
    kind: input.kind,
    dryRun: input.dryRun,
    status: 'awaiting_upload',
    fileName: input.fileName,
    size: input.size,
    totalRows: null,
    fileDigest: null,
    ignoredColumns: [],
    nextRow: 0,
    rowsDone: 0,
    created: 0,
    existing: 0,
    refused: 0,
    errors: [],
    errorsTruncated: false,
    failure: null,
    createdBy: { id: principal.userId, name: principal.name },
    createdAt: new Date(nowMs).toISOString(),
    startedAt: null,
    finishedAt: null,
    origin: { requestId: origin?.requestId ?? `import-${randomUUID()}`, sourceIp: origin?.sourceIp ?? null, userAgent: origin?.userAgent ?? null },
  };
  await insertImportJob(
    job,
    auditRecord({ scope: { tenantId: principal.tenantId }, action: 'import.created', resource: { type: 'import', id: job.id } }, nowMs),
  );
  return job;
}

/** One job of the caller's tenant (tenant administrators); 404 for an unknown id or another tenant's. */
export async function readImportJob(principal: Principal, importId: string): Promise<ImportJob> {
  requireTenantAdmin(principal, 'read imports');
  const job = await findImportJob(principal.tenantId, importId);
  if (!job) throw new NotFound('No such import');
  return job;
}

/** About how long the rest of a running job takes, from its pace since it started; null before its first step and once it ended. */
export function etaSeconds(job: ImportJob, nowMs: number): number | null {
  if (job.status !== 'running' || job.startedAt === null || job.totalRows === null || job.rowsDone === 0) return null;
  const perRow = (nowMs - Date.parse(job.startedAt)) / job.rowsDone;
  return Math.max(0, Math.round((perRow * (job.totalRows - job.rowsDone)) / 1000));
}

/** A job as the API shows it: without its tenant (the caller's), its step position, its file's digest or the request it came from. */
export function importViewOf(job: ImportJob, nowMs: number): ImportView {
  const { tenantId: _tenant, nextRow: _next, origin: _origin, fileDigest: _digest, ...view } = job;
  return { ...view, etaSeconds: etaSeconds(job, nowMs) };
}

/** POST /imports: the job, waiting for its file, and the link to PUT the file to. */
export async function createImport(
  principal: Principal,
  input: CreateImportInput,
  nowMs: number,
  storage: Pick<ImportStorage, 'uploadLink'>,
): Promise<ImportCreatedView> {
  const job = await createImportJob(principal, input, nowMs);
  return { ...importViewOf(job, nowMs), upload: await storage.uploadLink(job, nowMs) };
}

/** GET /imports/{id}. */
export async function getImport(principal: Principal, importId: string, nowMs: number): Promise<ImportView> {
  return importViewOf(await readImportJob(principal, importId), nowMs);
}
