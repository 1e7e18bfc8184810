import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LOCAL_CONFIG_VARIABLES } from '../local/environment';

export interface LocalApi {
  url: string;
  stop(): Promise<void>;
}

/**
 * Start the local API as `npm start` does, on free ports, with the data folder given.
 * `inMemory` keeps DynamoDB Local off the disk (the shared integration instance).
 */
export async function startLocalApi(options: { dataDir: string; inMemory: boolean; allowedOrigins: string }): Promise<LocalApi> {
  // A fresh API: none of this process's own local configuration leaks into it.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(LOCAL_CONFIG_VARIABLES as readonly string[]).includes(name)));
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['local/start.ts'], {
    env: {
      ...inherited,
      PORT: '0',
      DYNAMODB_PORT: '0',
      DATA_DIR: options.dataDir,
      ALLOWED_ORIGINS: options.allowedOrigins,
      NODE_NO_WARNINGS: '1',
      ...(options.inMemory ? { DYNAMODB_IN_MEMORY: '1' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local API did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
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
