/**
 * CSV exports of the tenant's data for a spreadsheet (lib/csv/write), as a job: POST /exports
 * makes it, a worker reads the source in pages and writes one file, GET /exports/{id} answers
 * its state and, once it is done, a short-lived download link. A response could not hold the
 * file (a Lambda answers at most 6 MB; 100,000 suppliers are about 15 MB).
 */

export const EXPORT_KINDS = ['suppliers', 'products', 'stock-history', 'audit'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** The kinds that cover a period (`from`/`to` required); the others take neither. */
export const PERIOD_KINDS = ['stock-history', 'audit'] as const satisfies readonly ExportKind[];
export const takesPeriod = (kind: ExportKind): boolean => (PERIOD_KINDS as readonly ExportKind[]).includes(kind);

/**
 * - `queued`: made, its worker not started yet;
 * - `running`: its file is being written;
 * - `done`: the file is there (`rows` data rows), downloadable for EXPORT_FILE_DAYS;
 * - `failed`: `failure` says why (too many rows, or the worker gave up).
 */
export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

export interface ExportJob {
  id: string;
  tenantId: string;
  kind: ExportKind;
  status: ExportStatus;
  /** The period's first and last business days (YYYY-MM-DD, both inclusive); null for the kinds without one. */
  from: string | null;
  to: string | null;
  /** Data rows written (the header not counted): the file's once it is done. */
  rows: number;
  failure: string | null;
  createdBy: { id: string; name: string };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The role a kind needs, of who starts it and, while it runs, still: the audit trail is a tenant administrator's, the rest any member's. */
export const exportRole = (kind: ExportKind): 'ADMIN' | 'MEMBER' => (kind === 'audit' ? 'ADMIN' : 'MEMBER');

/** The most data rows a file may have: then the job fails, asking for a shorter period. */
export const MAX_EXPORT_ROWS = 1_000_000;
/** The longest period, in days from `from` to `to`. */
export const MAX_EXPORT_PERIOD_DAYS = 366;
/** How long a download link is valid. */
export const DOWNLOAD_LINK_SECONDS = 15 * 60;
/** Files are kept this long (the bucket's lifecycle rule), then expire. */
export const EXPORT_FILE_DAYS = 7;
/** Jobs are kept a little longer than their files, so a late GET says the file expired rather than 404. */
export const EXPORT_RETENTION_DAYS = 8;
/** Receives of a job's message before the queue gives up on it (the worker marks the job failed on the last one). */
export const EXPORT_MAX_RECEIVES = 3;
