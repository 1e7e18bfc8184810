import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PasswordHasher } from '../lib/auth/passwords';

/**
 * bcrypt for the local emulator in worker threads, as Lambda isolates it. On AWS each function
 * is its own Lambda with its own vCPU (the bcrypt routes, `cpu: 'bcrypt'` in the manifest, get
 * a full one), so a hash blocks nobody else. `npm start` runs every handler in one process:
 * bcryptjs there would block the one event loop (about 85 ms per hash at cost 10), and a burst
 * of sign-ins would freeze every other request. `npm start` installs this pool with
 * `usePasswordHasher` (lib/auth/passwords.ts); the Lambda bundles never import it.
 *
 * The workers (local/password-worker.js, plain JavaScript) start on first use, one per hash
 * waiting, up to `size`, and stay for the next ones; a hash waits in line when all are busy.
 * On Linux they run at a lower priority (nice 10), so that with fewer cores than Lambdas a
 * flood of sign-ins waits for the CPU rather than the other requests. A worker keeps the
 * process alive only while it is computing, and `stop` ends them all.
 */
export interface PasswordPool extends PasswordHasher {
  /** The most worker threads it runs. */
  readonly size: number;
  /** Terminate the workers; what is still waiting is rejected. */
  stop(): Promise<void>;
}

/**
 * How `npm start` (source mode) computes bcrypt: `pool`, the default, or `in-process` with
 * LOCAL_PASSWORD_HASHER=in-process, bcryptjs on the event loop as before the pool (the
 * baseline of `npm run bench -- burst`).
 */
export function localPasswordHasher(value = process.env.LOCAL_PASSWORD_HASHER): 'pool' | 'in-process' {
  if (value === undefined || value === '' || value === 'pool') return 'pool';
  if (value === 'in-process') return value;
  throw new Error(`LOCAL_PASSWORD_HASHER is ${JSON.stringify(value)}: pool (the default) or in-process`);
}

/** One thread per core but one, left to the event loop (and DynamoDB Local); at least one. */
export const defaultPasswordPoolSize = (): number => Math.max(1, availableParallelism() - 1);

const WORKER_FILE = new URL('./password-worker.js', import.meta.url);

type Request = { op: 'hash'; input: string; cost: number } | { op: 'compare'; input: string; hash: string };
type Reply = { result: string | boolean; error?: undefined } | { error: string };

interface Task {
  request: Request;
  resolve(result: string | boolean): void;
  reject(error: Error): void;
}

export function startPasswordPool(options: { size?: number } = {}): PasswordPool {
  const size = options.size ?? defaultPasswordPoolSize();
  if (!Number.isInteger(size) || size < 1) throw new Error(`the password pool needs at least one worker (size ${size})`);
  const workers = new Set<Worker>();
  const idle: Worker[] = [];
  const running = new Map<Worker, Task>();
  const queue: Task[] = [];
  let stopped = false;

  const run = (worker: Worker, task: Task) => {
    running.set(worker, task);
    worker.ref();
    worker.postMessage(task.request);
  };

  /** Hand waiting tasks to idle workers, starting new ones up to `size`. */
  const pump = () => {
    while (!stopped && queue.length > 0 && (idle.length > 0 || workers.size < size)) {
      run(idle.pop() ?? spawn(), queue.shift() as Task);
    }
  };

  const settle = (worker: Worker): Task | undefined => {
    const task = running.get(worker);
    running.delete(worker);
    worker.unref();
    return task;
  };

  const spawn = (): Worker => {
    // No tsx loader in the thread: it runs plain JavaScript and starts faster without.
    const worker = new Worker(WORKER_FILE, { execArgv: [] });
    workers.add(worker);
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const task = settle(worker);
      if (reply.error !== undefined) task?.reject(new Error(`password worker: ${reply.error}`));
      else task?.resolve(reply.result);
      idle.push(worker);
      pump();
    });
    worker.on('error', (error) => settle(worker)?.reject(error));
    worker.on('exit', (code) => {
      workers.delete(worker);
      const index = idle.indexOf(worker);
      if (index >= 0) idle.splice(index, 1);
      settle(worker)?.reject(new Error(`password worker exited with code ${code}`));
      // A worker that died is replaced on demand by the next task.
      pump();
    });
    return worker;
  };

  const submit = (request: Request) =>
    new Promise<string | boolean>((resolve, reject) => {
      if (stopped) {
        reject(new Error('the password pool is stopped'));
        return;
      }
      queue.push({ request, resolve, reject });
      pump();
    });

  return {
    size,
    hash: async (input, cost) => (await submit({ op: 'hash', input, cost })) as string,
    compare: async (input, hash) => (await submit({ op: 'compare', input, hash })) === true,
    stop: async () => {
      stopped = true;
      for (const task of queue.splice(0)) task.reject(new Error('the password pool is stopped'));
      await Promise.all([...workers].map((worker) => worker.terminate()));
    },
  };
}
