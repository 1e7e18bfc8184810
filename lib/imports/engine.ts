import { createHash } from 'node:crypto';
import { lostAuthority } from '../background/authority';
import { endPendingJob } from '../background/pending-jobs';
import { userActor } from '../audit/record';
import { withRequestOrigin } from '../audit/context';
import { CsvError } from '../csv/errors';
import { decodeCsv, parseCsv } from '../csv/read';
import { failImportJob, findImportJob, recordImportStep, startImportJob, type StepOutcome } from './repository';
import { takenProductSkus } from '../inventory/product-repository';
import { takenSupplierDocuments } from '../suppliers/repository';
import { mapConcurrently } from '../domain/concurrency';
import { Conflict } from '../errors';
import { createProduct } from '../inventory/service';
import { categoryNamed } from '../categories/service';
import { createSupplier } from '../suppliers/service';
import { mapHeader } from './columns';
import { MAX_IMPORT_ROWS, MAX_REPORTED_ERRORS, type ImportJob, type RowError } from './model';
import { checkRows, type CheckedRow, type RowInput } from './rows';
import { closeStockCounts, stockStep, type StockOutcome } from './stock';

/**
 * The import's steps: the same code in the deployed worker (an SQS message per step,
 * functions/imports/import-worker.ts) and in `npm start` (in process). A step reads the job and
 * its file, checks every row (the API's rules), then handles up to `stepRows` rows from the job's
 * `nextRow`: a dry run counts what would be created; a real run creates each valid row through
 * the API's own service (its transaction, audit entry and event), a row whose SKU or document is
 * taken counting as already there. It records its counts only if the job is still at the row it
 * started from, and says where the next step starts.
 *
 * Every step first re-checks who asked (lib/background/authority): a job whose tenant was
 * closed, or whose user was removed or is no longer an administrator, fails with that reason
 * and writes nothing more.
 *
 * Idempotent: a step run twice records once, and creates nothing twice (the second run finds
 * the SKUs and documents taken); the same file imported again creates nothing.
 */

export interface ImportFiles {
  /** The job's uploaded file; undefined when it is not there. */
  read(job: ImportJob): Promise<Uint8Array | undefined>;
}

export interface ImportDeps {
  now: () => number;
  files: ImportFiles;
  /** Rows per step (default STEP_ROWS). */
  stepRows?: number;
}

/** Rows a step handles: about 10 s of creates on DynamoDB, well inside the worker's timeout. */
export const STEP_ROWS = 500;

/**
 * Creates in flight at once, by kind. Products only contend on their own SKU; suppliers share
 * their tenant's count and search block, so more at once would only retry.
 */
const CREATE_WIDTH = { suppliers: 4, products: 16, stock: 4 } as const;

/** A file read and checked, kept for the job's next steps while this process lives (a step reads the next rows of the same file). */
interface CheckedFile {
  rows: CheckedRow[];
  ignoredColumns: string[];
  /** The SHA-256 of its bytes (base64url): every step reads the file its job started with. */
  digest: string;
  /** Each field's column as the file names it (a refusal found by the step names it so). */
  columns: Map<string, string>;
}
const checkedFiles = new Map<string, CheckedFile>();
const KEPT_FILES = 2;

/** Why a file cannot be imported at all, in words for the job's `failure`. */
class UnreadableFile extends Error {}

async function checkedFile(job: ImportJob, deps: ImportDeps): Promise<CheckedFile> {
  const cached = checkedFiles.get(job.id);
  if (cached) return cached;
  const bytes = await deps.files.read(job);
  if (!bytes) throw new UnreadableFile('The file was not received');
  const digest = createHash('sha256').update(bytes).digest('base64url');
  // The upload link stays valid 15 minutes: a file PUT again after the job started is not the one its first steps read.
  if (job.fileDigest !== null && job.fileDigest !== digest) throw new UnreadableFile('The file changed after the import started: start a new import with it');
  let table;
  try {
    table = parseCsv(decodeCsv(bytes).text, { maxRows: MAX_IMPORT_ROWS });
  } catch (error) {
    if (error instanceof CsvError) throw new UnreadableFile(error.message);
    throw error;
  }
  const header = mapHeader(job.kind, table.header);
  if (header.missing.length > 0) {
    const names = header.missing.map((column) => `${column.field} (e.g. "${column.headers[1] ?? column.headers[0]}")`).join(', ');
    throw new UnreadableFile(`The header has no column for ${names}`);
  }
  const columns = new Map([...header.fields].map(([field, at]) => [field, at.header]));
  const file = { rows: checkRows(job.kind, table, header), ignoredColumns: header.ignored, digest, columns };
  checkedFiles.set(job.id, file);
  while (checkedFiles.size > KEPT_FILES) checkedFiles.delete(checkedFiles.keys().next().value as string);
  return file;
}

