/**
 * Bulk import of suppliers, products and opening stock from a spreadsheet's CSV (lib/csv), as a job: the file
 * is uploaded, then read in steps that each validate every row with the API's own rules and
 * write a batch of them through the same repositories the API writes with (uniqueness, audit
 * entries, domain events, the supplier blocks and the coverage entries come with them).
 */

export const IMPORT_KINDS = ['suppliers', 'products', 'stock'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/**
 * - `awaiting_upload`: made, its file not received yet (the upload link is valid 15 minutes);
 * - `running`: the file came and its rows are being read (a dry run too);
 * - `succeeded`: every row was read (refused rows do not fail a job: they are in its report);
 * - `failed`: the file could not be read as CSV (`failure` says why), or it never came.
 */
export const IMPORT_STATUSES = ['awaiting_upload', 'running', 'succeeded', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** A refused row: its line in the file (1 is the header), the column (as the file names it, or the field) and the API's message. */
export interface RowError {
  line: number;
  field: string;
  message: string;
}

export interface ImportCounts {
  /** Rows read so far (created, already there or refused). */
  rowsDone: number;
  /** Rows that made a new record, or (stock) changed a balance (a dry run: that would). */
  created: number;
  /** Rows whose record was already there (same SKU or document), or (stock) whose balance already was that: nothing was written for them. */
  existing: number;
  /** Rows refused, each in `errors` (up to MAX_REPORTED_ERRORS). */
  refused: number;
}

export interface ImportJob extends ImportCounts {
  id: string;
  tenantId: string;
  kind: ImportKind;
  dryRun: boolean;
  status: ImportStatus;
  fileName: string;
  /** The size the upload was signed for, in bytes. */
  size: number;
  /** The file's data rows (known once it is read). */
  totalRows: number | null;
  /** The SHA-256 of the file its first step read (base64url): a later step refuses another file. */
  fileDigest: string | null;
  /** Header cells no field claims, ignored (an ERP's export has many columns). */
  ignoredColumns: string[];
  /** The first data row (0-based, header excluded) not read yet: where the next step starts. */
  nextRow: number;
  errors: RowError[];
  /** More rows were refused than the report lists. */
  errorsTruncated: boolean;
  /** Why a failed job failed. */
  failure: string | null;
  createdBy: { id: string; name: string };
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The request that made the job: its entries are audited as that user's, from that address. */
  origin: { requestId: string; sourceIp: string | null; userAgent: string | null };
}

/** The largest file accepted: API Gateway's payload limit, and about 50,000 product rows. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** The most data rows a file may have. */
export const MAX_IMPORT_ROWS = 50_000;
/** The most refused rows a report lists (their count is always exact). */
export const MAX_REPORTED_ERRORS = 1_000;
/** How long an upload link is valid. */
export const UPLOAD_LINK_SECONDS = 15 * 60;
/** Jobs (and their files) are kept this long, then expire. */
export const IMPORT_RETENTION_DAYS = 30;

/**
 * A step received this many times without being done goes to the dead-letter queue and its job
 * stays `running` (the import queue's redrive, infra/constructs/imports.ts); npm start sends a
 * failed step again as many times (local/imports.ts).
 */
export const IMPORT_MAX_RECEIVES = 5;
