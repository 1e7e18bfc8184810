import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '../lib/config';
import { failExport, runExport, type ExportMessage } from '../lib/exports/engine';
import { LOCAL_EXPORT_QUEUE } from '../lib/exports/queue';
import { localExportStorage } from '../lib/exports/storage';

/**
 * npm start's export worker: the messages POST /exports leaves in the local queue's folder
 * (lib/exports/queue, in process or from a bundle alike) are taken one at a time, as the
 * deployed worker takes the queue's (at most EXPORTS_AT_ONCE running), and each job run here by
 * the deployed worker's code (lib/exports/engine), its file written under IMPORT_UPLOAD_DIR.
 * The folder is watched, and read again every POLL_MS (a watch can miss an event), and once at
 * start: a message left by a stopped npm start is run when it starts again. A run that fails is
 * logged and its job marked failed, as the queue does deployed once it gives up.
 */

const POLL_MS = 1_000;
const EXPORTS_AT_ONCE = 2;

/** Start the worker; the function returned stops it. */
export async function startLocalExports(log: (line: string) => void): Promise<() => void> {
  const { IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (!IMPORT_UPLOAD_SECRET || !IMPORT_UPLOAD_DIR) throw new Error('IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR are set by local/environment.ts');
  const files = localExportStorage(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  const folder = join(IMPORT_UPLOAD_DIR, LOCAL_EXPORT_QUEUE);
  await mkdir(folder, { recursive: true });
  const taken = new Set<string>();
  let stopped = false;

  const runOne = async (name: string) => {
    const path = join(folder, name);
    const message = JSON.parse(await readFile(path, 'utf8')) as ExportMessage;
    const ref = { tenantId: message.tenantId, id: message.exportId };
    const started = Date.now();
    try {
      await runExport(ref, { now: Date.now, files });
      log(`[exports] ${ref.id} done in ${Date.now() - started} ms`);
    } catch (error) {
      log(`[exports] ${ref.id} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      await failExport(ref, Date.now()).catch(() => undefined);
    } finally {
      await rm(path, { force: true });
      taken.delete(name);
    }
  };
  const drain = async () => {
    if (stopped) return;
    const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json') && !taken.has(name)).sort();
    for (const name of names) {
      if (taken.size >= EXPORTS_AT_ONCE) return;
      taken.add(name);
      void runOne(name).then(drain, (error: unknown) => log(`[exports] ${name}: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(folder, () => void drain());
  } catch (error) {
    log(`[exports] the queue folder is not watched (${error instanceof Error ? error.message : String(error)}): read every ${POLL_MS} ms`);
  }
  const timer = setInterval(() => void drain(), POLL_MS);
  timer.unref();
  await drain();
  return () => {
    stopped = true;
    watcher?.close();
    clearInterval(timer);
  };
}