/** Whether each valid row's record would be new, for a dry run: one BatchGetItem per 100 keys. */
async function takenKeys(job: ImportJob, rows: Extract<CheckedRow, { ok: true }>[]): Promise<Set<string>> {
  const keyList = rows.map((row) => row.key);
  if (job.kind === 'stock') return new Set();
  return job.kind === 'suppliers' ? takenSupplierDocuments(job.tenantId, keyList) : takenProductSkus(job.tenantId, keyList);
}

/** Create one row's record as its API route does, as the user who made the job, from where they made it. */
async function create(job: ImportJob, request: RowInput, nowMs: number): Promise<'created' | 'existing'> {
  const origin = { ...job.origin, actor: userActor(job.createdBy) };
  try {
    await withRequestOrigin(origin, async () => {
      if (request.kind === 'suppliers') await createSupplier(job, request.input, nowMs);
      else if (request.kind === 'products') {
        const categoryId = request.category === undefined ? undefined : await categoryNamed(job, request.category, nowMs);
        await createProduct(job, { ...request.input, ...(categoryId === undefined ? {} : { categoryId }) }, nowMs);
      }
    });
    return 'created';
  } catch (error) {
    if (error instanceof Conflict) return 'existing';
    throw error;
  }
}

/**
 * One step of the job from `fromRow` (0 starts it: its file has come). Where the next step
 * starts, or null when there is none (the job finished or failed, or another run of this step
 * recorded it).
 */
export async function runImportStep(ref: { tenantId: string; id: string }, fromRow: number, deps: ImportDeps): Promise<number | null> {
  let job = await findImportJob(ref.tenantId, ref.id);
  if (!job) return null;
  const nowIso = () => new Date(deps.now()).toISOString();
  const fail = async (reason: string) => {
    await failImportJob(job as ImportJob, reason, nowIso());
    await endPendingJob(ref.tenantId, ref.id);
    checkedFiles.delete(ref.id);
  };
  if (job.status !== 'awaiting_upload' && job.status !== 'running') return null;
  // Before the file is read: the job goes on only while its tenant is active and its user an administrator (lib/background/authority).
  const lost = await lostAuthority({ kind: 'tenant', tenantId: job.tenantId, userId: job.createdBy.id, role: 'ADMIN' });
  if (lost !== null) {
    await fail(lost);
    return null;
  }
  let file: CheckedFile;
  try {
    file = await checkedFile(job, deps);
  } catch (error) {
    if (!(error instanceof UnreadableFile)) throw error;
    await fail(error.message);
    return null;
  }
  if (job.status === 'awaiting_upload') {
    await startImportJob(job, { totalRows: file.rows.length, ignoredColumns: file.ignoredColumns, fileDigest: file.digest }, nowIso());
    job = await findImportJob(ref.tenantId, ref.id);
    if (!job) return null;
  }
  if (job.status !== 'running' || job.nextRow !== fromRow) return null;

  const rows = file.rows.slice(fromRow, fromRow + (deps.stepRows ?? STEP_ROWS));
  const valid = rows.filter((row): row is Extract<CheckedRow, { ok: true }> => row.ok);
  const refused = rows.flatMap((row): RowError[] => (row.ok ? [] : row.errors));
  const refusedRows = rows.length - valid.length;
  // The records already there, read by key (one BatchGetItem per 100): a dry run stops here; a
  // real run creates only the others, so a file imported again costs reads, not refused
  // transactions (which DynamoDB bills as writes). A create that still finds its key taken (a
  // concurrent one) counts as already there.
  const taken = await takenKeys(job, valid);
  const toRow = fromRow + rows.length;
  const last = toRow >= file.rows.length;
  const stepped: (StockOutcome | 'created' | 'existing')[] =
    job.kind === 'stock'
      ? await withRequestOrigin({ ...job.origin, actor: userActor(job.createdBy) }, () => stockRows(job, valid, deps.now(), last))
      : job.dryRun
        ? valid.map((row) => (taken.has(row.key) ? 'existing' : 'created'))
        : await mapConcurrently(valid, CREATE_WIDTH[job.kind], (row) =>
            taken.has(row.key) ? Promise.resolve('existing' as const) : create(job, row.request, deps.now()),
          );
  // Rows refused by what the step read (opening stock: an unknown warehouse or product).
  const outcomes = stepped.filter((outcome): outcome is 'created' | 'existing' => typeof outcome === 'string');
  const readRefusals = stepped
    .filter((outcome): outcome is RowError => typeof outcome !== 'string')
    .map((error) => ({ ...error, field: file.columns.get(error.field) ?? error.field }));
  refused.push(...readRefusals);
  refused.sort((a, b) => a.line - b.line);
  const room = Math.max(0, MAX_REPORTED_ERRORS - job.errors.length);
  const step: StepOutcome = {
    toRow,
    rowsDone: rows.length,
    created: outcomes.filter((outcome) => outcome === 'created').length,
    existing: outcomes.filter((outcome) => outcome === 'existing').length,
    refused: refusedRows + readRefusals.length,
    errors: refused.slice(0, room),
    errorsTruncated: job.errorsTruncated || refused.length > room,
    finishedAt: last ? nowIso() : null,
  };
  const recorded = await recordImportStep(job, fromRow, step);
  if (recorded && step.finishedAt !== null) {
    checkedFiles.delete(job.id);
    await endPendingJob(job.tenantId, job.id);
  }
  return recorded && step.finishedAt === null ? toRow : null;
}

