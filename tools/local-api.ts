import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LOCAL_CONFIG_VARIABLES } from '../local/environment';

export interface LocalApi {
  url: string;
  stop(): Promise<void>;
}

export interface LocalApiOptions {
  dataDir: string;
  /** Keep DynamoDB Local off the disk (the shared integration instance). */
  inMemory: boolean;
  allowedOrigins: string;
  /** Reload the handlers when functions/ or lib/ change, as `npm start` does; off by default. */
  watch?: boolean;
  /** The checkout to run (a copy of the repository, for the hot-reload test); this one by default. */
  root?: string;
  /** Run the synthesized bundles with their IAM grants (`npm start -- --bundles`). */
  bundles?: boolean;
  /** The API's port; a free one by default. */
  port?: number;
  /** Fault injection (local/faults.ts): LOCAL_FAULT_RATE and LOCAL_FAULT_SEED; none by default. */
  faults?: { rate: number; seed: number };
  /** Every line the API prints, as it comes. */
  onOutput?: (text: string) => void;
}

/**
 * Start the local API as `npm start` does, on free ports, with the data folder given, without
 * watching the source unless `watch` is set.
 */
export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  // A fresh API: none of this process's own local configuration leaks into it.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !(LOCAL_CONFIG_VARIABLES as readonly string[]).includes(name) && !name.startsWith('LOCAL_FAULT_')),
  );
  const root = options.root ?? process.cwd();
  const child = spawn(
    join(root, 'node_modules', '.bin', 'tsx'),
    ['local/start.ts', options.watch ? '--watch' : '--no-watch', ...(options.bundles ? ['--bundles'] : [])],
    {
      cwd: root,
      env: {
        ...inherited,
        PORT: String(options.port ?? 0),
        DYNAMODB_PORT: '0',
        DATA_DIR: options.dataDir,
        ALLOWED_ORIGINS: options.allowedOrigins,
        NODE_NO_WARNINGS: '1',
        ...(options.inMemory ? { DYNAMODB_IN_MEMORY: '1' } : {}),
        ...(options.faults ? { LOCAL_FAULT_RATE: String(options.faults.rate), LOCAL_FAULT_SEED: String(options.faults.seed) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  let started = false;
  const url = await new Promise<string>((resolveUrl, reject) => {
    // Bundle mode may synthesize first (a minute or two on 2 cores).
    const timer = setTimeout(() => reject(new Error(`the local API did not start:\n${output}`)), options.bundles ? 600_000 : 60_000);
    const onData = (chunk: Buffer) => {
      options.onOutput?.(chunk.toString());
      if (started) return;
      output += chunk.toString();
      const match = /API listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        started = true;
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local API exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolveExit) => {
        if (child.exitCode !== null) return resolveExit();
        child.once('exit', () => resolveExit());
        child.kill('SIGTERM');
      }),
  };
}
