import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * npm start's stand-in for an SQS queue: a folder of message files (each written whole, then
 * renamed into place, by the code that sends), taken at most `atOnce` at a time and run in the
 * API's process by the deployed worker's code. Whoever sent it (a handler in process, or a
 * bundle's worker thread with its function's IAM grants), the message runs here, as the
 * deployed worker runs it with its own grants. The folder is watched, read again every POLL_MS
 * (a watch can miss an event) and once at start: a message left by a stopped npm start runs
 * when it starts again. A message whose run fails is handed to `failed`, then removed.
 */

const POLL_MS = 1_000;

export interface FolderQueue<M> {
  folder: string;
  /** Messages run at once (the deployed event source's maximum concurrency). */
  atOnce: number;
  /** The log's prefix, e.g. `[exports]`. */
  label: string;
  run: (message: M) => Promise<string>;
  failed: (message: M, error: unknown) => Promise<void>;
  log: (line: string) => void;
}

/** Start taking the folder's messages; the function returned stops it. */
export async function startFolderQueue<M>(queue: FolderQueue<M>): Promise<() => void> {
  const { folder, atOnce, label, log } = queue;
  await mkdir(folder, { recursive: true });
  const taken = new Set<string>();
  let stopped = false;

  const runOne = async (name: string) => {
    const path = join(folder, name);
    const message = JSON.parse(await readFile(path, 'utf8')) as M;
    const started = Date.now();
    try {
      const what = await queue.run(message);
      log(`${label} ${what} done in ${Date.now() - started} ms`);
    } catch (error) {
      log(`${label} ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      await queue.failed(message, error).catch(() => undefined);
    } finally {
      await rm(path, { force: true });
      taken.delete(name);
    }
  };
  const drain = async () => {
    if (stopped) return;
    const names = (await readdir(folder).catch(() => [] as string[])).filter((name) => name.endsWith('.json') && !taken.has(name)).sort();
    for (const name of names) {
      if (taken.size >= atOnce) return;
      taken.add(name);
      void runOne(name).then(drain, (error: unknown) => log(`${label} ${name}: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(folder, () => void drain());
  } catch (error) {
    log(`${label} the queue folder is not watched (${error instanceof Error ? error.message : String(error)}): read every ${POLL_MS} ms`);
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