/**
 * Opening stock's rows (./stock): set in their warehouses' counts (a dry run reads the balances);
 * the last step then closes the counts, before it is recorded, so a failed close runs again.
 */
async function stockRows(job: ImportJob, rows: Extract<CheckedRow, { ok: true }>[], nowMs: number, last: boolean): Promise<StockOutcome[]> {
  const outcomes = await stockStep(
    job,
    rows.flatMap((row) => (row.request.kind === 'stock' ? [{ row: row.request.input, line: row.line }] : [])),
    nowMs,
  );
  if (last && !job.dryRun) await closeStockCounts(job, nowMs);
  return outcomes;
}

/** Forget the files this process has read (a step that runs in a fresh process reads its file again). */
export function forgetCheckedFiles(): void {
  checkedFiles.clear();
}

/** Run a job's steps one after another in this process (`npm start`, the tests) until it finishes, from `fromRow` (a job resumed: its `nextRow`). */
export async function runImport(ref: { tenantId: string; id: string }, deps: ImportDeps, fromRow = 0): Promise<void> {
  for (let next: number | null = fromRow; next !== null;) next = await runImportStep(ref, next, deps);
}

/** The import queue's messages: a step to run (sent by the step before), or S3's notice that a file came (the first step). */
export interface StepMessage {
  type: 'import-step';
  tenantId: string;
  importId: string;
  fromRow: number;
}
interface S3Notice {
  Records?: { eventName?: string; s3?: { object?: { key?: string } } }[];
  Event?: string;
}

const UPLOADED_KEY = /^imports\/([0-9a-f-]{36})\/([0-9a-f-]{36})\.csv$/;

/**
 * The steps a queue message asks for: its own step, or the first step of each job whose file
 * S3 says was put (keys are URL-encoded in S3's notices); none for S3's test event or a key
 * that is not a job's file.
 */
export function stepsOf(body: StepMessage | S3Notice): StepMessage[] {
  if ('type' in body && body.type === 'import-step') return [body];
  return ((body as S3Notice).Records ?? []).flatMap((record) => {
    const match = UPLOADED_KEY.exec(decodeURIComponent((record.s3?.object?.key ?? '').replace(/\+/g, ' ')));
    return record.eventName?.startsWith('ObjectCreated:') && match
      ? [{ type: 'import-step' as const, tenantId: match[1] as string, importId: match[2] as string, fromRow: 0 }]
      : [];
  });
}

/** Run a message's steps, sending each next step to `next` (the queue). */
export async function handleImportMessage(body: StepMessage | S3Notice, deps: ImportDeps, next: (message: StepMessage) => Promise<void>): Promise<void> {
  for (const step of stepsOf(body)) {
    const fromRow = await runImportStep({ tenantId: step.tenantId, id: step.importId }, step.fromRow, deps);
    if (fromRow !== null) await next({ ...step, fromRow });
  }
}
