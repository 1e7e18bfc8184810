import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AssemblyFunction } from './assembly';

/**
 * One function's bundle in a worker thread, as one Lambda execution environment: its own
 * `process.env` (the resolved template environment, nothing inherited), its own module
 * state (the bundle is imported in the worker, once, on the first invocation: the cold
 * start), one invocation at a time (others wait, as a single Lambda instance would make them),
 * a heap limit of the template's MemorySize, and the template's Timeout: an invocation that
 * runs longer is cut off, its environment thrown away, and the next one starts cold.
 *
 * The result crosses as JSON, as the Lambda service returns it. A thrown error comes back as
 * an `InvocationError` with Lambda's `errorType` / `errorMessage` / `trace`.
 *
 * For the local API (npm start in bundle mode), wrap it as the gateway's loaders want:
 *   const worker = startFunctionWorker(fn, env);
 *   loadHandler = async () => (event, context) => worker.invoke(event, { awsRequestId: context.awsRequestId });
 */

export interface LambdaError {
  errorType: string;
  errorMessage: string;
  trace: string[];
}

/** A function invocation that failed: the error Lambda reports for it. */
export class InvocationError extends Error implements LambdaError {
  readonly errorType: string;
  readonly errorMessage: string;
  readonly trace: string[];

  constructor(error: LambdaError) {
    super(`${error.errorType}: ${error.errorMessage}`);
    this.name = 'InvocationError';
    this.errorType = error.errorType;
    this.errorMessage = error.errorMessage;
    this.trace = error.trace;
  }

  /** The payload `sam local invoke` / the Lambda API return for a failed invocation. */
  toJSON(): LambdaError {
    return { errorType: this.errorType, errorMessage: this.errorMessage, trace: this.trace };
  }
}

export interface InvokeOptions {
  awsRequestId?: string;
}

export interface FunctionWorker {
  readonly functionId: string;
  invoke(event: unknown, options?: InvokeOptions): Promise<unknown>;
  stop(): Promise<void>;
}

export interface FunctionWorkerOptions {
  /** Where the function's stdout and stderr go (its logs); default: this process's stderr. */
  log?: (chunk: string) => void;
}

/** Runs inside the worker (CommonJS, evaluated): imports the bundle and answers invocations. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let loading;
const load = () => {
  loading ??= import(workerData.url).then((module) => {
    const handler = module[workerData.exportName];
    if (typeof handler !== 'function') throw Object.assign(new Error(workerData.exportName + ' is not a function exported by ' + workerData.url), { name: 'Runtime.HandlerNotFound' });
    return handler;
  });
  return loading;
};
const flush = () => new Promise((done) => process.stdout.write('', () => process.stderr.write('', done)));
parentPort.on('message', async ({ id, event, context }) => {
  const lambdaContext = {
    ...context,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, context.deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  delete lambdaContext.deadline;
  try {
    const handler = await load();
    const result = await handler(event, lambdaContext);
    await flush();
    parentPort.postMessage({ id, ok: true, result: result === undefined ? null : JSON.parse(JSON.stringify(result)) });
  } catch (error) {
    await flush();
    const failure = error instanceof Error ? error : new Error(String(error));
    parentPort.postMessage({ id, ok: false, error: { errorType: failure.name || 'Error', errorMessage: failure.message, trace: String(failure.stack || '').split('\\n') } });
  }
});
`;

interface Pending {
  id: string;
  /** The environment running it: only its own end can fail it. */
  worker: Worker;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

type WorkerMessage = { id: string; ok: true; result: unknown } | { id: string; ok: false; error: LambdaError };

/** Starts the execution environment of one function. */
export function startFunctionWorker(fn: AssemblyFunction, env: Record<string, string>, options: FunctionWorkerOptions = {}): FunctionWorker {
  const log = options.log ?? ((chunk: string) => void process.stderr.write(chunk));
  let worker: Worker | undefined;
  let pending: Pending | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;

  /** Fails the pending invocation when it runs in `on` (a replaced environment's end fails nothing). */
  const fail = (on: Worker, error: Error) => {
    const current = pending;
    if (!current || current.worker !== on) return;
    pending = undefined;
    current.reject(error);
  };

  const spawn = (): Worker => {
    const created = new Worker(WORKER_SOURCE, {
      eval: true,
      env,
      execArgv: [],
      workerData: { url: pathToFileURL(fn.entryFile).href, exportName: fn.exportName },
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: fn.memoryMB },
    });
    created.stdout.setEncoding('utf8').on('data', log);
    created.stderr.setEncoding('utf8').on('data', log);
    created.on('message', (message: WorkerMessage) => {
      if (!pending || message.id !== pending.id) return;
      const current = pending;
      pending = undefined;
      if (message.ok) current.resolve(message.result);
      else current.reject(new InvocationError(message.error));
    });
    created.on('error', (error) => {
      if (worker === created) worker = undefined;
      fail(created, new InvocationError({ errorType: 'Runtime.ExitError', errorMessage: error.message, trace: String(error.stack ?? '').split('\n') }));
    });
    created.on('exit', (code) => {
      if (worker === created) worker = undefined;
      fail(
        created,
        new InvocationError({
          errorType: 'Runtime.ExitError',
          errorMessage: `RequestId: ${pending?.id ?? '-'} Error: Runtime exited with error: exit status ${code}`,
          trace: [],
        }),
      );
    });
    return created;
  };

  const run = (event: unknown, invokeOptions: InvokeOptions): Promise<unknown> => {
    if (stopped) return Promise.reject(new Error(`The worker of ${fn.logicalId} is stopped`));
    worker ??= spawn();
    const current = worker;
    const awsRequestId = invokeOptions.awsRequestId ?? randomUUID();
    const timeoutMs = fn.timeoutSeconds * 1000;
    const context = {
      awsRequestId,
      functionName: fn.logicalId,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:${env.AWS_REGION ?? 'us-east-1'}:000000000000:function:${fn.logicalId}`,
      memoryLimitInMB: String(fn.memoryMB),
      logGroupName: `/aws/lambda/${fn.logicalId}`,
      logStreamName: 'local',
      deadline: Date.now() + timeoutMs,
    };
    return new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Lambda stops the environment; the next invocation starts cold.
        if (worker === current) worker = undefined;
        fail(
          current,
          new InvocationError({
            errorType: 'Sandbox.Timedout',
            errorMessage: `RequestId: ${awsRequestId} Error: Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds`,
            trace: [],
          }),
        );
        void current.terminate();
      }, timeoutMs);
      pending = {
        id: awsRequestId,
        worker: current,
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      current.postMessage({ id: awsRequestId, event, context });
    });
  };

  return {
    functionId: fn.logicalId,
    invoke(event, invokeOptions = {}) {
      const result = queue.then(() => run(event, invokeOptions));
      queue = result.catch(() => undefined);
      return result;
    },
    async stop() {
      stopped = true;
      const current = worker;
      worker = undefined;
      if (current) await current.terminate();
    },
  };
}
