import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Starts the local API exactly as `npm start` does (emulator + DynamoDB Local), on free
 * ports, with an in-memory store and a temporary data folder, once for all integration
 * test files.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dataDir: string;
    allowedOrigin: string;
  }
}

export const ALLOWED_ORIGIN = 'https://app.example.com';

let child: ChildProcess | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'backoffice-it-'));
  child = spawn(join('node_modules', '.bin', 'tsx'), ['local/start.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      DYNAMODB_PORT: '0',
      DYNAMODB_IN_MEMORY: '1',
      DATA_DIR: dataDir,
      ALLOWED_ORIGINS: ALLOWED_ORIGIN,
      NODE_NO_WARNINGS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const apiUrl = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local API did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child?.stdout?.on('data', onData);
    child?.stderr?.on('data', onData);
    child?.once('exit', (code) => reject(new Error(`the local API exited with ${code}:\n${output}`)));
  });
  project.provide('apiUrl', apiUrl);
  project.provide('dataDir', dataDir);
  project.provide('allowedOrigin', ALLOWED_ORIGIN);
}

export async function teardown(): Promise<void> {
  if (child && child.exitCode === null) {
    await new Promise<void>((resolveExit) => {
      child?.once('exit', () => resolveExit());
      child?.kill('SIGTERM');
    });
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
