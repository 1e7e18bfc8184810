import type { components } from '@backoffice/client';

/**
 * The export page's rules, apart from React so that they are tested alone: what POST /exports
 * is sent for a kind and a period, and when to stop following a job.
 */

export type ExportJob = components['schemas']['CreateExportResponse'];
export type ExportKind = ExportJob['kind'];
export type ExportStatus = ExportJob['status'];

export const EXPORT_KINDS: readonly ExportKind[] = ['suppliers', 'products', 'stock-history', 'audit'];
/** How often a job is asked about while it runs. */
export const POLL_MS = 1000;

/** Whether a kind covers a period (`from`/`to`, required by the API for these and refused for the others). */
export const takesPeriod = (kind: ExportKind): boolean => kind === 'stock-history' || kind === 'audit';

export type ExportRequest = components['schemas']['CreateExportRequest'];

/** POST /exports' body: the period only with the kinds that take one (an empty date is sent as it is, for the API to name it). */
export function startBody(kind: ExportKind, from: string, to: string): ExportRequest {
  return kind === 'stock-history' || kind === 'audit' ? { kind, from, to } : { kind };
}

/** A job still queued or running is followed; a done or failed one is left alone. */
export const isUnderway = (status: ExportStatus): boolean => status === 'queued' || status === 'running';

/**
 * When to read the job again: every POLL_MS while it is underway; once it is done, when its
 * download link expires (the next read answers a fresh one), so the link shown always works;
 * a failed one, never.
 */
export function pollInterval(job: Pick<ExportJob, 'status' | 'download'> | undefined, nowMs = Date.now()): number | false {
  if (!job) return false;
  if (isUnderway(job.status)) return POLL_MS;
  if (job.status === 'done' && job.download) return Math.max(POLL_MS, Date.parse(job.download.expiresAt) - nowMs);
  return false;
}

/** The last 30 days up to `today` (YYYY-MM-DD): the period the form starts with. */
export function defaultPeriod(today: string): { from: string; to: string } {
  const date = new Date(`${today}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() - 29);
  return { from: date.toISOString().slice(0, 10), to: today };
}
