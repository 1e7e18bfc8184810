import { createHash, randomUUID } from 'node:crypto';
import { auditRecord } from '../audit/record';
import { lostAuthority } from '../background/authority';
import type { AuditChange } from '../audit/model';
import {
  deleteItems,
  dueDeletions,
  finishTenantDeletion,
  findTenantExport,
  markTenantDeleting,
  readDeletion,
  recordDeletionStep,
  recordExportStep,
  scanSegment,
  TENANT_JOB_ITEMS,
  tenantUserIds,
} from './repository';
import { getTenant } from '../tenants/repository';
import { logger } from '../log';
import type { TenantJobFiles } from './files';
import { continueClose } from '../counts/close';
import { arriveAll } from '../transfers/arrival';
import {
  EXPORT_EXCLUDED_ATTRIBUTES,
  EXPORT_EXCLUDED_ITEMS,
  EXPORT_IDEMPOTENCY,
  belongsToTenant,
  excludedKind,
  exportedItem,
  isDeletionBookkeeping,
  itemKind,
  ndjsonLine,
  type TenantFacts,
} from './ownership';
import { exportFolder, TENANT_SCAN_PAGES, TENANT_SCAN_SEGMENTS, type DeletionProgress, type ScanCursor, type TenantExport } from './model';

/**
 * The tenant jobs' steps: the same code in the deployed worker (one SQS message per step,
 * functions/tenants/tenant-job-worker.ts) and in process (`npm start`, the integration tests). Both
 * jobs walk the whole table with a parallel Scan, TENANT_SCAN_SEGMENTS segments of up to
 * TENANT_SCAN_PAGES pages each per step, and keep the tenant's items (lib/tenant-jobs/ownership).
 *
 * A deletion is three passes: a count (then `tenant.deletion_started` with `itemsBefore`), the
 * deletion in batches (then the tenant's files removed), a second count; when that count is 0 the
 * last transaction removes the tenant's own item and its schedule entry with `tenant.deleted`
 * (`itemsBefore`, `itemsDeleted`, `itemsAfter`); when it is not, another deletion pass runs.
 * An export writes one NDJSON file per step that found items, then manifest.json and its
 * SHA-256 (manifest.json.sha256).
 *
 * Idempotent: each step records its progress only if the stored step is the one it started
 * from, and sends the next only then, so a step run twice or a message delivered twice goes
 * on once (a deletion step run twice deletes nothing twice: the items are gone).
 */

export interface TenantJobDeps {
  now: () => number;
  files: TenantJobFiles;
  segments?: number;
  pages?: number;
}

export type TenantJobMessage =
  | { type: 'tenant-deletion'; tenantId: string; step: number }
  | { type: 'tenant-export'; tenantId: string; exportId: string; step: number }
  | { type: 'count-close'; tenantId: string; countId: string; step: number }
  | { type: 'transfer-arrival'; tenantId: string; batchId: string; step: number };

export type SendTenantJob = (message: TenantJobMessage) => Promise<void>;

/** Transactions of a count's close one step runs (about 8 lines each: seconds on DynamoDB) before it sends the next. */
const COUNT_CLOSE_STEP_TRANSACTIONS = 1_000;

/** Deletions the daily job starts at most per run (the rest the next day). */
const DELETIONS_PER_RUN = 100;

/**
 * A deletion whose last step was recorded longer ago than this has stalled (its message was lost
 * or parked in the dead-letter queue: 5 receives of 12 minutes each take an hour): the daily job
 * sends its step again. A younger one is left to its own messages, so that two runs of one step
 * do not go on side by side.
 */
export const STALLED_DELETION_MS = 2 * 60 * 60 * 1000;

/** The folders of the tenant's files in the imports bucket: its imports' files, and its exports' (CSV and whole-tenant). */
export const tenantFolders = (tenantId: string): string[] => [
  `imports/${tenantId}/`,
  `exports/${tenantId}/`,
  `${exportFolder(tenantId, '').replace(/\/$/, '')}/`,
];

const freshCursors = (deps: Pick<TenantJobDeps, 'segments'>): ScanCursor[] => Array.from({ length: deps.segments ?? TENANT_SCAN_SEGMENTS }, () => null);

