import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FolderMessage, QueueName } from '../lib/background/queue';

/**
 * npm start's stand-in for the SQS queues: one folder of message files (each written whole,
 * then renamed into place, by lib/background/queue's `enqueue`), each named for its queue
 * and run in the API's process by that queue's worker code, at most `atOnce` of a queue at a
 * time (its deployed event source's maximum concurrency). Whoever sent it (a handler in
 * process, or a bundle's worker thread with its function's IAM grants), the message runs here,
 * as the deployed worker runs it with its own grants. The folder is watched, read again every
 * POLL_MS (a watch can miss an event) and once at start: a message left by a stopped npm start
 * runs when it starts again. A message whose run fails is handed to its worker's `failed`, then
 * removed.
 */

const POLL_MS = 1_000;

export interface FolderWorker<M> {
  /** Messages of this queue run at once. */
  atOnce: number;
  /** The log's prefix, e.g. `[exports]`. */
  label: string;
  /** Runs the message; says what was done, for the log. */
  run: (message: M) => Promise<string>;
  failed: (message: M, error: unknown) => Promise<void>;
}

/** The folder, and each queue's worker, typed by the messages `M` names for each queue. */
export interface FolderQueue<M extends Record<QueueName, unknown>> {
  folder: string;
  workers: { [Q in QueueName]: FolderWorker<M[Q]> };
  log: (line: string) => void;
}

/** Start taking the folder's messages; the function returned stops it. */
export async function startFolderQueue<M extends Record<QueueName, unknown>>(queue: FolderQueue<M>): Promise<() => void> {
  const { folder, workers, log } = queue;
  const queues = Object.keys(workers) as QueueName[];
  const queueOf = (file: string) => queues.find((name) => file.startsWith(`${name}.`));
  await mkdir(folder, { recursive: true });
  const taken = new Map<string, QueueName>();
  const running = (name: QueueName) => [...taken.values()].filter((held) => held === name).length;
  let stopped = false;

  const runOne = async <Q extends QueueName>(file: string, worker: FolderWorker<M[Q]>) => {
    const path = join(folder, file);
    const { message } = JSON.parse(await readFile(path, 'utf8')) as FolderMessage;
    const started = Date.now();
    try {
      const what = await worker.run(message);
      log(`${worker.label} ${what} done in ${Date.now() - started} ms`);
    } catch (error) {
      log(`${worker.label} ${file} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      await worker.failed(message as M[Q], error).catch(() => undefined);
    } finally {
      await rm(path, { force: true });
      taken.delete(file);
    }
  };
  const drain = async () => {
    if (stopped) return;
    const files = (await readdir(folder).catch(() => [] as string[])).filter((file) => file.endsWith('.json') && !taken.has(file)).sort();
    for (const file of files) {
      const name = queueOf(file);
      if (!name) continue;
      const worker = workers[name];
      if (running(name) >= worker.atOnce) continue;
      taken.set(file, name);
      void runOne(file, worker).then(drain, (error: unknown) => log(`${worker.label} ${file}: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(folder, () => void drain());
  } catch (error) {
    log(`[queue] the queue folder is not watched (${error instanceof Error ? error.message : String(error)}): read every ${POLL_MS} ms`);
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
