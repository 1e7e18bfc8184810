import { randomUUID } from 'node:crypto';
import { auditRecord } from '../audit/record';
import type { Principal } from '../auth/principal';
import { findExportJob, insertExportJob } from './repository';
import { daysBetween } from '../domain/days';
import { Forbidden, NotFound, ValidationError } from '../errors';
import { exportFileName } from './columns';
import { EXPORT_FILE_DAYS, exportRole, MAX_EXPORT_PERIOD_DAYS, type ExportJob, type ExportKind } from './model';
import type { ExportQueue } from './queue';
import type { CreateExportInput, ExportView } from './schemas';
import type { ExportDownloads } from './storage';

/**
 * The period of a kind that takes one, checked: `to` not before `from` and at most
 * MAX_EXPORT_PERIOD_DAYS after it (400 naming `to`, nothing written); none for the others.
 */
export function checkPeriod(input: CreateExportInput): { from: string | null; to: string | null } {
  if (!('from' in input)) return { from: null, to: null };
  const days = daysBetween(input.from, input.to);
  if (days < 0) throw ValidationError.of('to', 'must not be before from');
  if (days > MAX_EXPORT_PERIOD_DAYS) throw ValidationError.of('to', `must be at most ${MAX_EXPORT_PERIOD_DAYS} days after from`);
  return { from: input.from, to: input.to };
}

/** Who may export a kind: any member for what they can read through the API; the audit trail, a tenant administrator (as GET /audit-events). */
function requireMayExport(principal: Principal, kind: ExportKind): void {
  if (exportRole(kind) === 'ADMIN' && principal.role !== 'ADMIN') throw new Forbidden("Only a tenant administrator may export its tenant's audit trail");
}

/** A new job of the caller's tenant, `queued`, with its audit entry. */
export async function createExportJob(principal: Principal, input: CreateExportInput, nowMs: number): Promise<ExportJob> {
  const period = checkPeriod(input);
  requireMayExport(principal, input.kind);
  const job: ExportJob = {
    id: randomUUID(),
    tenantId: principal.tenantId,
    kind: input.kind,
    status: 'queued',
    ...period,
    rows: 0,
    failure: null,
    createdBy: { id: principal.userId, name: principal.name },
    createdAt: new Date(nowMs).toISOString(),
    startedAt: null,
    finishedAt: null,
  };
  await insertExportJob(
    job,
    auditRecord({ scope: { tenantId: principal.tenantId }, action: 'export.created', resource: { type: 'export', id: job.id } }, nowMs),
  );
  return job;
}

/**
 * One job of the caller's tenant that the caller may read: its own, or any when the caller is
 * a tenant administrator; an audit export only while the caller is one. 404 otherwise, as for
 * an unknown id or another tenant's job.
 */
export async function readExportJob(principal: Principal, exportId: string): Promise<ExportJob> {
  const job = await findExportJob(principal.tenantId, exportId);
  const admin = principal.role === 'ADMIN';
  if (!job || (!admin && (job.createdBy.id !== principal.userId || job.kind === 'audit'))) throw new NotFound('No such export');
  return job;
}

/** Whether a done job's file is still kept (EXPORT_FILE_DAYS after it was written: the bucket's rule). */
export const fileKept = (job: Pick<ExportJob, 'status' | 'finishedAt'>, nowMs: number): boolean =>
  job.status === 'done' && job.finishedAt !== null && nowMs < Date.parse(job.finishedAt) + EXPORT_FILE_DAYS * 24 * 3600 * 1000;

/** A job as the API shows it, with a fresh download link when its file is there. */
export async function exportViewOf(job: ExportJob, nowMs: number, storage: ExportDownloads): Promise<ExportView> {
  const { id, kind, status, from, to, rows, createdAt, finishedAt, failure } = job;
  const download = fileKept(job, nowMs) ? await storage.downloadLink(job, exportFileName(job), nowMs) : null;
  return { id, kind, status, from, to, rows, createdAt, finishedAt, failure, download };
}

/** POST /exports: the job, queued for its worker. */
export async function createExport(principal: Principal, input: CreateExportInput, nowMs: number, queue: ExportQueue): Promise<ExportView> {
  const job = await createExportJob(principal, input, nowMs);
  await queue.send(job);
  return exportViewOf(job, nowMs, { downloadLink: () => Promise.reject(new Error('a queued job has no file')) });
}

/** GET /exports/{id}. */
export async function getExport(principal: Principal, exportId: string, nowMs: number, storage: ExportDownloads): Promise<ExportView> {
  return exportViewOf(await readExportJob(principal, exportId), nowMs, storage);
}