/**
 * One step's reading: every unfinished segment, in parallel; the items read and where each
 * segment now stands. `consistent` for a deletion's second count, which proves the deletion: an
 * eventually consistent page could miss an item written just before it (twice the read units of
 * one pass, about $0.16 more for a 10 GB table).
 */
async function scanStep(cursors: ScanCursor[], deps: TenantJobDeps, consistent = false): Promise<{ items: Record<string, unknown>[]; cursors: ScanCursor[] }> {
  const results = await Promise.all(
    cursors.map((cursor, segment) => scanSegment(segment, cursors.length, cursor, deps.pages ?? TENANT_SCAN_PAGES, consistent)),
  );
  return { items: results.flatMap((result) => result.items), cursors: results.map((result) => result.cursor) };
}

const allDone = (cursors: ScanCursor[]) => cursors.every((cursor) => cursor === 'done');

const counts = (fields: Record<string, number>): AuditChange[] => Object.entries(fields).map(([field, after]) => ({ field, before: null, after }));

export interface DeletionRunResult {
  started: string[];
  resumed: string[];
}

/**
 * The daily job: every closed tenant whose deletion is due is marked DELETING (conditioned: a
 * reopen that got there first wins, and the tenant is left alone) and its first step sent. A
 * due tenant already DELETING whose last step is older than STALLED_DELETION_MS (its message
 * was lost) gets its current step sent again: a step that already ran records nothing. `only`: these tenants alone, when due (the command's
 * `--tenant`, and tests that share a store).
 */
export async function startDueDeletions(
  deps: Pick<TenantJobDeps, 'now' | 'segments'>,
  send: SendTenantJob,
  only?: readonly string[],
): Promise<DeletionRunResult> {
  const now = new Date(deps.now()).toISOString();
  const result: DeletionRunResult = { started: [], resumed: [] };
  for (const due of await dueDeletions(now, DELETIONS_PER_RUN)) {
    if (only && !only.includes(due.tenantId)) continue;
    const stored = await readDeletion(due.tenantId);
    if (stored?.tenant.status === 'DELETING') {
      if (stored.stepAt !== undefined && deps.now() - Date.parse(stored.stepAt) < STALLED_DELETION_MS) continue;
      await send({ type: 'tenant-deletion', tenantId: due.tenantId, step: stored.step });
      result.resumed.push(due.tenantId);
      continue;
    }
    if (stored?.tenant.status !== 'CLOSED') continue;
    const progress: DeletionProgress = {
      phase: 'count',
      cursors: freshCursors(deps),
      userIds: await tenantUserIds(due.tenantId),
      itemsBefore: 0,
      itemsDeleted: 0,
      counted: 0,
    };
    if (!(await markTenantDeleting(due.tenantId, due.deletionDueAt, now, progress))) continue;
    await send({ type: 'tenant-deletion', tenantId: due.tenantId, step: 0 });
    result.started.push(due.tenantId);
  }
  return result;
}

