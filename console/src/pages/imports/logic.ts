import type { components } from '@backoffice/client';

/**
 * The import page's rules, apart from React so that they are tested alone: what POST /imports
 * is sent, where the file goes and with which credentials, when to stop following a job, and
 * how its progress and time left read.
 */

export type ImportJob = components['schemas']['GetImportResponse'];
export type CreatedImport = components['schemas']['CreateImportResponse'];
export type ImportKind = ImportJob['kind'];
export type ImportStatus = ImportJob['status'];
export type UploadLink = CreatedImport['upload'];

export const IMPORT_KINDS: readonly ImportKind[] = ['suppliers', 'products', 'stock'];
/** POST /imports' limits (lib/imports/model.ts): checked here too, to say so in the user's language before any request. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
const MAX_FILE_NAME = 200;
/** How often a job is asked about while it runs. */
export const POLL_MS = 1000;

/** The kind a link asked for (`/imports?kind=products`); suppliers otherwise. */
export function kindOf(search: string): ImportKind {
  const kind = new URLSearchParams(search).get('kind');
  return IMPORT_KINDS.find((known) => known === kind) ?? 'suppliers';
}

export type FileProblem = 'missing' | 'empty' | 'tooLarge';

/** What is wrong with the chosen file before it is sent, if anything. */
export function fileProblem(file: Pick<File, 'size'> | undefined): FileProblem | undefined {
  if (!file) return 'missing';
  if (file.size === 0) return 'empty';
  if (file.size > MAX_IMPORT_BYTES) return 'tooLarge';
  return undefined;
}

/** POST /imports' body for a file: its name (cut to the API's 200 characters) and its exact size in bytes. */
export function startBody(kind: ImportKind, dryRun: boolean, file: Pick<File, 'name' | 'size'>): components['schemas']['CreateImportRequest'] {
  return { kind, dryRun, fileName: file.name.slice(0, MAX_FILE_NAME) || 'planilha.csv', size: file.size };
}

/** The job as GET /imports/{id} shows it: POST's answer without its upload link. */
export function jobOf(created: CreatedImport): ImportJob {
  const job: Partial<CreatedImport> = { ...created };
  delete job.upload;
  return job as ImportJob;
}

/**
 * Where the file is PUT, and whether the browser's cookies go with it. Deployed, the link is
 * S3's (absolute, another origin): no cookie may go there (`omit`). Under `npm start` it is a
 * path on the API's origin, which is the page's: resolved against it, same-origin credentials
 * as any request of the page. Only http(s) addresses are followed.
 */
export function uploadTarget(url: string, pageOrigin: string): { url: string; credentials: RequestCredentials } {
  const target = new URL(url, pageOrigin);
  if (target.protocol !== 'https:' && target.protocol !== 'http:') throw new RangeError(`not an upload address: ${target.protocol}`);
  return { url: target.href, credentials: target.origin === new URL(pageOrigin).origin ? 'same-origin' : 'omit' };
}

/** A job still moving: its file not yet arrived, or its rows being read. */
export const isUnderway = (status: ImportStatus): boolean => status === 'awaiting_upload' || status === 'running';

/** TanStack Query's refetchInterval for a job: every POLL_MS while it is underway, then never again. */
export const pollInterval = (job: Pick<ImportJob, 'status'> | undefined): number | false => (job && isUnderway(job.status) ? POLL_MS : false);

/** The progress bar: rows done of the rows in the file, and the whole percent (never over 100); none before the file is read. */
export function progressOf(job: Pick<ImportJob, 'rowsDone' | 'totalRows'>): { done: number; total: number; percent: number } | undefined {
  if (job.totalRows === null) return undefined;
  if (job.totalRows === 0) return { done: 0, total: 0, percent: 100 };
  const done = Math.min(job.rowsDone, job.totalRows);
  return { done, total: job.totalRows, percent: Math.floor((done * 100) / job.totalRows) };
}

export type Eta = { unit: 'seconds'; seconds: number } | { unit: 'minutes'; minutes: number } | { unit: 'hours'; hours: number; minutes: number };

/** The time left as people say it: seconds under a minute, whole minutes under an hour, then hours and minutes; none when the API has no estimate. */
export function etaOf(etaSeconds: number | null): Eta | undefined {
  if (etaSeconds === null || etaSeconds < 0) return undefined;
  if (etaSeconds < 60) return { unit: 'seconds', seconds: Math.max(1, Math.round(etaSeconds)) };
  const minutes = Math.round(etaSeconds / 60);
  if (minutes < 60) return { unit: 'minutes', minutes };
  return { unit: 'hours', hours: Math.floor(minutes / 60), minutes: minutes % 60 };
}

/** Whether "Import for real" is offered: a finished check that refused nothing, with its file still at hand. */
export function canImportForReal(
  job: Pick<ImportJob, 'dryRun' | 'status' | 'refused' | 'fileName' | 'size'>,
  file: Pick<File, 'name' | 'size'> | undefined,
): boolean {
  return (
    job.dryRun &&
    job.status === 'succeeded' &&
    job.refused === 0 &&
    file !== undefined &&
    file.size === job.size &&
    file.name.slice(0, MAX_FILE_NAME) === job.fileName
  );
}

/** A failed upload's answer, shortly: S3's `<Message>` of its XML error, or the first line of a text. */
export function uploadFailureText(body: string): string {
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  const text = (message ?? body).trim().split('\n')[0] ?? '';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
