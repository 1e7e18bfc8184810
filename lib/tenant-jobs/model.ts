import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * The tenant jobs (lib/tenant-jobs/engine): a closed tenant's deletion and a tenant's export,
 * each a walk through the table's Scan in steps. Their progress is stored (the deletion's on the
 * tenant's own item, an export's on its job item) with the number of the step that made it, so
 * a step run twice, or a message delivered twice, records once.
 */

/** Where each parallel Scan segment stands: the key to go on from, `null` before its first page, `'done'` after its last. */
export type ScanCursor = Record<string, unknown> | null | 'done';

export interface ScanProgress {
  cursors: ScanCursor[];
}

export const DELETION_PHASES = ['count', 'delete', 'verify'] as const;
export type DeletionPhase = (typeof DELETION_PHASES)[number];

/** A deletion's progress: counting what there is, deleting it, counting again. */
export interface DeletionProgress extends ScanProgress {
  phase: DeletionPhase;
  /** The tenant's users' ids, read before the first count (their rate-limit counters name them). */
  userIds: string[];
  /** Items of the tenant found by the first count (its own item and schedule entry included). */
  itemsBefore: number;
  /** Items deleted by the deletion's batches so far. */
  itemsDeleted: number;
  /** Items the pass under way found so far (the first count, or the second). */
  counted: number;
}

export const EXPORT_STATUSES = ['running', 'succeeded', 'failed'] as const;

/** One data file of an export: its name in the export's folder, its lines and their SHA-256 (hex). */
export const exportFileSchema = /* @__PURE__ */ schema(() => z.object({ name: z.string(), items: z.number(), sha256: z.string() }));
export type ExportFile = z.infer<typeof exportFileSchema>;

export interface TenantExport {
  id: string;
  tenantId: string;
  status: (typeof EXPORT_STATUSES)[number];
  /** The platform administrator who asked for it, and their tenant (null on a job made before it was kept): every step checks they still are one. */
  requestedBy: string;
  requestedByTenantId: string | null;
  createdAt: string;
  finishedAt: string | null;
  step: number;
  cursors: ScanCursor[];
  files: ExportFile[];
  /** Lines by item kind (lib/tenant-jobs/ownership `itemKind`). */
  counts: Record<string, number>;
  /** Items left out, by the kind of secret or record they are. */
  excluded: Record<string, number>;
  /** Attribute names dropped from exported items. */
  droppedAttributes: string[];
  /** The SHA-256 (hex) of manifest.json, once written. */
  manifestSha256: string | null;
  /** Why a failed export failed. */
  failure: string | null;
}

/** The folder of an export's files, in the imports bucket (or npm start's folder). */
export const exportFolder = (tenantId: string, exportId: string): string => `tenant-exports/${tenantId}/${exportId}`;

/** How long a download link of an export's file is valid. */
export const EXPORT_LINK_SECONDS = 15 * 60;
/**
 * Days a tenant export's files are kept (the bucket's lifecycle rule on `tenant-exports/`,
 * infra/constructs/tenant-jobs.ts): a whole copy of a tenant's data is not left lying about.
 * The job's item lasts a day longer, so a late GET answers the job without a link, not 404.
 */
export const TENANT_EXPORT_FILE_DAYS = 7;

/** Parallel Scan segments of a tenant job. */
export const TENANT_SCAN_SEGMENTS = 4;
/** Scan pages (up to 1 MB each) per segment in one step: a few seconds of reading, well inside the worker's timeout. */
export const TENANT_SCAN_PAGES = 4;