/** One step of a deletion; the next step's number, or null when there is none (done, or another run recorded this one). */
export async function runDeletionStep(tenantId: string, step: number, deps: TenantJobDeps): Promise<number | null> {
  const stored = await readDeletion(tenantId);
  if (!stored?.progress || stored.tenant.status !== 'DELETING' || stored.step !== step) return null;
  const dueAt = String(stored.tenant.deletionDueAt);
  const progress: DeletionProgress = { ...stored.progress };
  const facts: TenantFacts = { tenantId, userIds: progress.userIds };
  const stepAt = () => new Date(deps.now()).toISOString();
  const read = await scanStep(progress.cursors, deps, progress.phase === 'verify');
  const found = read.items.filter((item) => belongsToTenant(item, facts) && !isDeletionBookkeeping(item, tenantId, dueAt));
  progress.cursors = read.cursors;
  if (progress.phase === 'delete') {
    await deleteItems(found.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
    progress.itemsDeleted += found.length;
  } else {
    progress.counted += found.length;
  }
  if (!allDone(progress.cursors)) return (await recordDeletionStep(tenantId, step, progress, stepAt())) ? step + 1 : null;

  const nowMs = deps.now();
  const audit = (action: 'tenant.deletion_started' | 'tenant.deleted', fields: Record<string, number>) =>
    auditRecord({ scope: 'platform', action, resource: { type: 'tenant', id: tenantId }, changes: counts(fields) }, nowMs);
  if (progress.phase === 'count') {
    // The tenant's own item and its schedule entry count too: the last transaction deletes them.
    const itemsBefore = progress.counted + 2;
    const next: DeletionProgress = { ...progress, phase: 'delete', cursors: freshCursors(deps), itemsBefore, counted: 0 };
    return (await recordDeletionStep(tenantId, step, next, stepAt(), audit('tenant.deletion_started', { itemsBefore }))) ? step + 1 : null;
  }
  if (progress.phase === 'delete') {
    const removed = await Promise.all(tenantFolders(tenantId).map((folder) => deps.files.removeFolder(folder)));
    logger.info('tenant deletion: items deleted, files removed', {
      tenantId,
      itemsDeleted: progress.itemsDeleted,
      files: removed.reduce((sum, count) => sum + count, 0),
    });
    const next: DeletionProgress = { ...progress, phase: 'verify', cursors: freshCursors(deps), counted: 0 };
    return (await recordDeletionStep(tenantId, step, next, stepAt())) ? step + 1 : null;
  }
  if (progress.counted > 0) {
    // Written meanwhile, or not yet seen by the eventually consistent Scan: delete again.
    logger.warn('tenant deletion: the second count found items left; deleting again', { tenantId, itemsLeft: progress.counted });
    const next: DeletionProgress = { ...progress, phase: 'delete', cursors: freshCursors(deps), counted: 0 };
    return (await recordDeletionStep(tenantId, step, next, stepAt())) ? step + 1 : null;
  }
  const itemsDeleted = progress.itemsDeleted + 2;
  await finishTenantDeletion(tenantId, dueAt, step, audit('tenant.deleted', { itemsBefore: progress.itemsBefore, itemsDeleted, itemsAfter: 0 }));
  return null;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** A new export job's first state. */
export function newTenantExport(
  tenantId: string,
  requestedBy: { tenantId: string; userId: string },
  nowMs: number,
  deps: Pick<TenantJobDeps, 'segments'> = {},
): TenantExport {
  return {
    id: randomUUID(),
    tenantId,
    status: 'running',
    requestedBy: requestedBy.userId,
    requestedByTenantId: requestedBy.tenantId,
    failure: null,
    createdAt: new Date(nowMs).toISOString(),
    finishedAt: null,
    step: 0,
    cursors: Array.from({ length: deps.segments ?? TENANT_SCAN_SEGMENTS }, () => null),
    files: [],
    counts: {},
    excluded: {},
    droppedAttributes: [],
    manifestSha256: null,
  };
}

/** The export's manifest: the tenant, its files with their lines and SHA-256, the lines per item kind, and what was left out. */
export function exportManifest(job: TenantExport, tenant: { id: string; name: string }) {
  return {
    tenant,
    exportId: job.id,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    format: 'NDJSON: one item per line, as DynamoDB holds it in plain JSON (sets as arrays, binary as base64)',
    files: job.files,
    items: job.files.reduce((sum, file) => sum + file.items, 0),
    counts: job.counts,
    excluded: {
      items: [...EXPORT_EXCLUDED_ITEMS, EXPORT_IDEMPOTENCY].map((rule) => ({ kind: rule.kind, reason: rule.reason, items: job.excluded[rule.kind] ?? 0 })),
      attributes: { names: job.droppedAttributes, reason: EXPORT_EXCLUDED_ATTRIBUTES.reason },
    },
  };
}

/** One step of an export; the next step's number, or null when there is none. */
export async function runExportStep(tenantId: string, exportId: string, step: number, deps: TenantJobDeps): Promise<number | null> {
  const [stored, tenant] = await Promise.all([findTenantExport(tenantId, exportId, { position: true }), getTenant(tenantId)]);
  if (!stored || stored.status !== 'running' || stored.step !== step) return null;
  // A deletion under way removes the tenant's files once its items are gone: an export must not write more after it started.
  if (!tenant || tenant.status === 'DELETING') {
    logger.warn('tenant export stopped: the tenant is being deleted', { tenantId, exportId, step });
    await recordExportStep(
      {
        ...stored,
        status: 'failed',
        step: step + 1,
        failure: 'The deletion of the tenant started: the export was stopped',
        finishedAt: new Date(deps.now()).toISOString(),
      },
      step,
    );
    return null;
  }
  // A platform job: it goes on only while who asked for it is still a platform administrator (lib/background/authority).
  const lost =
    stored.requestedByTenantId === null ? null : await lostAuthority({ kind: 'platform', tenantId: stored.requestedByTenantId, userId: stored.requestedBy });
  if (lost !== null) {
    await recordExportStep({ ...stored, status: 'failed', step: step + 1, failure: lost, finishedAt: new Date(deps.now()).toISOString() }, step);
    return null;
  }
  const job: TenantExport = { ...stored, counts: { ...stored.counts }, excluded: { ...stored.excluded }, files: [...stored.files] };
  const read = await scanStep(job.cursors, deps);
  const dropped = new Set(job.droppedAttributes);
  let lines = '';
  let items = 0;
  for (const item of read.items) {
    if (!belongsToTenant(item, { tenantId, userIds: [] })) continue;
    // The job's own item changes as it runs: not the tenant's data.
    if (item.type === TENANT_JOB_ITEMS.export && item.id === exportId) continue;
    const excluded = excludedKind(item);
    if (excluded) {
      job.excluded[excluded] = (job.excluded[excluded] ?? 0) + 1;
      continue;
    }
    const exported = exportedItem(item);
    for (const name of exported.dropped) dropped.add(name);
    const kind = itemKind(item);
    job.counts[kind] = (job.counts[kind] ?? 0) + 1;
    lines += ndjsonLine(exported.item);
    items += 1;
  }
  const folder = exportFolder(tenantId, exportId);
  if (items > 0) {
    // Named by its place, so a step run again writes the same file again.
    const name = `items-${String(job.files.length + 1).padStart(5, '0')}.ndjson`;
    await deps.files.put(`${folder}/${name}`, lines, 'application/x-ndjson');
    job.files.push({ name, items, sha256: sha256(lines) });
  }
  job.cursors = read.cursors;
  job.droppedAttributes = [...dropped].sort();
  job.step = step + 1;
  if (allDone(job.cursors)) {
    job.status = 'succeeded';
    job.finishedAt = new Date(deps.now()).toISOString();
    const manifest = `${JSON.stringify(exportManifest(job, { id: tenantId, name: tenant.name }), null, 2)}\n`;
    await deps.files.put(`${folder}/manifest.json`, manifest, 'application/json');
    job.manifestSha256 = sha256(manifest);
    await deps.files.put(`${folder}/manifest.json.sha256`, `${job.manifestSha256}  manifest.json\n`, 'text/plain');
    await recordExportStep(job, step);
    return null;
  }
  return (await recordExportStep(job, step)) ? step + 1 : null;
}

/** Run the step a message asks for; the message of the next step, if any. */
export async function runTenantJobStep(message: TenantJobMessage, deps: TenantJobDeps): Promise<TenantJobMessage | null> {
  const next =
    message.type === 'tenant-deletion'
      ? await runDeletionStep(message.tenantId, message.step, deps)
      : message.type === 'tenant-export'
        ? await runExportStep(message.tenantId, message.exportId, message.step, deps)
        : message.type === 'transfer-arrival'
          ? await arriveAll(message.tenantId, message.batchId, deps.now()).then(() => null)
          : (await continueClose(message.tenantId, message.countId, deps.now(), COUNT_CLOSE_STEP_TRANSACTIONS))
            ? null
            : message.step + 1;
  return next === null ? null : { ...message, step: next };
}

/** The queue worker's handling of one message: its step, then the next sent. */
export async function handleTenantJobMessage(message: TenantJobMessage, deps: TenantJobDeps, send: SendTenantJob): Promise<void> {
  const next = await runTenantJobStep(message, deps);
  if (next) await send(next);
}

/** A job run to its end in this process, step after step (npm start, the tests). */
export async function runTenantJob(message: TenantJobMessage, deps: TenantJobDeps): Promise<void> {
  for (let next: TenantJobMessage | null = message; next;) next = await runTenantJobStep(next, deps);
}
